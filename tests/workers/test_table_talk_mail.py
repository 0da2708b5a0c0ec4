"""Table talk on every channel, with real services: messages written on the page,
through the API and in emailed replies (the service's inbound SMTP server), and the
emails caught by a real SMTP server, checked for who received what: at once, in the
next decision email, in digests, or never; nothing to a muted or unsubscribed
player, nothing to a spectator, and a player's private notes in no email."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
from sqlmodel import select

import engine
from service.db import transaction
from service.models import Game, Notification, User
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.conftest import free_port
from tests.workers.mail_players import MailService, latest_mail_to, mails_to, reply, reply_address_of, text_of
from tests.workers.test_links_and_preferences import csrf_of
from workers.digest import write_digests
from workers.reply_talk import said_lines

SENTINELS = ("PAGE-SENTINEL", "API-SENTINEL", "EMAIL-SENTINEL", "NOTE-SENTINEL", "ANSWER-SENTINEL")


@pytest.fixture
def mail(app, smtp_server):
    service = MailService(app, smtp_server, free_port())
    yield service
    service.stop()


def put(player, path, body):
    answer = player.client.put(path, json=body, headers=player.headers)
    assert answer.status_code == 200, answer.json
    return answer.json


def everything_mailed_to(mail, player) -> str:
    return "\n".join(text_of(m) + html_of(m) for m in mails_to(mail.sink, player.email))


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None, "the mail has an HTML body"
    return body.get_content()


def first_actions(game_id: int, engine_) -> tuple[int, list[str], int]:
    """The seat to act, two legal actions of its turn one after the other, and the
    seat to act after them."""
    with transaction(engine_) as db:
        row = db.get(Game, game_id)
    assert row is not None and row.state is not None
    rules = engine.get_game(row.game_type)
    state = rules.from_json(row.state)
    seat = min(rules.pending(state))
    first = next(m for m in rules.legal_moves(state, seat) if m["type"] == "place_tile")
    after, _ = rules.apply(state, seat, first)
    second = next(m for m in rules.legal_moves(after, seat) if m["type"] == "place_tile")
    after, _ = rules.apply(after, seat, second)
    return seat, [rules.format_move(first), rules.format_move(second)], min(rules.pending(after))


def test_a_game_talked_by_page_api_and_email_reaches_each_player_as_chosen(app, make_player, mail):
    players, game = start_game(make_player, 4, spectators=True)
    gid = game["id"]
    seat, (first, second), next_seat = first_actions(gid, app.extensions["turnpost"]["database"])
    eager, patient = players[seat], players[next_seat]  # the one to act, and the one after him
    muted, unsubscribed = [p for p in players if p not in (eager, patient)]
    watcher = make_player("watcher")
    for person in (eager, muted, unsubscribed, watcher):
        put(person, "/api/me/preferences", {"talk_mail": "immediately"})
    put(unsubscribed, "/api/me/preferences", {"email_mode": "off"})
    put(muted, f"/api/games/{gid}/mute", {"muted": True})
    put(eager, f"/api/games/{gid}/notes", {"text": "NOTE-SENTINEL: bluff about red"})
    mail.deliver_outbox()
    turn_mail = latest_mail_to(mail.sink, eager.email)
    assert "your decision" in turn_mail["Subject"]

    page = signed_in_client(app, patient)
    form = page.get(f"/games/{gid}").get_data(as_text=True)
    assert page.post(f"/games/{gid}/messages", data={"text": "PAGE-SENTINEL hello", "csrf_token": csrf_of(form)}
                     ).status_code == 302
    assert muted.post(f"/api/games/{gid}/messages", json={"text": "API-SENTINEL <b>hi</b>"}).status_code == 201
    mail.deliver_outbox()
    # The eager player has each message at once, in an email he may answer with "say".
    at_once = [m for m in mails_to(mail.sink, eager.email) if m["Subject"].endswith("said at the table")]
    assert [("PAGE-SENTINEL" in text_of(m), "API-SENTINEL" in text_of(m)) for m in at_once] == [
        (True, False), (False, True)]
    assert "API-SENTINEL &lt;b&gt;hi&lt;/b&gt;" in at_once[1].get_body(("html",)).get_content()

    # By email: a say line beside the turn's two moves.
    sent = reply(turn_mail, f"say EMAIL-SENTINEL good luck\n{first}\n{second}", eager.email)
    mail.send(sent, reply_address_of(turn_mail), eager.email)
    answer = text_of(latest_mail_to(mail.sink, eager.email))
    assert 'Said at the table: "EMAIL-SENTINEL good luck".' in answer and answer.count("Applied:") == 2
    mail.deliver_outbox()

    # The patient player reads the others' talk in his next decision email, not his own.
    decision = latest_mail_to(mail.sink, patient.email)
    assert "your decision" in decision["Subject"]
    body = text_of(decision)
    assert "Said at the table since your last decision:" in body
    assert "API-SENTINEL <b>hi</b>" in body and "EMAIL-SENTINEL good luck" in body and "PAGE-SENTINEL" not in body
    assert not [m for m in mails_to(mail.sink, patient.email) if m["Subject"].endswith("said at the table")]

    # An answer to an at-once email, with talk alone, goes to the table.
    mail.send(reply(at_once[0], "say: ANSWER-SENTINEL thanks", eager.email), reply_address_of(at_once[0]), eager.email)
    assert 'Said at the table: "ANSWER-SENTINEL thanks"' in text_of(latest_mail_to(mail.sink, eager.email))
    mail.deliver_outbox()

    table = patient.get(f"/api/games/{gid}/messages").json["messages"]
    muted_seat = players.index(muted)
    assert [(m["seat"], m["via"]) for m in table] == [(next_seat, "page"), (muted_seat, "api"), (seat, "email"),
                                                      (seat, "email")]
    for person in (muted, unsubscribed, watcher):  # muted, unsubscribed, spectator: no talk by email
        assert not any(word in everything_mailed_to(mail, person) for word in SENTINELS), person.email
    assert mails_to(mail.sink, watcher.email) == []
    for person in players:  # notes reach no email, not even the writer's
        assert "NOTE-SENTINEL" not in everything_mailed_to(mail, person)


def test_a_message_to_a_player_who_muted_since_it_was_written_is_not_sent(make_player, mail):
    players, game = start_game(make_player, 2)
    put(players[1], "/api/me/preferences", {"talk_mail": "immediately"})
    players[0].post(f"/api/games/{game['id']}/messages", json={"text": "too late to hear"})
    put(players[1], f"/api/games/{game['id']}/mute", {"muted": True})
    mail.deliver_outbox()
    assert "too late to hear" not in everything_mailed_to(mail, players[1])
    with transaction(mail.engine) as db:
        row = db.exec(select(Notification).where(Notification.kind == "table_talk",
                                                 Notification.email == players[1].email)).one()
    assert row.payload.get("skipped") is True


def test_a_player_who_chose_never_gets_no_talk_by_email(make_player, mail):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    seat, (first, second), _ = first_actions(gid, mail.engine)
    mover, deaf = players[seat], players[1 - seat]
    put(deaf, "/api/me/preferences", {"talk_mail": "never"})
    mail.deliver_outbox()
    mover.post(f"/api/games/{gid}/messages", json={"text": "NEVER-SENTINEL"})
    moved = mover.post(f"/api/games/{gid}/moves", json={"version": game["version"], "text": first})
    mover.post(f"/api/games/{gid}/moves", json={"version": moved.json["version"], "text": second})
    mail.deliver_outbox()
    decision = latest_mail_to(mail.sink, deaf.email)  # written after the message
    assert "your decision" in decision["Subject"] and "NEVER-SENTINEL" not in everything_mailed_to(mail, deaf)


def test_digests_carry_the_day_talk_to_those_who_take_it_with_their_next_email(make_player, mail):
    players, game = start_game(make_player, 3)
    gid = game["id"]
    for person in players[1:]:
        put(person, "/api/me/preferences", {"email_mode": "digest"})
    put(players[2], f"/api/games/{gid}/mute", {"muted": True})
    players[0].post(f"/api/games/{gid}/messages", json={"text": "DIGEST-SENTINEL\nsecond line"})
    mail.deliver(write_digests(mail.engine, "http://turnpost.test", datetime.now(UTC) + timedelta(hours=1)
                               ).ids[0])
    digest = text_of(latest_mail_to(mail.sink, players[1].email)).replace("\r\n", "\n")
    assert "said: DIGEST-SENTINEL\n    second line" in digest
    assert "DIGEST-SENTINEL" not in everything_mailed_to(mail, players[2])


def test_say_lines_are_whole_lines_starting_with_the_word():
    said, rest = said_lines("Say hello; and good luck\nsay: nice move!\ntile red 3C\nsaying this is prose\n"
                            "- say hi\nsay")
    assert said == ["hello; and good luck", "nice move!", "hi"]
    assert rest == "tile red 3C\nsaying this is prose"


def test_a_reply_may_say_five_things_and_bad_talk_is_named(make_player, mail):
    players, game = start_game(make_player, 2)
    mail.deliver_outbox()
    player = players[first_actions(game["id"], mail.engine)[0]]  # the one a turn email went to
    turn_mail = latest_mail_to(mail.sink, player.email)
    lines = "\n".join(f"say number {n}" for n in range(6)) + "\nsay " + "x" * 1001
    mail.send(reply(turn_mail, lines, player.email), reply_address_of(turn_mail), player.email)
    answer = text_of(latest_mail_to(mail.sink, player.email))
    assert answer.count("Said at the table:") == 5 and "the other 2 were not said" in answer
    assert [m["text"] for m in player.get(f"/api/games/{game['id']}/messages").json["messages"]] == [
        f"number {n}" for n in range(5)]


def test_talk_beside_a_refused_move_is_still_said_and_splits_no_moves(make_player, mail):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    mail.deliver_outbox()
    seat, (first, second), _ = first_actions(gid, mail.engine)
    player = players[seat]
    turn_mail = latest_mail_to(mail.sink, player.email)
    body = f"{first}\nsay: BETWEEN-SENTINEL\ntile red Z99"  # a say line between moves; the second is not allowed
    mail.send(reply(turn_mail, body, player.email), reply_address_of(turn_mail), player.email)
    answer = text_of(latest_mail_to(mail.sink, player.email))
    assert 'Said at the table: "BETWEEN-SENTINEL".' in answer and "Nothing was applied" in answer
    assert "mixes moves with other text" not in answer
    assert [m["text"] for m in player.get(f"/api/games/{gid}/messages").json["messages"]] == ["BETWEEN-SENTINEL"]
    assert player.get(f"/api/games/{gid}").json["version"] == game["version"]


def test_no_talk_goes_to_an_address_that_bounces(make_player, mail):
    players, game = start_game(make_player, 2)
    put(players[1], "/api/me/preferences", {"talk_mail": "immediately"})
    with transaction(mail.engine) as db:
        db.exec(select(User).where(User.email == players[1].email)).one().bouncing_since = datetime.now(UTC)
    players[0].post(f"/api/games/{game['id']}/messages", json={"text": "BOUNCE-SENTINEL"})
    mail.deliver_outbox()
    assert "BOUNCE-SENTINEL" not in everything_mailed_to(mail, players[1])
    with transaction(mail.engine) as db:
        assert db.exec(select(Notification).where(Notification.kind == "table_talk",
                                                  Notification.email == players[1].email)).first() is None
