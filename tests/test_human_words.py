"""Players read only the words and notation they type, never the engine's identifiers.

Random games of all four games, under several option sets, are played a few dozen
decisions each. At every decision the test gathers what a player is shown: the prompt,
the decision email's parts (its moves open now, its links, the player's own position,
what changed), the `help` forms the game's options allow, and the message of every
move the engine refuses: moves of other decisions and of earlier positions, moves by
a seat that owes nothing, and legal moves with one value changed. None may hold an
internal move type (`place_tile`, `attack_with`, `set_answer`), a decision kind
named as such ("an acquire decision") or any snake_case name. Then real email replies
(illegal, unreadable, by the seat not to move, `help`) go through the inbound worker
and every answer the players get is checked the same way.
"""
from __future__ import annotations

import itertools
import random
import re

import pytest

import engine
from engine.grammar import all_forms
from engine.simulate import random_playout
from service.db import transaction
from service.models import Game
from tests.conftest import start_game
from tests.workers.conftest import free_port, smtp_server  # noqa: F401 - the fixture, used by `mail`
from tests.workers.mail_players import MailService, latest_mail_to, reply, reply_address_of, text_of
from workers.decision_mail import decision_summary

OPTION_SETS = {
    "tigris": [{}, {"buildings": True, "ziggurat": True, "open_tiles": True}],
    "euphrat-cards": [{}, {"open_scoring": True}],
    "eden": [{"allow_two": True}, {}],
    "civ-cards": [{}, {"teams": "opposite"}],
}
PLAYERS = {("eden", 1): 3, ("civ-cards", 1): 4}  # teams need four; Eden without allow_two three
STEPS = 30  # decisions per game checked: past the first turns
POOL_STEPS = 400  # decisions of another random game whose moves are tried where they do not belong
DESCRIBED_EVERY = 7  # a sample of the legal moves is described: not all 300 tile placements
SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
URL = re.compile(r"https?://\S+")
NAMES = {0: "ann", 1: "bob", 2: "cy", 3: "di"}


def _words_of_notation(rules) -> set[str]:
    return {word.lower() for form in rules.move_forms for word in re.split(r"[\s|/.\-\[\]]+", form) if word}


def _internal_words(rules, game_id: str) -> tuple[set[str], set[str]]:
    """The move types that are not words a player types, and the decision kinds."""
    types = set(rules.move_fields) - _words_of_notation(rules)
    return types, set(rules.moves_by_decision)


def leaks(text: str, types: set[str], kinds: set[str]) -> list[str]:
    """The identifiers in a text a player reads (links left out: they are addresses)."""
    text = URL.sub("", text)
    found = SNAKE_CASE.findall(text)
    found += [t for t in types if re.search(rf"\b{re.escape(t)}\b", text)]
    found += [k for k in kinds if re.search(rf"\b(an?|the) {re.escape(k)} decision|\({re.escape(k)}\)", text)]
    return found


def _mutated(rng: random.Random, move: dict, pool: list[dict]) -> dict | None:
    """`move` with one value taken from another seen move that has the same field."""
    fields = [f for f in move if f != "type"]
    if not fields:
        return None
    field = rng.choice(fields)
    values = [m[field] for m in pool if field in m and m[field] != move[field]]
    return {**move, field: rng.choice(values)} if values else None


def _refusals(rules, state, players: int, rng: random.Random, pool: list[dict]) -> list[str]:
    """The messages of the engine's refusals of wrong moves in this position."""
    pending = rules.pending(state)
    tried = rng.sample(pool, min(4, len(pool)))
    for seat in pending:
        legal = rules.legal_moves(state, seat)
        tried += [m for m in (_mutated(rng, rng.choice(legal), pool) for _ in range(3)) if m] if legal else []
    messages = []
    for seat in range(players):
        for move in tried:
            try:
                rules.apply(state, seat, move)
            except engine.IllegalMove as err:
                if err.code not in ("bad_move", "unknown_move_type"):  # JSON shape: for programs, in field names
                    messages.append(err.message)
    return messages


def _shown_at_a_decision(rules, state, seat: int, options: dict) -> list[str]:
    summary = decision_summary(rules, state, seat, NAMES, [])
    return [summary["prompt"], *summary["summary_lines"], *summary["changes"], summary["reply_example"],
            *(c["label"] for c in summary["choices"]), *(c["text"] for c in summary["choices"]),
            *(k["form"] for k in summary["move_kinds"]), *(e for k in summary["move_kinds"] for e in k["examples"]),
            *all_forms(rules, options),
            *(text for move in _described(rules.legal_moves(state, seat))
              for text in (rules.describe(move), rules.format_move(move)))]


def _described(legal: list[dict]) -> list[dict]:
    """The first legal move of each type and every DESCRIBED_EVERY-th one."""
    first = {move["type"]: move for move in reversed(legal)}
    return [*first.values(), *legal[::DESCRIBED_EVERY]]


@pytest.mark.parametrize("game_id,option_set", [(g, i) for g in OPTION_SETS for i in range(2)])
def test_prompts_emails_help_and_refusals_speak_the_notation(game_id, option_set):
    rules = engine.get_game(game_id)
    options = OPTION_SETS[game_id][option_set]
    types, kinds = _internal_words(rules, game_id)
    players = PLAYERS.get((game_id, option_set), 2)
    rng = random.Random(f"{game_id}-{option_set}")
    pool = [move for _, _, move, _, _ in itertools.islice(
        random_playout(rules, players, 11 + option_set, options), POOL_STEPS)]
    state, shown, refused = rules.setup(players, 7 + option_set, options), [], []
    for _ in range(STEPS):
        if rules.outcome(state) is not None:
            break
        for seat in rules.pending(state):
            shown += _shown_at_a_decision(rules, state, seat, options)
        refused += _refusals(rules, state, players, rng, pool)
        seat = rng.choice(sorted(rules.pending(state)))
        legal = rules.legal_moves(state, seat)
        state, events = rules.apply(state, seat, rng.choice(legal))
        shown += [line for event in events if (line := rules.describe_event(event, NAMES))]
    assert refused and shown
    bad = {text: found for text in shown + refused if (found := leaks(text, types, kinds))}
    assert not bad, bad
    assert any("is not open now" in message for message in refused), "no move of another decision was tried"


def test_help_lists_only_the_moves_the_options_allow():
    tigris, civ = engine.get_game("tigris"), engine.get_game("civ-cards")
    plain = all_forms(tigris, {})
    assert not [f for f in plain if f.split()[0] in ("building", "ziggurat", "take", "blind")], plain
    everything = all_forms(tigris, {"buildings": True, "ziggurat": True, "open_tiles": True})
    assert {"building SQUARE", "ziggurat SQUARE", "take COLOR", "blind N"} <= set(everything)
    assert "building SQUARE" not in all_forms(tigris, {"ziggurat": True})
    assert "give RESOURCE N" not in all_forms(civ, {}) and "give RESOURCE N" in all_forms(civ, {"teams": "adjacent"})


def test_the_card_game_vote_on_a_full_table_speaks_the_notation():
    """A dead table: the proposal, the vote and its refusals; standing answers sent with
    values the notation does not have (the decision kinds among them) are refused in the
    notation, never naming the value sent; `help` names the vote only where the
    decision's moves open now do."""
    from tests.engine.test_euphrat_cards_rules import dead_table

    rules = engine.get_game("euphrat-cards")
    types, kinds = _internal_words(rules, "euphrat-cards")
    vote_forms = {"propose end", "agree end", "refuse end"}
    assert not vote_forms & set(all_forms(rules, {})), all_forms(rules, {})
    forged = [{"type": "set_answer", "offer": offer, "answer": answer}
              for offer in [*rules.moves_by_decision, "ship"] for answer in ("ask", "decline", "agree_end")]
    state, shown, refused = dead_table(players=3), [], []
    for mover, move in ((0, "propose end"), (1, "agree end"), (2, "refuse end")):
        for seat in rules.pending(state):
            shown += _shown_at_a_decision(rules, state, seat, {})
            summary = decision_summary(rules, state, seat, NAMES, [])
            vote_open = summary["kind"] == "end_vote" or {"type": "propose_end"} in rules.legal_moves(state, seat)
            assert bool(vote_forms & {k["form"] for k in summary["move_kinds"]}) == vote_open, summary["move_kinds"]
            for wrong in forged:
                try:
                    rules.apply(state, seat, wrong)
                except engine.IllegalMove as err:
                    if err.code != "wrong_decision":  # that one repeats the move as sent
                        refused.append(err.message)
        state, events = rules.apply(state, mover, rules.parse_move(move))
        shown += [line for event in events if (line := rules.describe_event(event, NAMES))]
    assert refused and shown
    bad = {text: found for text in shown + refused if (found := leaks(text, types, kinds))}
    assert not bad, bad


def test_a_move_of_another_decision_is_refused_in_the_notation():
    """Eden's reply `irrigate B4` while a tile's acquisition is owed names the forms open."""
    rules = engine.get_game("eden")
    rng = random.Random(3)
    state = rules.setup(2, 3, {"allow_two": True})
    while "acquire" not in rules.pending(state).values():
        seat = rng.choice(sorted(rules.pending(state)))
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    seat = next(s for s, kind in rules.pending(state).items() if kind == "acquire")
    with pytest.raises(engine.IllegalMove) as err:
        rules.apply(state, seat, rules.parse_move("irrigate B4"))
    message = err.value.message
    assert message.startswith("`irrigate B4` is not open now; moves open now: `"), message
    assert "attack_with" not in message and "acquire" not in message


# --- the answers to email replies ------------------------------------------------------------


@pytest.fixture
def mail(app, smtp_server):  # noqa: F811 - the imported fixture
    service = MailService(app, smtp_server, free_port())
    yield service
    service.stop()


def _answer(mail, player, turn_mail, body: str) -> str:
    """The text of the answer to a reply with `body` to `turn_mail`."""
    sent = len(mail.sink.messages)
    mail.send(reply(turn_mail, body, player.email), reply_address_of(turn_mail), player.email)
    answer = latest_mail_to(mail.sink, player.email)
    assert len(mail.sink.messages) > sent and str(answer["Subject"]).startswith("Re:"), "no answer"
    return text_of(answer)


def _refused_text(rules, state, seat: int) -> str:
    """A move in notation that the seat's decision does not take now (of another decision)."""
    rng, probe = random.Random(1), state
    for _ in range(200):
        other = rng.choice(sorted(rules.pending(probe)))
        for move in rules.legal_moves(probe, other):
            try:
                rules.apply(state, seat, move)
            except engine.IllegalMove:
                return rules.format_move(move)
        probe, _ = rules.apply(probe, other, rng.choice(rules.legal_moves(probe, other)))
    raise AssertionError("no refused move found")


def _turn_mail(mail, player):
    """The player's latest email that takes a reply (a decision email or an answer)."""
    return next(m for m in reversed(mail.sink.messages)
                if m["Reply-To"] and player.email.lower() in str(m["To"]).lower())


@pytest.mark.parametrize("game_id", list(OPTION_SETS))
def test_answers_to_replies_speak_the_notation(game_id, make_player, mail):
    """Answers to `help`, an unreadable reply, a move of another decision, a legal move,
    and a move sent once the decision is no longer the player's."""
    rules = engine.get_game(game_id)
    types, kinds = _internal_words(rules, game_id)
    options = {"allow_two": True} if game_id == "eden" else {}
    players, started = start_game(make_player, 2, game=game_id, options=options)
    mail.deliver_outbox()
    with transaction(mail.engine) as db:
        state = rules.from_json(db.get(Game, started["id"]).state)
    seat = min(rules.pending(state))
    mover, turn_mail = players[seat], _turn_mail(mail, players[seat])
    legal = rules.format_move(rules.legal_moves(state, seat)[0])
    answers = [
        _answer(mail, mover, turn_mail, "help"),
        _answer(mail, mover, turn_mail, rules.move_forms[0].split()[0] + " nowhere at all"),
        _answer(mail, mover, turn_mail, _refused_text(rules, state, seat)),
        _answer(mail, mover, turn_mail, legal),
        _answer(mail, mover, turn_mail, legal),
    ]
    assert "is not open now" in answers[2] or "not allowed" in answers[2], answers[2]
    assert [form for form in all_forms(rules, options) if f"- {form}" not in answers[0]] == [], answers[0]
    assert game_id != "tigris" or not {"ziggurat", "building", "blind"} & set(answers[0].split()), answers[0]
    assert "Applied:" in answers[3] and "Nothing was applied" in answers[4], answers[3:]
    bad = {text: found for text in answers if (found := leaks(text, types, kinds))}
    assert not bad, bad
