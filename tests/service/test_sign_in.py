"""Sign-in by emailed link: each link gives one session, however many requests race."""
from __future__ import annotations

import threading
import uuid

from sqlmodel import col, select

from service.models import Notification
from tests.workers.test_links_and_preferences import csrf_of
from workers.compose import sign_in_url


def sign_in_link(app, db, email: str) -> str:
    """Ask for a link for `email`; the path of the link the email carries."""
    answer = app.test_client().post("/api/sign-in", json={"email": email})
    assert answer.status_code == 202, answer.json
    with db() as session:
        row = session.exec(select(Notification).where(Notification.email == email.lower())
                           .order_by(col(Notification.id).desc())).first()
    settings = app.extensions["turnpost"]["settings"]
    return sign_in_url(settings, row.payload).removeprefix(settings.base_url)


def signed_in(client) -> bool:
    return client.get("/").status_code == 200


def test_a_link_used_by_ten_racing_requests_gives_one_session(app, db):
    path = sign_in_link(app, db, f"racer-{uuid.uuid4().hex[:8]}@example.org")
    clients = [app.test_client() for _ in range(10)]
    forms = [csrf_of(c.get(path).get_data(as_text=True)) for c in clients]
    start, answers = threading.Barrier(len(clients)), [None] * len(clients)

    def use(n):
        start.wait()
        answers[n] = clients[n].post(path, data={"csrf_token": forms[n]}).status_code

    threads = [threading.Thread(target=use, args=(n,)) for n in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answers) == [302] + [401] * 9, answers
    assert sum(signed_in(c) for c in clients) == 1
    page = app.test_client().get(path)
    assert page.status_code == 401 and "already used" in page.get_data(as_text=True)


def signed_in_client(app, db, email: str):
    client = app.test_client()
    path = sign_in_link(app, db, email)
    assert client.post(path, data={"csrf_token": csrf_of(client.get(path).get_data(as_text=True))}).status_code == 302
    return client


def test_the_session_cookie_alone_changes_nothing_through_the_api(app, db):
    client = signed_in_client(app, db, f"cookie-{uuid.uuid4().hex[:8]}@example.org")
    for answer in (client.post("/api/tokens", json={"label": "forged"}),
                   client.post("/api/tokens", data={"label": "forged"}),
                   client.post("/api/games", json={"game": "tigris", "players": 2})):
        assert answer.status_code == 401 and answer.json["code"] == "csrf_missing", answer.json
    assert client.get("/api/tokens").json["tokens"] == []  # reading with the cookie is harmless
    csrf = csrf_of(client.get("/games/new").get_data(as_text=True))
    created = client.post("/api/tokens", json={"label": "mine"}, headers={"X-CSRFToken": csrf})
    assert created.status_code == 201 and created.json["token"].startswith("tp_")


def test_signing_out_ends_the_session_even_for_a_copied_cookie(app, db):
    email = f"leaver-{uuid.uuid4().hex[:8]}@example.org"
    client = signed_in_client(app, db, email)
    copy = app.test_client()
    with client.session_transaction() as original, copy.session_transaction() as copied:
        copied.update(original)  # the stolen cookie
    assert signed_in(copy)
    client.post("/sign-out", data={"csrf_token": csrf_of(client.get("/").get_data(as_text=True))})
    assert not signed_in(client) and not signed_in(copy)


def test_sign_out_everywhere_ends_every_session_of_the_user(app, db):
    email = f"everywhere-{uuid.uuid4().hex[:8]}@example.org"
    laptop, phone = signed_in_client(app, db, email), signed_in_client(app, db, email)
    other = signed_in_client(app, db, f"other-{uuid.uuid4().hex[:8]}@example.org")
    page = laptop.get("/").get_data(as_text=True)
    assert "Sign out everywhere" in page
    laptop.post("/sign-out", data={"csrf_token": csrf_of(page), "everywhere": "1"})
    assert not signed_in(laptop) and not signed_in(phone)
    assert signed_in(other)


def test_asking_for_a_link_does_the_same_work_for_known_and_unknown_addresses(app, db):
    from sqlalchemy import event

    from service.api.accounts import request_sign_in
    from service.auth import user_for_email
    from service.models import User

    engine = app.extensions["turnpost"]["database"]
    known, unknown = f"known-{uuid.uuid4().hex[:8]}@example.org", f"unknown-{uuid.uuid4().hex[:8]}@example.org"
    with db() as session:
        user_for_email(session, known)

    def statements(email):
        seen = []
        listener = lambda conn, cursor, statement, *rest: seen.append(statement)  # noqa: E731
        event.listen(engine, "before_cursor_execute", listener)
        try:
            with db() as session:
                request_sign_in(session, email, 30)
        finally:
            event.remove(engine, "before_cursor_execute", listener)
        return seen

    assert statements(known) == statements(unknown)
    with db() as session:
        assert session.exec(select(User).where(User.email == unknown)).first() is None


def test_the_account_is_created_when_the_link_is_used(app, db):
    from service.models import User

    email = f"Newcomer-{uuid.uuid4().hex[:8]}@Example.org"
    path = sign_in_link(app, db, email)
    with db() as session:
        assert session.exec(select(User).where(User.email == email.lower())).first() is None
    client = app.test_client()
    page = client.get(path).get_data(as_text=True)
    assert email.lower() in page
    assert client.post(path, data={"csrf_token": csrf_of(page)}).status_code == 302
    assert signed_in(client)
    with db() as session:
        assert session.exec(select(User).where(User.email == email.lower())).one()


def limited_app(database_url, tmp_path, **limits):
    from service.app import create_app
    from service.config import Settings

    return create_app(Settings(database_url=database_url, secret_key="k", redis_url=None, maildir=tmp_path, **limits))


def ask(client, email, page=False, ip="10.0.0.1"):
    if page:
        csrf = csrf_of(client.get("/sign-in", environ_base={"REMOTE_ADDR": ip}).get_data(as_text=True))
        return client.post("/sign-in", data={"email": email, "csrf_token": csrf},
                           environ_base={"REMOTE_ADDR": ip}).status_code
    return client.post("/api/sign-in", json={"email": email}, environ_base={"REMOTE_ADDR": ip}).status_code


def test_the_sign_in_limit_is_shared_by_the_api_and_the_page(database_url, tmp_path):
    client = limited_app(database_url, tmp_path, sign_in_limit="3 per minute").test_client()
    codes = [ask(client, f"s{n}-{uuid.uuid4().hex[:6]}@example.org", page=n % 2 == 1) for n in range(5)]
    assert codes == [202, 200, 202, 429, 429]


def test_one_address_is_not_flooded_from_many_machines(database_url, tmp_path):
    client = limited_app(database_url, tmp_path, sign_in_address_limit="2 per hour").test_client()
    target = f"Victim-{uuid.uuid4().hex[:6]}@example.org"
    codes = [ask(client, target if n % 2 else target.lower(), page=n == 1, ip=f"10.0.1.{n}") for n in range(4)]
    assert codes == [202, 200, 429, 429]
    assert ask(client, f"other-{uuid.uuid4().hex[:6]}@example.org", ip="10.0.1.9") == 202


def test_pages_refuse_framing_and_run_only_our_scripts(app):
    answer = app.test_client().get("/sign-in")
    policy = answer.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy \
        and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert "Secure" not in answer.headers.get("Set-Cookie", "Secure-free")  # plain HTTP in tests


def test_the_session_cookie_is_secure_over_https(database_url, tmp_path):
    from service.app import create_app
    from service.config import Settings

    https = create_app(Settings(database_url=database_url, secret_key="k", redis_url=None, maildir=tmp_path,
                                base_url="https://turnpost.example.org"))
    answer = https.test_client().get("/sign-in", base_url="https://turnpost.example.org")
    cookie = answer.headers["Set-Cookie"]
    assert "; Secure" in cookie and "HttpOnly" in cookie
    assert "max-age" in answer.headers["Strict-Transport-Security"]
