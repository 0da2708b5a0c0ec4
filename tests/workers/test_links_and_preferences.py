"""Email links against the service: bad tokens get a clear page and change nothing;
preferences and one-click unsubscribe; the daily digest."""
import re
from datetime import UTC, datetime

from sqlmodel import select

from service.action_tokens import ActionToken, make_token
from service.models import Notification, User
from service.preference_links import preferences_token
from tests.conftest import start_game
from workers.delivery import wanted
from workers.digest import write_digests

SECRET = "test-secret-key"  # the session app's


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None, "the page has a form with a CSRF token"
    return found.group(1)


def test_bad_action_tokens_are_refused_with_a_page_and_nothing_changes(app, make_player):
    players, game = start_game(make_player, 2)
    gid, version = game["id"], game["version"]
    seat = int(next(iter(game["pending"])))
    move = players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"][0]["text"]
    client = app.test_client()
    cases = {
        "forged": ("/a/" + make_token("not-our-secret", ActionToken(gid, seat, version, move)), 400, "not valid"),
        "old version": ("/a/" + make_token(SECRET, ActionToken(gid, seat, version - 1, move)), 409, "out of date"),
        "another seat": ("/a/" + make_token(SECRET, ActionToken(gid, 1 - seat, version, move)), 403, "not accepted"),
        "garbage": ("/a/abc.def", 400, "not valid"),
    }
    for name, (path, status, words) in cases.items():
        page = client.get(path)
        if page.status_code == 200:  # a well-signed token shows the confirm page first
            page = client.post(path, data={"csrf_token": csrf_of(page.get_data(as_text=True))})
        assert page.status_code == status and words in page.get_data(as_text=True), name
        assert players[0].get(f"/api/games/{gid}").json["version"] == version, name
    assert "&lt;" not in client.get(cases["forged"][0]).get_data(as_text=True)


def test_expired_link_page(app, make_player, monkeypatch):
    players, game = start_game(make_player, 2)
    token = make_token(SECRET, ActionToken(game["id"], 0, game["version"], "support 0"))
    app.extensions["turnpost"]["settings"].link_days, saved = -1, app.extensions["turnpost"]["settings"].link_days
    try:
        page = app.test_client().get(f"/a/{token}")
    finally:
        app.extensions["turnpost"]["settings"].link_days = saved
    assert page.status_code == 410 and "expired" in page.get_data(as_text=True)


def test_preferences_and_one_click_unsubscribe(app, make_player, db):
    player = make_player("prefs")
    with db() as session:
        user = session.exec(select(User).where(User.email == player.email)).one()
    token = preferences_token(SECRET, user.id)
    client = app.test_client()
    page = client.get(f"/preferences/{token}")
    assert page.status_code == 200 and player.email in page.get_data(as_text=True)
    assert client.post(f"/preferences/{token}", data={"email_mode": "digest"}).status_code == 400  # no CSRF token
    client.post(f"/preferences/{token}",
                data={"email_mode": "digest", "csrf_token": csrf_of(page.get_data(as_text=True))})
    with db() as session:
        assert session.get(User, user.id).email_mode == "digest"
    assert client.get(f"/unsubscribe/{token}").status_code == 200
    with db() as session:
        assert session.get(User, user.id).email_mode == "digest"  # a GET changes nothing
    assert client.post(f"/unsubscribe/{token}", data={"List-Unsubscribe": "One-Click"}).status_code == 200
    with db() as session:
        assert session.get(User, user.id).email_mode == "off"
        row = Notification(kind="your_turn", email=player.email, user_id=user.id, message_id="<x-prefs@t>")
        assert not wanted(session, row)
    assert client.get("/preferences/forged-token").status_code == 404


def test_daily_digest_lists_games_waiting_first_once_a_day(app, make_player, db):
    players, game = start_game(make_player, 2)
    with db() as session:
        for p in players:
            session.exec(select(User).where(User.email == p.email)).one().email_mode = "digest"
    engine = app.extensions["turnpost"]["database"]
    now = datetime.now(UTC)
    work = write_digests(engine, "http://turnpost.test", now)
    mine = [n for n in work.notifications if n.email in {p.email for p in players}]
    assert len(mine) == 2
    waiting_seat = int(next(iter(game["pending"])))
    by_email = {n.email: n for n in mine}
    assert by_email[players[waiting_seat].email].payload["games"][0]["waiting"] is True
    assert by_email[players[1 - waiting_seat].email].payload["games"][0]["waiting"] is False
    again = write_digests(engine, "http://turnpost.test", now)
    assert not [n for n in again.notifications if n.email in by_email]


def test_digest_email_shows_each_games_board(app, make_player, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 2)
    with db() as session:
        session.exec(select(User).where(User.email == players[0].email)).one().email_mode = "digest"
    engine = app.extensions["turnpost"]["database"]
    work = write_digests(engine, "http://turnpost.test", datetime.now(UTC))
    [row] = [n for n in work.notifications if n.email == players[0].email]
    with db() as session:
        message = build_message(
            compose(session, app.extensions["turnpost"]["settings"], session.get(Notification, row.id)))
    html = message.get_body(("html",)).get_content()
    assert f'src="cid:board-{game["id"]}"' in html and "alt=\"The board of" in html
    assert any(p.get_content_type() == "image/png" for p in message.walk())


def test_a_turns_decision_email_links_a_pass_that_ends_the_turn(app, make_player, outbox, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 2)
    gid, seat = game["id"], int(next(iter(game["pending"])))
    [row] = outbox(players[seat].email, "your_turn")
    with db() as session:
        message = build_message(compose(session, app.extensions["turnpost"]["settings"], row))
    text = message.get_body(("plain",)).get_content()
    path = re.search(r"- pass: take no more actions this turn: \S+(/a/\S+)", text).group(1)
    client = app.test_client()
    page = client.get(path)
    assert page.status_code == 200 and players[0].get(f"/api/games/{gid}").json["version"] == game["version"]
    done = client.post(path, data={"csrf_token": csrf_of(page.get_data(as_text=True))})
    assert done.status_code in (200, 303)
    after = players[0].get(f"/api/games/{gid}").json
    assert after["version"] == game["version"] + 1 and after["pending"] == {str(1 - seat): "action"}
