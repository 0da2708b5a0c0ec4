"""A finished game's outcome in words, the same on its page and in the game-over email:
why it ended, who won, and each place with its score in the game's words."""
from __future__ import annotations

# Ends the service makes, not the rules: the game's status, then the result's reason.
SERVICE_ENDINGS = {"abandoned": "The players abandoned it.", "resignation": "The other players resigned."}


def end_reason(rules, status: str, result: dict | None) -> str:
    """Why the game ended, as a sentence ("The bag ran out of tiles.")."""
    reason = str((result or {}).get("reason") or "")
    said = SERVICE_ENDINGS.get(status) or SERVICE_ENDINGS.get(reason)
    if said:
        return said
    clause = rules.end_words(reason) if reason else ""
    return clause[:1].upper() + clause[1:] + "." if clause else ""


def winners(result: dict | None, names: dict) -> str | None:
    """Who won a finished game, in words: the first group of its ranking."""
    ranking = (result or {}).get("ranking")
    if not ranking or not ranking[0]:
        return None
    first = [names.get(seat, f"seat {seat}") for seat in ranking[0]]
    if len(first) == 1:
        return f"{first[0]} won."
    return f"A tie for first place: {', '.join(first[:-1])} and {first[-1]}."


def final_ranking(result: dict | None, names: dict, rules) -> list[dict]:
    """Each place of a finished game's ranking (tied seats share one) with its players'
    names and the first one's score in the game's words."""
    ranking = []
    scores = (result or {}).get("scores") or {}
    for place, seats in enumerate((result or {}).get("ranking") or [], start=1):
        score = scores.get(str(seats[0]), scores.get(seats[0]))
        ranking.append({"place": place, "seats": [int(seat) for seat in seats],
                        "players": [names.get(int(seat), f"seat {seat}") for seat in seats],
                        "detail": "" if score is None else rules.score_words(score)})
    return ranking
