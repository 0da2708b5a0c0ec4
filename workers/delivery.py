"""Delivering one outbox row: compose it, hand it to the mail transport, and mark it
sent only after the transport accepted it (in a transaction of its own, so a crash
between the two gives at most one duplicate, recognisable by its Message-ID)."""
from __future__ import annotations

import mailbox
from datetime import timedelta
from pathlib import Path
from typing import Iterator

from sqlalchemy.engine import Engine
from sqlmodel import select, update

from service.db import transaction
from service.models import Notification, Seat, User, utcnow
from workers.compose import compose
from workers.mail import SmtpSender, build_message


class MaildirTransport:
    """The embedded default: mail kept in a local Maildir, shown at /dev/mail."""

    def __init__(self, path: Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)  # Maildir makes only the last level
        self.box = mailbox.Maildir(str(path), create=True)

    def send(self, message, envelope_from: str | None = None) -> None:
        self.box.add(message)

    def close(self) -> None:
        pass


def transport_for(settings):
    return SmtpSender(settings.smtp_url) if settings.smtp_url else MaildirTransport(settings.maildir)


def wanted(db, row: Notification) -> bool:
    """Whether the player wants this email (sign-in and game-over always go), and
    whether his address takes mail (none goes to one that bounced, but sign-in links)."""
    if row.kind == "sign_in" or row.user_id is None:
        return True
    user_mode, seat_mode, bouncing_since = db.exec(
        select(User.email_mode, Seat.email_mode, User.bouncing_since).outerjoin(
            Seat, (Seat.user_id == User.id) & (Seat.game_id == row.game_id)).where(User.id == row.user_id)).first()
    if bouncing_since is not None:
        return False
    if row.kind in ("invitation", "digest", "reply_answer"):
        return True
    mode = seat_mode or user_mode
    if row.kind == "game_over":
        return mode != "off"
    return mode == "every"


def deliver(engine: Engine, settings, notification_id: int, transport) -> str:
    """Send one outbox row if still owed. Returns what happened: sent, already_sent,
    skipped (the player chose not to get it) or missing."""
    with transaction(engine) as db:
        row = db.get(Notification, notification_id)
        if row is None:
            return "missing"
        if row.sent_at is not None:
            return "already_sent"
        row.attempts += 1
        if not wanted(db, row):
            row.sent_at = utcnow()
            row.payload = {**row.payload, "skipped": True}
            return "skipped"
        mail = compose(db, settings, row)
        message = build_message(mail)
    transport.send(message, mail.envelope_from)  # raises unless accepted
    with transaction(engine) as db:
        db.exec(update(Notification).where(Notification.id == notification_id).values(sent_at=utcnow()))
    return "sent"


def unsent_ids(engine: Engine, older_than_seconds: float = 60, batch: int = 1000) -> Iterator[int]:
    """Rows still owed after a while: their task was lost (a crash, a full queue).
    All of them, a batch per transaction, oldest first; re-sending one whose task is
    merely late costs one lookup, since `deliver` skips rows already sent."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    after = 0
    while True:
        with transaction(engine) as db:
            ids = list(db.exec(select(Notification.id).where(
                Notification.sent_at.is_(None), Notification.created_at < cutoff, Notification.id > after,
            ).order_by(Notification.id).limit(batch)))
        yield from ids
        if len(ids) < batch:
            return
        after = ids[-1]
