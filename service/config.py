"""Settings, read from the environment once at start-up. The web service, the
workers and the command line all use this one place."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

INSTANCE = Path(os.environ.get("TURNPOST_INSTANCE", Path.cwd() / "instance"))
# The strong bot's search per decision, in iterations (the engine reads no clock): 400
# take about a second of CPU; the bots' workers cut a longer search short (docs/workers.md).
BOT_SEARCH_ITERATIONS = int(os.environ.get("BOT_SEARCH_ITERATIONS", "400"))


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one kept in the instance folder so that
    sessions and links survive a restart of the embedded service."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = INSTANCE / "secret_key"
    if not path.exists():
        INSTANCE.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
    return path.read_text().strip()


def served_base_url(host: str, port: int) -> str:
    """The address of `turnpost serve` listening on `host` and `port`, for links when
    BASE_URL is not set; a wildcard host is reached through the loopback address."""
    reachable = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{reachable}]:{port}" if ":" in reachable else f"http://{reachable}:{port}"


@dataclass
class Settings:
    database_url: str = field(
        default_factory=lambda: os.environ.get("DATABASE_URL", f"sqlite:///{INSTANCE / 'turnpost.db'}"))
    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    smtp_url: str | None = field(default_factory=lambda: os.environ.get("SMTP_URL") or None)
    # The relay's certificate must chain to these (PEM) instead of the system's CAs: a private CA.
    smtp_ca_file: str | None = field(default_factory=lambda: os.environ.get("SMTP_CA_FILE") or None)
    # A relay on this machine (a development one) may take the login without TLS; no other may.
    smtp_allow_plain_login: bool = field(default_factory=lambda: os.environ.get("SMTP_ALLOW_PLAIN_LOGIN", "") == "1")
    # DKIM signing of outgoing mail, on when a key file is given (workers/dkim_signing.py).
    dkim_key_file: str | None = field(default_factory=lambda: os.environ.get("DKIM_KEY_FILE") or None)
    dkim_selector: str = field(default_factory=lambda: os.environ.get("DKIM_SELECTOR", "turnpost"))
    dkim_domain: str | None = field(default_factory=lambda: os.environ.get("DKIM_DOMAIN") or None)
    base_url: str = field(default_factory=lambda: os.environ.get("BASE_URL", "http://127.0.0.1:5000").rstrip("/"))
    mail_from: str = field(default_factory=lambda: os.environ.get("MAIL_FROM", "turnpost <play@turnpost.localhost>"))
    secret_key: str = field(default_factory=_secret_key)
    bench_endpoints: bool = field(default_factory=lambda: os.environ.get("TURNPOST_BENCH", "") == "1")
    dev_mode: bool = field(default_factory=lambda: os.environ.get("TURNPOST_DEV", "") == "1")
    maildir: Path = field(default_factory=lambda: Path(os.environ.get("TURNPOST_MAILDIR", INSTANCE / "mail")))
    queue: str = field(default_factory=lambda: os.environ.get("TURNPOST_QUEUE", "turnpost"))
    # Reverse proxies in front of the web service (a PaaS router, nginx) whose
    # X-Forwarded-For is believed: 0 believes none, so a client cannot choose the
    # address its rate limits are counted under.
    trusted_proxies: int = field(default_factory=lambda: int(os.environ.get("TRUSTED_PROXIES", "0")))
    rate_limit: str = field(default_factory=lambda: os.environ.get("RATE_LIMIT", "600 per minute"))
    sign_in_minutes: int = 30
    sign_in_limit: str = field(default_factory=lambda: os.environ.get("SIGN_IN_LIMIT", "10 per minute"))
    sign_in_address_limit: str = field(default_factory=lambda: os.environ.get("SIGN_IN_ADDRESS_LIMIT", "5 per hour"))
    link_days: int = 14
    # Table talk and notes written per player (per client address when signed out).
    talk_limit: str = field(default_factory=lambda: os.environ.get("TALK_LIMIT", "20 per minute"))
    # Invitation emails a creator may send, and one address may receive, in 24 hours.
    invitations_per_sender: int = field(default_factory=lambda: int(os.environ.get("INVITATIONS_PER_SENDER", "20")))
    invitations_per_recipient: int = field(
        default_factory=lambda: int(os.environ.get("INVITATIONS_PER_RECIPIENT", "3")))
    # Games with bots one user may have open or active at once (each bot turn costs worker CPU).
    bot_games_per_user: int = field(default_factory=lambda: int(os.environ.get("BOT_GAMES_PER_USER", "10")))
    # Email retries: the n-th temporary failure waits retry_seconds * 2**(n-1), at most
    # retry_max_seconds; after mail_max_attempts attempts the row is dead.
    mail_max_attempts: int = field(default_factory=lambda: int(os.environ.get("MAIL_MAX_ATTEMPTS", "8")))
    mail_retry_seconds: float = field(default_factory=lambda: float(os.environ.get("MAIL_RETRY_SECONDS", "60")))
    mail_retry_max_seconds: float = field(
        default_factory=lambda: float(os.environ.get("MAIL_RETRY_MAX_SECONDS", "3600")))
    # A delivery's hold on its row, longer than any send; a killed worker's row waits this long.
    mail_claim_seconds: float = field(default_factory=lambda: float(os.environ.get("MAIL_CLAIM_SECONDS", "120")))
    # How long a board picture drawn for an email stays in Redis for the other emails that show it.
    picture_cache_seconds: float = field(default_factory=lambda: float(os.environ.get("PICTURE_CACHE_SECONDS", "300")))
    max_body_bytes: int = 64 * 1024
    # Inbound mail: replies come to play+<token>@mail_domain (docs/email.md).
    mail_domain: str = field(default_factory=lambda: os.environ.get("MAIL_DOMAIN", "turnpost.localhost").lower())
    inbound_smtp_port: int = field(default_factory=lambda: int(os.environ.get("INBOUND_SMTP_PORT", "2525")))
    inbound_secret: str | None = field(default_factory=lambda: os.environ.get("INBOUND_SECRET") or None)
    # The authserv-ids of the mail servers in front whose Authentication-Results are believed
    # (comma-separated); a header under any other name may have been written by the sender.
    authserv_ids: tuple[str, ...] = field(default_factory=lambda: tuple(
        name.strip().lower() for name in os.environ.get("AUTHSERV_ID", "").split(",") if name.strip()))
    # What ordinary MTAs take (a reply with a phone's photo): 25 MiB; only text parts are read.
    inbound_max_bytes: int = 25 * 1024 * 1024
    # Mail providers' inbound webhooks (docs/email.md): Mailgun's webhook signing key,
    # Postmark's basic-auth "user:password" in the webhook URL.
    mailgun_signing_key: str | None = field(default_factory=lambda: os.environ.get("MAILGUN_SIGNING_KEY") or None)
    postmark_inbound_auth: str | None = field(default_factory=lambda: os.environ.get("POSTMARK_INBOUND_AUTH") or None)
    refusals_per_hour: int = 20  # answers to replies that changed nothing, per address (no mail loops)
    # Answers in a row to replies that changed nothing, per address, before it gets no
    # more until a reply applies a move (a responder that ignores Auto-Submitted).
    unchanged_run_answered: int = 5
