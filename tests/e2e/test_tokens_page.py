"""The API tokens page: a token created there works on the API once, is listed by
its name, and is refused after Revoke."""
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails


def test_a_token_is_created_used_and_revoked_from_the_page(live, browser, screenshot):
    ann_email, _ = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/")
    ann.click("header details.account summary")  # the account menu
    ann.click("header >> text=API tokens")
    ann.fill("input[name=label]", "my bot")
    ann.click("button:has-text('Create a token')")
    secret = ann.inner_text("#new-token code")
    assert secret.startswith("tp_") and "my bot" in ann.inner_text("table.players")
    screenshot(ann, "created")
    api = live.test_client()
    answer = api.get("/api/tokens", headers={"Authorization": f"Bearer {secret}"})
    assert answer.status_code == 200
    ann.goto(f"{live.base}/tokens")
    assert secret not in ann.content()  # shown once only
    ann.click("tr:has-text('my bot') button:has-text('Revoke')")
    ann.wait_for_selector("text=The token is revoked")
    assert "refused within 5 seconds" in ann.inner_text("p.flash")  # as long as other processes cache it
    assert "revoked" in ann.inner_text("tr:has-text('my bot')")
    assert api.get("/api/tokens", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
    ann.click("button:has-text('Create a token')")  # the browser asks for a name first
    assert ann.locator("#new-token").count() == 0
    ann_ctx.close()
