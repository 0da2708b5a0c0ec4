"""Rate limits count the client's own address: behind TRUSTED_PROXIES proxies, the
one they saw (X-Forwarded-For); with none trusted (the default), X-Forwarded-For is
ignored, so a client cannot pick the bucket it is counted in."""
from __future__ import annotations

import uuid

from service.app import create_app
from service.config import Settings

PROXY = "10.0.0.1"


def app_behind(database_url, tmp_path, trusted_proxies: int):
    settings = Settings(database_url=database_url, redis_url=None, smtp_url=None, base_url="http://turnpost.test",
                        secret_key="test-secret-key", maildir=tmp_path / "mail", sign_in_limit="2 per minute",
                        sign_in_address_limit="1000 per minute", rate_limit="1000000 per minute",
                        trusted_proxies=trusted_proxies)
    app = create_app(settings)
    app.config["TESTING"] = True
    return app


def ask(client, forwarded_for: str | None):
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return client.post("/api/sign-in", json={"email": f"p-{uuid.uuid4().hex[:8]}@example.org"}, headers=headers,
                       environ_base={"REMOTE_ADDR": PROXY}).status_code


def test_two_clients_behind_one_trusted_proxy_have_their_own_limits(database_url, tmp_path):
    client = app_behind(database_url, tmp_path, 1).test_client()
    assert [ask(client, "203.0.113.5") for _ in range(3)] == [202, 202, 429]
    assert [ask(client, "198.51.100.7") for _ in range(2)] == [202, 202], "the other client is not blocked"


def test_only_the_address_the_trusted_proxy_added_counts(database_url, tmp_path):
    """A client's own X-Forwarded-For comes first; the trusted proxy appends what it saw."""
    client = app_behind(database_url, tmp_path, 1).test_client()
    assert [ask(client, f"192.0.2.{n}, 203.0.113.9") for n in range(3)] == [202, 202, 429]


def test_without_trusted_proxies_forwarded_for_is_ignored(database_url, tmp_path):
    client = app_behind(database_url, tmp_path, 0).test_client()
    assert [ask(client, f"203.0.113.{n}") for n in range(3)] == [202, 202, 429]


def test_trusted_proxies_default_to_none(monkeypatch):
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    assert Settings(secret_key="k").trusted_proxies == 0
    monkeypatch.setenv("TRUSTED_PROXIES", "2")
    assert Settings(secret_key="k").trusted_proxies == 2
