"""Outbound mail through relays as providers run them (aiosmtpd with TLS and logins, a
certificate from a private CA made here): TLS verified, a login only ever encrypted,
messages DKIM-signed so that they verify, and a relay that cannot be used reported at
the mailer's start."""
from __future__ import annotations

import os
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

import dkim
import pytest

from service.config import Settings
from tests.workers.conftest import free_port
from tests.workers.relay_servers import PASSWORD, USER, DkimKey, PrivateCa, start_relay
from workers.delivery import is_permanent, transport_for
from workers.dkim_signing import DkimSigner
from workers.mail import Mail, RelayUnusable, SmtpSender, build_message
from workers.relay_check import relay_problem

ROOT = Path(__file__).resolve().parents[2]


def sample(n: int = 0) -> Mail:
    return Mail(to=f"player{n}@example.org", subject="Your move: ünïcode too", text="plain body\n" * 50,
                html="<p>html body</p>", message_id=f"<note-{n}@turnpost.test>", sender="turnpost <play@turnpost.test>",
                unsubscribe_url="https://turnpost.test/unsubscribe/abc",
                headers={"References": "<game-1@turnpost.test>"})


def settings_for(url: str, tmp_path: Path, **extra) -> Settings:
    return Settings(smtp_url=url, secret_key="test", mail_from="turnpost <play@turnpost.test>",
                    maildir=tmp_path / "mail", **extra)


@pytest.fixture
def ca(tmp_path):
    return PrivateCa(tmp_path)


@pytest.fixture
def relay(request):
    """Starts relays for a test and stops them after it."""
    started = []

    def start(*args, **kwargs):
        controller, inbox = start_relay(*args, **kwargs)
        started.append(controller)
        return controller, inbox
    yield start
    for controller in started:
        controller.stop()


def test_starttls_then_login_then_a_signed_message_that_verifies(ca, relay, tmp_path):
    controller, inbox = relay(ca.server_context("127.0.0.1", "localhost"))
    key = DkimKey(tmp_path)
    settings = settings_for(f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}", tmp_path,
                            smtp_ca_file=str(ca.ca_file), dkim_key_file=str(key.key_file), dkim_selector=key.selector)
    transport = transport_for(settings)
    for n in range(2):  # one connection, kept
        transport.send(build_message(sample(n)), "bounce+x@turnpost.test")
    transport.close()
    assert [(tls, logged_in) for _, tls, logged_in in inbox.received] == [(True, True), (True, True)]
    for raw, _, _ in inbox.received:
        assert raw.startswith(b"DKIM-Signature:")
        assert dkim.verify(raw, dnsfunc=key.dns)
        header = message_from_bytes(raw, policy=policy.default)["DKIM-Signature"]
        tags = dict(tag.strip().split("=", 1) for tag in str(header).split(";") if "=" in tag)
        assert tags["d"] == "turnpost.test" and tags["s"] == key.selector
        signed = set(tags["h"].replace(" ", "").split(":"))
        assert {"from", "list-unsubscribe-post", "references", "message-id"} <= signed
    # Changed on the way, the message no longer verifies.
    raw = inbox.received[0][0].replace(b"Your move", b"Your mave")
    assert not dkim.verify(raw, dnsfunc=key.dns)


def test_smtps_verifies_the_certificate_and_its_host_name(ca, relay, tmp_path):
    good, inbox = relay(ca.server_context("127.0.0.1"), implicit_tls=True)
    sender = SmtpSender(f"smtps://{USER}:{PASSWORD}@127.0.0.1:{good.port}", ca_file=str(ca.ca_file))
    sender.send(build_message(sample()))
    sender.close()
    assert [(tls, logged_in) for _, tls, logged_in in inbox.received] == [(True, True)]
    other, other_inbox = relay(ca.server_context("relay.other.example"), implicit_tls=True)
    problem = relay_problem(settings_for(f"smtps://{USER}:{PASSWORD}@127.0.0.1:{other.port}", tmp_path,
                                         smtp_ca_file=str(ca.ca_file)))
    assert problem and "certificate" in problem and "'127.0.0.1'" in problem and "SMTP_CA_FILE" in problem
    # Without the private CA, the system's CAs do not vouch for it either.
    problem = relay_problem(settings_for(f"smtps://{USER}:{PASSWORD}@127.0.0.1:{good.port}", tmp_path))
    assert problem and "certificate" in problem
    assert other_inbox.received == [] and len(inbox.received) == 1


def test_a_wrong_host_certificate_after_starttls_is_refused_before_the_login(ca, relay, tmp_path):
    controller, inbox = relay(ca.server_context("relay.other.example"))
    sender = SmtpSender(f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}", ca_file=str(ca.ca_file))
    with pytest.raises(RelayUnusable, match="certificate"):
        sender.send(build_message(sample()))
    assert inbox.received == []


def test_a_relay_without_starttls_never_gets_the_password(relay, tmp_path):
    controller, inbox = relay(None, auth_require_tls=False)
    url = f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}"
    problem = relay_problem(settings_for(url, tmp_path))
    assert problem and "offers no STARTTLS" in problem and "587" in problem
    # Only for a relay on this machine may the login go unencrypted, when asked for.
    with pytest.raises(ValueError, match="only for a relay on this machine"):
        SmtpSender(f"smtp://{USER}:{PASSWORD}@relay.example.org:587", allow_plain_login=True)
    sender = SmtpSender(url, allow_plain_login=True)
    sender.send(build_message(sample()))
    sender.close()
    assert [(tls, logged_in) for _, tls, logged_in in inbox.received] == [(False, True)]


def test_a_relay_that_offers_no_login_or_refuses_it_or_requires_one(ca, relay, tmp_path):
    controller, _ = relay(None)  # AUTH only after TLS, and it offers no STARTTLS
    problem = relay_problem(settings_for(f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}", tmp_path,
                                         smtp_allow_plain_login=True))
    assert problem and "offers no login" in problem
    controller, _ = relay(ca.server_context("127.0.0.1"))
    problem = relay_problem(settings_for(f"smtp://{USER}:wrong@127.0.0.1:{controller.port}", tmp_path,
                                         smtp_ca_file=str(ca.ca_file)))
    assert problem and "refused the login of 'turnpost'" in problem and "535" in problem
    # Without a login: STARTTLS is still used, and the relay's demand for a login is found at the start...
    problem = relay_problem(settings_for(f"smtp://127.0.0.1:{controller.port}", tmp_path, smtp_ca_file=str(ca.ca_file)))
    assert problem and "takes no mail without a login: 530" in problem
    # ... and, should it come later, is no permanent failure of the email.
    sender = SmtpSender(f"smtp://127.0.0.1:{controller.port}", ca_file=str(ca.ca_file))
    with pytest.raises(RelayUnusable, match="takes no mail without a login: 530") as refused:
        sender.send(build_message(sample()))
    assert not is_permanent(refused.value)  # the row is kept for a retry, not marked dead


def test_a_relay_down_at_start_is_no_start_up_error(tmp_path):
    assert relay_problem(settings_for(f"smtp://{USER}:{PASSWORD}@127.0.0.1:{free_port()}", tmp_path)) is None


def test_settings_that_cannot_work_are_named(tmp_path):
    assert "SMTP_CA_FILE" in relay_problem(settings_for("smtp://127.0.0.1:25", tmp_path,
                                                        smtp_ca_file=str(tmp_path / "missing.pem")))
    (tmp_path / "not-a-key").write_text("hello")
    assert "DKIM_KEY_FILE" in relay_problem(settings_for("smtp://127.0.0.1:25", tmp_path,
                                                         dkim_key_file=str(tmp_path / "not-a-key")))
    with pytest.raises(ValueError, match="DKIM_KEY_FILE"):
        DkimSigner("s1", "turnpost.test", tmp_path / "missing.key")


def test_the_mailer_stops_at_start_saying_once_why_its_relay_cannot_be_used(ca, relay, tmp_path):
    """A Celery mailer (Procfile: `mailer`) whose relay's certificate names another host
    ends at once with the reason, instead of failing and retrying every email."""
    controller, inbox = relay(ca.server_context("relay.other.example"))
    queue = f"test-relay-{os.getpid()}-{controller.port}"
    env = {**os.environ, "SMTP_URL": f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}",
           "SMTP_CA_FILE": str(ca.ca_file), "SECRET_KEY": "test", "TURNPOST_QUEUE": queue,
           "REDIS_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")}
    # The time limit only bounds a hang: the worker stops before it takes any task.
    worker = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--pool=solo", f"--queues={queue}.mail",
         "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    output = worker.stdout + worker.stderr
    assert worker.returncode != 0
    assert output.count("turnpost cannot send email: the certificate of the SMTP relay 127.0.0.1") == 2  # log + exit
    assert inbox.received == []


def test_no_login_and_no_tls_still_sends_to_a_plain_local_relay(smtp_server):
    sender = SmtpSender(smtp_server.url)
    sender.send(build_message(sample()))
    sender.close()
    assert len(smtp_server.messages) == 1



def test_turnpost_serve_with_an_unusable_relay_stops_before_serving(relay, tmp_path):
    from click.testing import CliRunner

    from workers.cli import main

    controller, inbox = relay(None, auth_require_tls=False)  # would take the password unencrypted
    result = CliRunner().invoke(main, ["serve", "--port", str(free_port())], env={
        "SMTP_URL": f"smtp://{USER}:{PASSWORD}@127.0.0.1:{controller.port}", "SECRET_KEY": "test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'never.db'}", "REDIS_URL": ""})
    assert result.exit_code == 1
    assert "turnpost cannot send email: the SMTP relay 127.0.0.1" in str(result.exception)
    assert "offers no STARTTLS" in str(result.exception)
    assert not (tmp_path / "never.db").exists() and inbox.received == []


def test_the_date_is_utc_written_plus_0000():
    date = build_message(sample())["Date"]
    assert str(date).endswith(" +0000") and date.datetime.utcoffset().total_seconds() == 0
