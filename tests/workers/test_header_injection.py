"""No user text can add a header to an email: titles and addresses holding control
characters or encoded words are refused where they come in (the API, the new-game
form, invitations, sign-in, `turnpost demo`), and a title already stored with them
still gives emails with exactly their own headers, read as sent to a real SMTP server."""
from __future__ import annotations

import uuid
from email.parser import BytesParser
from email.policy import default

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from sqlmodel import select

from service.models import Game, Notification, User
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.conftest import free_port
from tests.workers.test_links_and_preferences import csrf_of
from workers.cli import main as cli
from workers.delivery import deliver
from workers.mail import Mail, SmtpSender, build_message

# The title of the report: an encoded word that decodes to CR LF and a Reply-To.
ENCODED_REPLY_TO = "=?utf-8?q?Friendly_game=0d=0aReply-To=3a_attacker=40evil.example.com=0d=0aX-A=3a?="
HOSTILE_TITLES = [
    ENCODED_REPLY_TO,
    "Friendly game\r\nReply-To: attacker@evil.example.com\r\nX-A: 1",
    "Friendly game\nBcc: attacker@evil.example.com",
    "Friendly game\u2028Reply-To: attacker@evil.example.com",
    "Friendly\tgame",
    "Friendly\x85game",
    "=?utf-8?b?RnJpZW5kbHkNClJlcGx5LVRvOiBhdHRhY2tlckBldmlsLmV4YW1wbGUuY29t?=",
]
HOSTILE_ADDRESSES = ["=?utf-8?q?a=0d=0a?=@ex.test", "=?utf-8?q?attacker=40evil.example.com?=@ex.test",
                     "a\r\nBcc: attacker@evil.example.com@ex.test", "a\u2028b@ex.test"]


class RawInbox:
    """An SMTP server that keeps every message as the bytes it received."""

    def __init__(self):
        self.raw: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.raw.append(envelope.original_content)
        return "250 Message accepted for delivery"


@pytest.fixture
def raw_smtp():
    inbox = RawInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.sender = SmtpSender(f"smtp://127.0.0.1:{controller.port}", timeout=10)
    yield inbox
    inbox.sender.close()
    controller.stop()


def header_lines(raw: bytes) -> list[tuple[str, str]]:
    """The top-level header fields of a raw message, unfolded: (name, raw value)."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    fields: list[list[str]] = []
    for line in head.split("\r\n"):
        if line[:1] in (" ", "\t"):
            fields[-1][1] += line
        else:
            name, _, value = line.partition(":")
            fields.append([name, value])
    return [(name, value) for name, value in fields]


def assert_only_own_headers(raw: bytes, reply_domain: str = "turnpost.localhost") -> None:
    names = [name.lower() for name, _ in header_lines(raw)]
    assert all(name and " " not in name for name in names), names
    assert "x-a" not in names and "bcc" not in names, names
    for single in ("from", "to", "subject", "message-id", "date", "reply-to"):
        assert names.count(single) <= 1, (single, names)
    message = BytesParser(policy=default).parsebytes(raw)
    reply_to = message.get_all("Reply-To") or []
    assert all("evil.example.com" not in str(value) for value in reply_to), reply_to
    assert len(reply_to) <= 1 and all(str(value).endswith(f"@{reply_domain}") for value in reply_to), reply_to
    assert "\n" not in str(message["Subject"]) and "\r" not in str(message["Subject"])


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_the_api_refuses_a_title_that_could_add_a_header(make_player, db, title):
    creator = make_player("creator")
    answer = creator.post("/api/games", json={"game": "tigris", "players": 2, "title": title})
    assert answer.status_code == 422, answer.json
    assert "email headers" in str(answer.json["errors"]["json"]["title"])
    with db() as session:
        assert session.exec(select(Game).where(Game.title == title)).first() is None


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_the_new_game_form_refuses_a_title_that_could_add_a_header(app, make_player, db, title):
    client = signed_in_client(app, make_player("creator"))
    form = {"csrf_token": csrf_of(client.get("/games/new").get_data(as_text=True)), "game": "tigris",
            "players": "2", "title": title}
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422
    assert "email subjects" in answer.get_data(as_text=True)
    with db() as session:
        assert session.exec(select(Game).where(Game.title == title)).first() is None


@pytest.mark.parametrize("address", HOSTILE_ADDRESSES)
def test_an_address_that_could_add_a_header_is_refused_everywhere_and_nothing_is_written(
        app, make_player, db, database_url, monkeypatch, tmp_path, address):
    creator = make_player("creator")
    with db() as session:
        before = session.exec(select(Notification.id).order_by(Notification.id.desc())).first() or 0
    game = creator.post("/api/games", json={"game": "tigris", "players": 3}).json
    answers = [
        creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [address]}),
        creator.post(f"/api/games/{game['id']}/invitations", json={"email": address, "version": game["version"]}),
        app.test_client().post("/api/sign-in", json={"email": address}),
    ]
    assert [a.status_code for a in answers] == [422] * 3, [a.json for a in answers]
    client = signed_in_client(app, creator)
    csrf = csrf_of(client.get(f"/games/{game['id']}").get_data(as_text=True))
    client.post(f"/games/{game['id']}/invite", data={"csrf_token": csrf, "email": address, "version": game["version"]})
    page = app.test_client()
    form = {"csrf_token": csrf_of(page.get("/sign-in").get_data(as_text=True)), "email": address}
    assert page.post("/sign-in", data=form).status_code == 422
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.setenv("TURNPOST_MAILDIR", str(tmp_path / "mail"))
    demo = CliRunner().invoke(cli, ["demo", address, "--bots", "1"])
    assert demo.exit_code != 0 and "not an email address we can send to" in demo.output, demo.output
    with db() as session:
        assert session.exec(select(Notification).where(Notification.id > before,
                                                       Notification.game_id.is_(None))).all() == []
        assert session.exec(select(Notification).where(Notification.game_id == game["id"])).all() == []
        assert session.exec(select(User).where(User.email.contains("=?"))).all() == []
        assert session.exec(select(User).where(User.email.contains("\n"))).all() == []
    assert creator.get(f"/api/games/{game['id']}").json["version"] == game["version"]


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_a_title_stored_with_line_breaks_or_encoded_words_adds_no_header(app, make_player, db, raw_smtp, title):
    """Stored before the check existed, or written by hand: each email of the game
    still has exactly its own headers, as the SMTP server received them."""
    players, game = start_game(make_player, 2, title="plain title")
    with db() as session:
        session.get(Game, game["id"]).title = title
    mover = next(p for p in players if str(p.get(f"/api/games/{game['id']}").json["your_seat"]) in game["pending"])
    legal = mover.get(f"/api/games/{game['id']}/moves/legal").json
    moved = mover.post(f"/api/games/{game['id']}/moves", json={"version": legal["version"],
                                                                "move": legal["moves"][0]["move"]})
    assert moved.status_code == 200, moved.json
    with db() as session:
        rows = session.exec(select(Notification.id).where(Notification.game_id == game["id"])).all()
    settings = app.extensions["turnpost"]["settings"]
    engine = app.extensions["turnpost"]["database"]
    results = [deliver(engine, settings, row_id, raw_smtp.sender) for row_id in rows]
    assert results and set(results) == {"sent"}, results
    assert len(raw_smtp.raw) == len(rows)
    for raw in raw_smtp.raw:
        assert_only_own_headers(raw, reply_domain=settings.mail_domain)
    decisions = [BytesParser(policy=default).parsebytes(raw) for raw in raw_smtp.raw]
    decisions = [message for message in decisions if str(message["Subject"]).endswith(": your decision")]
    assert decisions and all(len(message.get_all("Reply-To")) == 1 for message in decisions)


def sample(**fields) -> Mail:
    base = dict(to="player@example.org", subject="Your move", text="plain", html="<p>html</p>",
                message_id=f"<{uuid.uuid4().hex}@turnpost.test>", sender="turnpost <play@turnpost.test>")
    return Mail(**{**base, **fields})


@pytest.mark.parametrize("value", HOSTILE_TITLES)
def test_no_header_value_from_outside_adds_a_header(raw_smtp, value):
    """A reply's Message-ID and subject come from outside: threading headers built
    from them stay one header each."""
    mail = sample(subject=f"Re: {value}", headers={"In-Reply-To": f"<{value}@x>", "References": f"<a@b> <{value}@x>"})
    raw_smtp.sender.send(build_message(mail))
    [raw] = raw_smtp.raw
    assert_only_own_headers(raw)
    names = [name.lower() for name, _ in header_lines(raw)]
    assert names.count("in-reply-to") == 1 and names.count("references") == 1


@pytest.mark.parametrize("address", HOSTILE_ADDRESSES + ['"a\x0bb"@example.com'])
def test_a_stored_address_that_could_add_a_header_is_not_mailed(address):
    """Not made one line either: that would send the email to another mailbox."""
    with pytest.raises(ValueError, match="To header"):
        build_message(sample(to=address))
