"""Every game's page and decision email, rendered from fixed positions and compared with
renderings kept in tests/service/goldens/: a change to how a game is presented shows up
here as a diff. Regenerate them (and read the diff) with
`TURNPOST_WRITE_GOLDENS=1 pytest tests/service/test_presentation_goldens.py`.

What differs between runs is replaced before comparing: CSRF tokens, signed tokens in
links and reply addresses, game ids and the inline board drawing (the drawings
have tests of their own; the page keeps a digest of it)."""
from __future__ import annotations

import hashlib
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlmodel import select

import engine
from engine.simulate import random_playout
from service.db import transaction
from service.models import Deadline, Game, Notification, Seat, User
from tests.conftest import Player
from tests.service.test_hostile_input import signed_in_client

GOLDENS = Path(__file__).parent / "goldens" / "presentation"
WRITE = os.environ.get("TURNPOST_WRITE_GOLDENS") == "1"
PLAYERS = 3
NAMES = ("Ann", "Bob", "Cy")
POSITIONS_PER_GAME = 5
SEED = 20
DUE = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)


def _card_game_ship():
    """A fourth blue card in a column: a ship to build, which random play rarely reaches."""
    from tests.engine.euphrat_cards_positions import GAME, position

    state = position(players=PLAYERS, active=0, columns=["t", "t", "t", "tbbb", "tG", "t", "t", "t"],
                     hands={0: {"blue": 1}})
    return GAME.apply(state, 0, GAME.parse_move("play blue D"))[0]


# Positions written by hand, for decisions that seeded random play does not reach soon.
HAND_WRITTEN = {"euphrat-cards": [("ship", _card_game_ship)]}


def positions(game_id: str) -> list[tuple[str, object]]:
    """Up to POSITIONS_PER_GAME positions of one seeded random game: its opening, then the
    first position of each new set of decisions owed (a conflict, a purchase...); then
    the game's positions written by hand."""
    game = engine.get_game(game_id)
    found: list[tuple[str, object]] = [(label, make()) for label, make in HAND_WRITTEN.get(game_id, [])]
    seen: set[tuple] = set()
    for number, (state, *_rest) in enumerate(random_playout(game, PLAYERS, SEED)):
        owed = tuple(sorted(set(game.pending(state).values())))
        if owed not in seen:
            seen.add(owed)
            found.append((f"step{number:03d}", state))
        if len(found) == POSITIONS_PER_GAME + len(HAND_WRITTEN.get(game_id, [])) or number > 400:
            break
    return found


def _masked(text: str) -> str:
    text = re.sub(r'(name="csrf_token" value=")[^"]*', r"\1CSRF", text)
    text = re.sub(r"/(a|join|preferences|unsubscribe)/[A-Za-z0-9_.\-]+", r"/\1/TOKEN", text)
    text = re.sub(r"reply\+[^@\s\"<>]+@", "reply+TOKEN@", text)
    text = re.sub(r"/games/\d+", "/games/ID", text)
    text = re.sub(r"/players/\d+", "/players/ID", text)  # ids depend on what the database held before
    text = re.sub(r"\?game=\d+", "?game=ID", text)
    text = re.sub(r"/api/games/\d+", "/api/games/ID", text)
    text = re.sub(r"#\d+\b", "#ID", text)
    return text


def _page_masked(html: str) -> str:
    def digest(match):
        return f"{match.group(1)}BOARD {hashlib.sha256(match.group(2).encode()).hexdigest()[:16]}{match.group(3)}"

    html = re.sub(r'(<section class="board"[^>]*>)(.*?)(</section>)', digest, html, flags=re.S)
    html = re.sub(r"\b(?:\d+ (?:days?|hours?|minutes?)(?: and \d+ hours?)?|no time) left,", "TIME left,", html)
    return _masked(html)


def _check(name: str, text: str) -> None:
    path = GOLDENS / name
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert path.exists(), f"no golden {name}: run with TURNPOST_WRITE_GOLDENS=1 and read the diff"
    assert text == path.read_text(), f"{name} differs from its golden"


def _started_game(app, game_id: str):
    """A started game of PLAYERS players named as in NAMES, seated in invitation order;
    its id and the players."""
    people = [Player(app, f"golden-{game_id}-{i}@example.org") for i in range(PLAYERS)]
    with transaction(app.extensions["turnpost"]["database"]) as db:
        for person, name in zip(people, NAMES):
            db.exec(select(User).where(User.email == person.email)).one().name = name
    game = people[0].post("/api/games", json={"game": game_id, "players": PLAYERS, "spectators": True,
                                              "invite": [p.email for p in people[1:]]}).json
    for person in people[1:]:
        game = person.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json
    assert game["status"] == "active", game
    with transaction(app.extensions["turnpost"]["database"]) as db:
        seats = {s.email: s.seat for s in db.exec(select(Seat).where(Seat.game_id == game["id"]))}
    assert [seats[p.email] for p in people] == list(range(PLAYERS)), seats  # a fixed seat order
    return game["id"], people


def _put(app, game_id: int, rules, state) -> None:
    """Store `state` in the game, with a timeout at a fixed time for each seat it waits for
    (the game's own, made at its start, follow its random seed)."""
    with transaction(app.extensions["turnpost"]["database"]) as db:
        game = db.get(Game, game_id)
        assert game is not None
        game.state = rules.to_json(state)
        game.seed = SEED
        game.version += 1
        for old in db.exec(select(Deadline).where(Deadline.game_id == game_id)):
            db.delete(old)
        for seat in rules.pending(state):
            db.add(Deadline(game_id=game_id, seat=seat, kind="timeout", due_at=DUE))


def _decision_email(app, game_id: int, seat: int) -> tuple[str, str]:
    from workers.compose import compose

    settings = app.extensions["turnpost"]["settings"]
    with transaction(app.extensions["turnpost"]["database"]) as db:
        row = Notification(id=1, kind="your_turn", email="golden@example.org", game_id=game_id, seat=seat,
                           payload={"since_seq": 0}, message_id="<golden@turnpost.test>")
        mail = compose(db, settings, row)
    return _masked(mail.text), _masked(mail.html)


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_every_page_and_decision_email_renders_as_its_golden(app, game_id):
    rules = engine.get_game(game_id)
    game, people = _started_game(app, game_id)
    clients = [signed_in_client(app, person) for person in people]
    spectator = signed_in_client(app, Player(app, "golden-spectator@example.org"))
    for label, state in positions(game_id):
        _put(app, game, rules, state)
        for seat, client in enumerate(clients):
            page = client.get(f"/games/{game}")
            assert page.status_code == 200
            _check(f"{game_id}/{label}-seat{seat}.page.html", _page_masked(page.get_data(as_text=True)))
            text, html = _decision_email(app, game, seat)
            _check(f"{game_id}/{label}-seat{seat}.email.txt", text)
            _check(f"{game_id}/{label}-seat{seat}.email.html", html)
        page = spectator.get(f"/games/{game}")
        _check(f"{game_id}/{label}-spectator.page.html", _page_masked(page.get_data(as_text=True)))
