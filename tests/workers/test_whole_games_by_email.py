"""Whole games played by email alone: every decision is answered by a reply to the
decision email the player received, written as people write (a greeting, a sign-off)
with a move in a form that email lists as open now, through the service's real inbound
SMTP server, with the answers caught by a real SMTP sink, until the game-over email
arrives. The outcome must be the engine's own for the moves the replies made."""
from __future__ import annotations

import json
import random
import re

import pytest
from sqlalchemy import func
from sqlmodel import select

import engine
from service.db import transaction
from service.models import InboundMail, Move
from tests.conftest import start_game
from tests.engine.euphrat_cards_positions import purposeful_choice
from tests.workers.mail_players import mails_to, reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, reseed  # noqa: F401

# Seeds (with the players' choices below) whose games end soonest among the first
# thirty, by the game's ordinary end: Eden at twenty points, the card game when the
# deck runs out (never a dead table left to the players).
WHOLE_GAMES = {
    "euphrat-cards": {"seed": 3, "options": {}, "reason": "deck", "choose": purposeful_choice},
    "eden": {"seed": 27, "options": {"allow_two": True}, "reason": "twenty_points",
             "choose": lambda rng, state, moves: rng.choice(moves)},
}
MAX_REPLIES = 1000
# How the players write their replies, in turn: the move alone, after a sentence on its
# line, under a few words of table talk and above a sign-off, and above a phone's signature.
REPLY_SHAPES = ["{move}", "Thanks! {move}", "Hi all, good game so far. {move}\n\nCheers,\n{name}",
                "{move}\n\nThanks,\n{name}\n\nSent from my iPhone"]
# "- irrigate SQUARE   (e.g. irrigate B1, irrigate C3)": one open kind of move.
OPEN_MOVE = re.compile(r"^- (?P<form>\S.*?) +\(e\.g\. (?P<examples>.*)\)\s*$", re.M)


def open_move_forms(mail_text: str) -> list[str]:
    """The forms of the moves the decision email says are open now."""
    listed = mail_text.split("Moves open now:", 1)
    assert len(listed) == 2, f"the decision email lists no moves open now:\n{mail_text}"
    return [match["form"] for match in OPEN_MOVE.finditer(listed[1])]


def fits(form: str, text: str) -> bool:
    """Whether a move's text is written in `form`: its words are the form's, a capital
    word (COLOR, COLUMN|GAP) standing for any word and a last "SQUARE..." for one or
    more."""
    words, texts = form.split(), text.split()
    if words and words[-1].endswith("..."):
        words = words[:-1] + [words[-1][:-3]] * max(1, len(texts) - len(words) + 1)
    return len(words) == len(texts) and all(w == t or w.upper() == w for w, t in zip(words, texts))


def replayed_outcome(rules, game, moves: list[Move]) -> dict:
    """The engine's outcome for the game's moves, applied again from its seed."""
    state = rules.setup(game.players, game.seed, game.options)
    for move in moves:
        state, _ = rules.apply(state, move.seat, move.move)
    return json.loads(json.dumps(rules.outcome(state)))  # as stored: JSON keys are strings


@pytest.mark.parametrize("game", list(WHOLE_GAMES))
def test_a_whole_game_is_played_to_the_end_by_replies_to_the_decision_emails(game, make_player, mail):
    plan = WHOLE_GAMES[game]
    players, started = start_game(make_player, 2, game=game, options=plan["options"])  # in seat order
    game_id, rules = started["id"], engine.get_game(game)
    reseed(mail.engine, game_id, plan["seed"])
    with transaction(mail.engine) as db:  # the test database is shared by the tests of a process
        stored_before = db.exec(select(func.max(InboundMail.id))).one() or 0
    mail.deliver_outbox()
    choose, sent = random.Random(7), []
    while game_row(mail, game_id).status == "active":
        row = game_row(mail, game_id)
        state = rules.from_json(row.state)
        seat = min(rules.pending(state))
        player = players[seat]
        decision = latest_to(mail, player)
        assert decision["Reply-To"], f"{player.email} owes a decision but his last email takes no reply"
        forms = open_move_forms(text_of(decision))
        # What the email offers: each legal move, in the game's notation, in a form it lists.
        offered = [m for m in rules.legal_moves(state, seat) if any(fits(f, rules.format_move(m)) for f in forms)]
        assert len(offered) == len(rules.legal_moves(state, seat)), text_of(decision)
        text = rules.format_move(plan["choose"](choose, state, offered))
        body = REPLY_SHAPES[len(sent) % len(REPLY_SHAPES)].format(move=text, name=player.email.split("@")[0])
        mail.send(reply(decision, body, player.email), reply_address_of(decision), player.email)
        sent.append((seat, rules.parse_move(text)))
        assert len(sent) < MAX_REPLIES, "the game did not end"
        answer = text_of(latest_to(mail, player))
        assert answer.startswith("Applied:"), answer

    finished = game_row(mail, game_id)
    assert finished.status == "finished"
    with transaction(mail.engine) as db:
        moves = list(db.exec(select(Move).where(Move.game_id == game_id).order_by(Move.seq)))
        outcomes = [row.outcome for row in db.exec(select(InboundMail).where(
            InboundMail.recipient.like("play+%"), InboundMail.id > stored_before).order_by(InboundMail.id))]
    # Every decision was taken by a reply: the log holds exactly the replies' moves.
    assert not any(m.by_service for m in moves)
    assert [(m.seat, m.move) for m in moves] == sent
    assert outcomes == ["applied"] * len(sent)
    assert finished.result == replayed_outcome(rules, finished, moves)
    assert finished.result["reason"] == plan["reason"]
    for player in players:
        over = [m for m in mails_to(mail.sink, player.email) if str(m["Subject"]).endswith("game over")]
        assert len(over) == 1, f"{player.email} got {len(over)} game-over emails"
        assert f"The seed was {plan['seed']}" in text_of(over[0])
