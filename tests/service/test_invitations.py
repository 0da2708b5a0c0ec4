"""Invitations are no open relay: limits per sender and per recipient, the recipient's
"no email" choice honoured, and the title shown as the sender's quoted words, never
as the subject line."""
from __future__ import annotations

import threading
import uuid

import psycopg
from sqlmodel import select

from service.db import transaction
from service.models import Game, Notification, Seat, User
from workers.compose import compose
from workers.delivery import deliver


def fresh(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}@example.org"


def test_one_address_gets_at_most_three_invitations_a_day(make_player, db):
    target = fresh("target")
    for n in range(3):
        answer = make_player(f"sender{n}").post("/api/games", json={"game": "tigris", "players": 2, "invite": [target]})
        assert answer.status_code == 201, answer.json
    fourth = make_player("sender3")
    answer = fourth.post("/api/games", json={"game": "tigris", "players": 2, "invite": [target]})
    assert answer.status_code == 429 and answer.json["code"] == "invitation_limit" and target in answer.json["message"]
    game = fourth.post("/api/games", json={"game": "tigris", "players": 2}).json
    answer = fourth.post(f"/api/games/{game['id']}/invitations", json={"email": target, "version": game["version"]})
    assert answer.status_code == 429
    with db() as session:
        assert len(session.exec(select(Notification).where(Notification.email == target)).all()) == 3
        assert len(session.exec(select(Seat).where(Seat.email == target)).all()) == 3
    assert fourth.get("/api/me/games").json["games"][0]["version"] == game["version"]


def test_one_sender_sends_at_most_twenty_invitations_a_day(make_player):
    sender = make_player("sender")
    invite = lambda n: sender.post("/api/games", json={  # noqa: E731
        "game": "tigris", "players": 4, "invite": [fresh(f"i{k}") for k in range(n)]})
    for _ in range(6):
        assert invite(3).status_code == 201
    answer = invite(3)  # 18 sent: 2 more at most
    assert answer.status_code == 429 and "20 invitations a day" in answer.json["message"]
    assert invite(2).status_code == 201
    assert invite(1).status_code == 429
    assert len(sender.get("/api/me/games").json["games"]) == 7


def test_no_invitation_email_to_who_chose_none(app, make_player, db):
    target = fresh("quiet")
    make_player("x")  # the database has users besides
    with db() as session:
        session.add(User(email=target, email_mode="off"))
    creator = make_player("creator")
    game = creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [target]}).json
    with db() as session:
        row = session.exec(select(Notification).where(Notification.email == target)).one()
    state = app.extensions["turnpost"]
    assert deliver(state["database"], state["settings"], row.id, transport=None) == "skipped"
    assert game["players"][1]["status"] == "invited"  # he still finds it when he signs in


def test_the_title_is_quoted_user_text_not_the_subject(app, make_player, db):
    creator = make_player("creator")
    title = "URGENT: your bank account is locked, call +1 555 0100"
    target = fresh("target")
    creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [target], "title": title})
    settings = app.extensions["turnpost"]["settings"]
    with transaction(app.extensions["turnpost"]["database"]) as session:
        row = session.exec(select(Notification).where(Notification.email == target)).one()
        mail = compose(session, settings, row)
    assert "URGENT" not in mail.subject and "bank" not in mail.subject
    assert mail.subject == f"{creator.email} invites you to a game of Tigris & Euphrates on turnpost"
    assert f'The game\'s title, as {creator.email} wrote it: "{title}"' in mail.text
    assert f"<q>{title}</q>" in mail.html


def test_the_game_page_invitation_form_keeps_the_limits(app, make_player, db, monkeypatch):
    settings = app.extensions["turnpost"]["settings"]
    monkeypatch.setattr(settings, "invitations_per_recipient", 1)
    monkeypatch.setattr(settings, "invitations_per_sender", 2)
    from tests.service.test_hostile_input import signed_in_client
    from tests.workers.test_links_and_preferences import csrf_of

    target = fresh("target")
    earlier = make_player("other").post("/api/games", json={"game": "tigris", "players": 2, "invite": [target]})
    assert earlier.status_code == 201
    creator = make_player("creator")
    client = signed_in_client(app, creator)

    def invite_on_page(game_id: int, email: str) -> str:
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        version = creator.get(f"/api/games/{game_id}").json["version"]
        answer = client.post(f"/games/{game_id}/invite", data={
            "csrf_token": csrf_of(page), "version": str(version), "email": email}, follow_redirects=True)
        assert answer.status_code == 200
        return answer.get_data(as_text=True)

    game = creator.post("/api/games", json={"game": "tigris", "players": 4}).json
    page = invite_on_page(game["id"], target)  # the address has had its one invitation
    assert f"{target} has had 1 invitations in the last 24 hours" in page and "is invited" not in page
    for n in range(2):
        assert "is invited" in invite_on_page(game["id"], fresh(f"i{n}"))
    page = invite_on_page(game["id"], fresh("third"))  # the sender has sent his two
    assert "you may send 2 invitations a day" in page and "is invited" not in page
    with db() as session:
        seats = session.exec(select(Seat).where(Seat.game_id == game["id"])).all()
        notes = session.exec(select(Notification).where(Notification.game_id == game["id"])).all()
    assert len(seats) == 3 and len(notes) == 2
    assert creator.get(f"/api/games/{game['id']}").json["version"] == game["version"] + 2


def answers_while_inserts_wait(app, database_url, requests: list[tuple[dict, dict]]) -> list:
    """The answers to game-creating requests (headers, JSON body) sent at once while
    the notification table is locked against inserts until all of them wait: each
    counts invitations before any of theirs is written, so only locks keep limits."""
    answers = []

    def create(headers, body):
        answers.append(app.test_client().post("/api/games", headers=headers, json=body))

    blocker = psycopg.connect(database_url.replace("+psycopg", ""))
    blocker.execute("LOCK TABLE notification IN SHARE MODE")  # reads go on, inserts wait
    threads = [threading.Thread(target=create, args=request) for request in requests]
    for thread in threads:
        thread.start()
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    with psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True) as watcher:
        for _ in range(3000):  # every request waits: on the insert, or on a limit's lock
            counted = watcher.execute(waiting).fetchone()
            assert counted is not None, "a count has a row"
            if counted[0] == len(requests):
                break
            threading.Event().wait(0.01)
        else:
            raise AssertionError("the requests never all waited on a lock")
    blocker.commit()
    blocker.close()
    for thread in threads:
        thread.join()
    return answers


def test_parallel_invitations_of_one_sender_keep_his_limit(app, make_player, db, database_url, monkeypatch):
    monkeypatch.setattr(app.extensions["turnpost"]["settings"], "invitations_per_sender", 2)
    sender = make_player("sender")
    answers = answers_while_inserts_wait(app, database_url, [
        (sender.headers, {"game": "tigris", "players": 2, "invite": [fresh("invitee")]}) for _ in range(4)])
    assert sorted(a.status_code for a in answers) == [201, 201, 429, 429], [a.json for a in answers]
    with db() as session:
        sent = session.exec(select(Notification).join(Game, Game.id == Notification.game_id).where(
            Game.creator_id == session.exec(select(User.id).where(User.email == sender.email)).one())).all()
    assert len(sent) == 2


def test_parallel_invitations_to_one_address_keep_its_limit(app, make_player, db, database_url, monkeypatch):
    monkeypatch.setattr(app.extensions["turnpost"]["settings"], "invitations_per_recipient", 2)
    target = fresh("popular")
    answers = answers_while_inserts_wait(app, database_url, [
        (make_player(f"sender{n}").headers, {"game": "tigris", "players": 2, "invite": [target]}) for n in range(4)])
    assert sorted(a.status_code for a in answers) == [201, 201, 429, 429], [a.json for a in answers]
    with db() as session:
        assert len(session.exec(select(Notification).where(Notification.email == target)).all()) == 2
