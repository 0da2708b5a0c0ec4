"""The card game's events told as sentences with names, plurals right, and a tie
said to go to the defender."""
from engine import get_game

NAMES = {0: "ann", 1: "bob"}
describe = get_game("euphrat-cards").describe_event


def test_a_resolved_conflict_is_a_sentence_with_names_and_the_winning_strength_first():
    text = describe({"type": "conflict_resolved", "kind": "internal", "color": "black", "winner": 0, "loser": 1,
                     "attacker_strength": 2, "defender_strength": 5, "leader_returned": "king", "cards_taken": []},
                     NAMES)
    assert text == "ann won the internal black conflict against bob, 5 to 2; bob's king goes back."


def test_a_tie_says_it_goes_to_the_defender():
    text = describe({"type": "conflict_resolved", "kind": "external", "color": "red", "winner": 1, "loser": 0,
                     "attacker_strength": 3, "defender_strength": 3, "leader_returned": "priest",
                     "cards_taken": [1, 1]}, NAMES)
    assert "3 to 3 (a tie goes to the defender)" in text and "2 cards taken" in text


def test_one_supporter_is_singular_and_several_are_plural():
    one = describe({"type": "support_committed", "seat": 0, "side": "attacker", "color": "red", "count": 1}, NAMES)
    two = describe({"type": "support_committed", "seat": 1, "side": "defender", "color": "red", "count": 2}, NAMES)
    assert one == "ann commits 1 red supporter as the attacker."
    assert two == "bob commits 2 red supporters as the defender."


def test_no_event_of_a_played_game_is_a_raw_dump():
    game = get_game("euphrat-cards")
    state = game.setup(2, 7)
    for _ in range(300):
        if game.outcome(state):
            break
        seat = next(iter(game.pending(state)))
        state, events = game.apply(state, seat, game.legal_moves(state, seat)[-1])
        for event in events:
            text = describe(event, NAMES)
            assert "seat" not in text and "(" not in text.replace("(a tie goes to the defender)", ""), text
            assert text[0].isupper() or text.startswith(("ann", "bob")), text


def test_the_support_prompt_names_the_side_and_the_strengths():
    game = get_game("euphrat-cards")
    state = game.setup(2, 3)
    for _ in range(400):  # play until someone owes support
        owed = game.pending(state)
        seat = next(iter(owed))
        if owed[seat] == "support":
            break
        state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert game.pending(state)[seat] == "support", "no conflict came up"
    text = game.prompt(state, seat, NAMES)
    assert text.startswith(("You attack", "You defend")) and "Strength so far: you " in text
    assert "a tie goes to the defender" in text and ("bob" in text or "ann" in text)


def test_ship_points_and_every_other_scoring_reason_are_told_in_words():
    ship = describe({"type": "points_scored", "seat": 0, "cards": {"blue": 1}, "reason": "ship (farmer)"}, NAMES)
    assert ship == "ann scored 1 blue point for a ship in the farmer's kingdom."
    for reason in ("card", "trader", "internal conflict", "external conflict", "ship (king)"):
        text = describe({"type": "points_scored", "seat": 1, "cards": {"red": 2}, "reason": reason}, NAMES)
        assert "(" not in text and text.startswith("bob scored 2 red points for "), text
