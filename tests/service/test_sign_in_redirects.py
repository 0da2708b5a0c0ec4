"""Where a sign-in leads: only to a path on this site, decided by parsing; anything
else (another host however disguised, a line break) leads to the games list, with no
500, and the session starts only once the link has been accepted."""
from __future__ import annotations

import uuid

import pytest

from service.invitation_links import safe_next
from tests.service.test_sign_in import sign_in_link, signed_in
from tests.workers.test_links_and_preferences import csrf_of

# As the query string carries them, decoded: a tab or line breaks that browsers drop,
# backslashes they read as slashes, other hosts and schemes.
HOSTILE_NEXT = ["/\t/evil.example/x", "//evil.example/x", "/\\evil.example/x", "\\\\evil.example/x", "/\n/x",
                "/\r\nSet-Cookie: sid=stolen", "/\r/evil.example", "https://evil.example/x", "javascript:alert(1)",
                "/\u2028/evil.example", "evil.example/x", "//[evil", "/\x00x"]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_a_target_off_the_site_is_not_followed(target):
    assert safe_next(target) is None


@pytest.mark.parametrize("target", ["/games/4", "/games/4?tab=log#board", "/", "/preferences"])
def test_a_path_on_the_site_is_kept(target):
    assert safe_next(target) == target


def sign_in_heading_to(app, db, target: str):
    """Ask for a link on the sign-in page with `next=target`, open the link in the
    same browser and confirm; the answer and the browser."""
    email = f"next-{uuid.uuid4().hex[:8]}@example.org"
    browser = app.test_client()
    page = browser.get("/sign-in", query_string={"next": target})
    assert page.status_code == 200
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "email": email, "next": target}
    assert browser.post("/sign-in", data=form).status_code == 200
    path = sign_in_link(app, db, email)
    confirm = browser.get(path)
    return browser.post(path, data={"csrf_token": csrf_of(confirm.get_data(as_text=True))}), browser


@pytest.mark.parametrize("target", HOSTILE_NEXT[:7])
def test_signing_in_with_a_hostile_next_goes_to_the_games_list(app, db, target):
    answer, browser = sign_in_heading_to(app, db, target)
    assert answer.status_code == 302, answer.status_code
    assert answer.headers["Location"] == "/"
    assert "Set-Cookie: sid=stolen" not in str(answer.headers)
    assert signed_in(browser)


def test_signing_in_with_a_path_on_the_site_goes_there(app, db):
    answer, browser = sign_in_heading_to(app, db, "/preferences?from=mail")
    assert answer.status_code == 302 and answer.headers["Location"] == "/preferences?from=mail"
    assert signed_in(browser)


def test_a_hostile_target_kept_in_an_old_session_is_not_followed(app, db):
    """A cookie written before the check: the target is checked again on the way out."""
    email = f"stored-{uuid.uuid4().hex[:8]}@example.org"
    browser = app.test_client()
    path = sign_in_link(app, db, email)
    with browser.session_transaction() as session:
        session["after_sign_in"] = "/\r\nLocation: https://evil.example/"
    confirm = browser.get(path)
    answer = browser.post(path, data={"csrf_token": csrf_of(confirm.get_data(as_text=True))})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"


def test_a_refused_link_starts_no_session_whatever_the_target(app, db):
    browser = app.test_client()
    with browser.session_transaction() as session:
        session["after_sign_in"] = "/\n/x"
    csrf = csrf_of(browser.get("/sign-in").get_data(as_text=True))
    page = browser.post("/sign-in/not-a-token", data={"csrf_token": csrf})
    assert page.status_code == 401
    assert not signed_in(browser)
