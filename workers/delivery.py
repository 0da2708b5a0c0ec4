"""Delivering one outbox row: claim it, compose it, hand it to the mail transport, and
mark it sent only after the transport accepted it (in a transaction of its own, so a
crash between the two gives at most one duplicate, recognisable by its Message-ID).
Retries are rows, not tasks: a failed attempt sets the row's next attempt time
(bounded exponential backoff) or, when it can never succeed, marks it dead; the outbox
sweep starts the next attempt."""
from __future__ import annotations

import logging
import mailbox
import re
import smtplib
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import cast

from sqlalchemy import and_, bindparam, or_
from sqlalchemy import select as sql_select
from sqlalchemy.engine import Engine
from sqlmodel import col, select, update

from service.db import transaction
from service.models import Notification, Seat, User, aware, utcnow
from service.rows import NOTIFICATION, SEAT, USER
from workers.compose import compose
from workers.dkim_signing import signer_for
from workers.mail import SmtpSender, build_message

log = logging.getLogger(__name__)
_OUTBOX = NOTIFICATION
_ROW = _OUTBOX.c


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
    """The SMTP relay of SMTP_URL (TLS verified, DKIM-signing when a key is set), else the
    local Maildir. Raises ValueError for settings that cannot work."""
    if not settings.smtp_url:
        return MaildirTransport(settings.maildir)
    return SmtpSender(settings.smtp_url, ca_file=settings.smtp_ca_file,
                      allow_plain_login=settings.smtp_allow_plain_login, signer=signer_for(settings))


# What `wanted` reads of a player: his email mode, the mode he chose for the row's
# game (None if none), and since when his address bounces (None if it takes mail).
Preferences = tuple[str, str | None, datetime | None]


def wanted(db, row: Notification, preferences: Preferences | None = None) -> bool:
    """Whether the player wants this email (sign-in links and digests always go;
    invitations and game-over unless he chose no email), and whether his address takes
    mail (none goes to one that bounced, but sign-in links). `preferences`: as read
    for the row's batch (`preferences_of`), else read now."""
    if row.kind == "sign_in" or row.user_id is None:
        return True
    if preferences is None:
        preferences = _preferences(db, [row])[0]
    if preferences is None:  # no such user any more: nobody to ask
        return True
    user_mode, seat_mode, bouncing_since = preferences
    if bouncing_since is not None:
        return False
    if row.kind in ("digest", "reply_answer"):
        return True
    mode = seat_mode or user_mode
    if row.kind == "table_talk":  # he may have muted the table or changed his mind since
        from service.table_talk import wants_talk_mail

        seat = db.exec(select(Seat).where(Seat.game_id == row.game_id, Seat.user_id == row.user_id)).first()
        return mode != "off" and wants_talk_mail(db, seat, "immediately")
    if row.kind in ("game_over", "invitation"):
        return mode != "off"
    return mode == "every"


def preferences_of(db, rows: Iterable[Notification]) -> dict[int, Preferences]:
    """The preferences `wanted` reads, for every row addressed to a user, by row id:
    in one query for a whole batch."""
    rows = list(rows)
    return {row.id: found for row, found in zip(rows, _preferences(db, rows), strict=True)
            if row.id is not None and found is not None}


def _preferences(db, rows: list[Notification]) -> list[Preferences | None]:
    """Each row's preferences (None for a row to nobody, or to a user since removed)."""
    to_users = [row for row in rows if row.user_id is not None]
    users, seat_modes = {}, {}
    if to_users:
        user, seat = USER.c, SEAT.c
        for user_id, game_id, user_mode, seat_mode, bouncing_since in db.execute(sql_select(
                user.id, seat.game_id, user.email_mode, seat.email_mode, user.bouncing_since).select_from(
                USER.outerjoin(SEAT, (seat.user_id == user.id) & seat.game_id.in_(
                    {row.game_id for row in to_users}))).where(user.id.in_({row.user_id for row in to_users}))):
            users[user_id] = (user_mode, bouncing_since)
            seat_modes[(user_id, game_id)] = seat_mode
    return [(users[row.user_id][0], seat_modes.get((row.user_id, row.game_id)), users[row.user_id][1])
            if row.user_id in users else None for row in rows]


def deliver(engine: Engine, settings, notification_id: int, transport) -> str:
    """Send one outbox row if it is owed and due, and no other delivery holds it.
    Returns what happened: sent, skipped (the player chose not to get it), retry (a
    temporary failure: tried again later), dead (a permanent failure, or the last
    attempt), or why nothing was tried: missing, already_sent, in_flight, not_due."""
    return deliver_many(engine, settings, [notification_id], transport)[notification_id]


def deliver_many(engine: Engine, settings, notification_ids: Sequence[int], transport) -> dict[int, str]:
    """`deliver` for a batch: the rows owed, due and free are claimed in one statement,
    then each is composed, sent and marked on its own, so that one row's failure
    neither loses nor sends again any other. What happened to each id, as `deliver`
    says it."""
    claimed, preferences = _claim(engine, settings, notification_ids)
    outcomes = _not_claimed(engine, [i for i in notification_ids if i not in claimed])
    for notification_id in notification_ids:
        if notification_id not in outcomes:  # an id given twice is sent once
            outcomes[notification_id] = _attempt(engine, settings, claimed[notification_id],
                                                 preferences.get(notification_id), transport)
    return outcomes


def _attempt(engine: Engine, settings, row: Notification, preferences: Preferences | None, transport) -> str:
    """Compose and send one claimed row (as its claim returned it); mark it sent only
    once the transport accepted it, in a transaction of its own."""
    notification_id = cast(int, row.id)  # a row read from the table has its id
    try:
        with transaction(engine) as db:
            db.add(row)  # the claim's copy, up to date: not read again
            if not wanted(db, row, preferences):
                row.sent_at, row.claimed_until = utcnow(), None
                row.payload = {**row.payload, "skipped": True}
                return "skipped"
            mail = compose(db, settings, row)
            message = build_message(mail)
        transport.send(message, mail.envelope_from)  # raises unless accepted
    except Exception as err:  # noqa: BLE001  (every failure is recorded on the row)
        return _failed(engine, settings, notification_id, err)
    with engine.begin() as connection:
        connection.execute(_MARK_SENT, {"sent_id": notification_id, "sent_now": utcnow()})
    return "sent"


_MARK_SENT = update(_OUTBOX).where(_ROW.id == bindparam("sent_id")).values(
    sent_at=bindparam("sent_now"), claimed_until=None)


def _claim(engine: Engine, settings,
           notification_ids: Sequence[int]) -> tuple[dict[int, Notification], dict[int, Preferences]]:
    """Take the rows owed, due and held by no other delivery for one attempt each,
    counted before anything can fail: in one conditional UPDATE, so two deliveries of
    the same row never run at once. The rows taken, by id, as the UPDATE left them,
    and their players' preferences, read in the same transaction."""
    now = utcnow()
    claim = update(Notification).where(
        _ROW.id.in_(notification_ids), _ROW.sent_at.is_(None), _ROW.dead_at.is_(None),
        or_(_ROW.claimed_until.is_(None), _ROW.claimed_until < now),
        or_(_ROW.next_attempt_at.is_(None), _ROW.next_attempt_at <= now),
    ).values(attempts=_ROW.attempts + 1,
             claimed_until=now + timedelta(seconds=settings.mail_claim_seconds)).returning(Notification)
    with transaction(engine) as db:
        rows = db.scalars(claim, execution_options={"synchronize_session": False}).all()
        db.expunge_all()
        preferences = preferences_of(db, rows)
    return {row.id: row for row in rows if row.id is not None}, preferences


def _not_claimed(engine: Engine, notification_ids: list[int]) -> dict[int, str]:
    """Why each of these rows was not taken: missing, already_sent, dead, in_flight or not_due."""
    if not notification_ids:
        return {}
    now = utcnow()
    with engine.begin() as connection:
        found = {row.id: row for row in connection.execute(select(
            _ROW.id, _ROW.sent_at, _ROW.dead_at, _ROW.claimed_until).where(
            _ROW.id.in_(notification_ids)))}
    outcomes = {}
    for notification_id in notification_ids:
        row = found.get(notification_id)
        if row is None:
            outcomes[notification_id] = "missing"
        elif row.sent_at is not None:
            outcomes[notification_id] = "already_sent"
        elif row.dead_at is not None:
            outcomes[notification_id] = "dead"
        else:
            held = row.claimed_until is not None and aware(row.claimed_until) >= now
            outcomes[notification_id] = "in_flight" if held else "not_due"
    return outcomes



def is_permanent(err: Exception) -> bool:
    """A failure that no retry can mend: the server refused for good (5xx), or the
    message cannot be built (an address or text that cannot be encoded)."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in err.recipients.values())
    if isinstance(err, smtplib.SMTPResponseException):
        return err.smtp_code >= 500
    return isinstance(err, (ValueError, UnicodeError))


# Enhanced status codes (RFC 3463) that blame the address itself: 5.1.x (no such
# mailbox, bad domain) and 5.2.1 (mailbox disabled). A 5.7.x (policy) or 5.3.4 (too
# big) refusal says nothing about the address, so it only kills the row.
_ADDRESS_STATUS = re.compile(r"\s*5\.(1\.\d+|2\.1)\b")


def refuses_address(err: Exception) -> bool:
    """Whether the relay refused the recipient's address for good: 5xx to RCPT, or a
    later 5xx whose enhanced status blames the address (as a bounce would report)."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return bool(err.recipients) and all(code >= 500 for code, _ in err.recipients.values())
    if isinstance(err, smtplib.SMTPResponseException) and not isinstance(err, smtplib.SMTPSenderRefused):
        text = err.smtp_error.decode("utf-8", "replace") if isinstance(err.smtp_error, bytes) else str(err.smtp_error)
        return err.smtp_code >= 500 and bool(_ADDRESS_STATUS.match(text))
    return False


def retry_delay(settings, attempts: int) -> float:
    """Seconds to wait after the `attempts`-th attempt failed for now."""
    return min(settings.mail_retry_seconds * 2 ** (attempts - 1), settings.mail_retry_max_seconds)


def _failed(engine: Engine, settings, notification_id: int, err: Exception) -> str:
    with transaction(engine) as db:
        row = db.get(Notification, notification_id)
        assert row is not None, "the row was claimed for this delivery"
        row.claimed_until, row.last_error = None, f"{type(err).__name__}: {err}"[:300]
        if is_permanent(err) or row.attempts >= settings.mail_max_attempts:
            row.dead_at = utcnow()
            if refuses_address(err):  # as a delivery report would: no more mail is tried to it
                mark_bouncing(db, row.email)
            log.error("notification %s is dead after %s attempts: %s", notification_id, row.attempts, row.last_error)
            return "dead"
        row.next_attempt_at = utcnow() + timedelta(seconds=retry_delay(settings, row.attempts))
        log.warning("notification %s failed (attempt %s), next at %s: %s",
                    notification_id, row.attempts, row.next_attempt_at, row.last_error)
        return "retry"


def mark_bouncing(db, email: str) -> None:
    """No more game email goes to `email` until its player says it works again."""
    user = db.exec(select(User).where(User.email == email)).first()
    if user is not None and user.bouncing_since is None:
        user.bouncing_since = utcnow()


def unsent_ids(engine: Engine, older_than_seconds: float = 60, batch: int = 1000) -> Iterator[int]:
    """Rows owed and due that no delivery holds: never tried a while after they were
    written (their task was lost: a crash, a broker outage), or due for a retry. All
    of them, a batch per transaction, oldest first; re-sending one whose task is merely
    late costs one lookup, since `deliver` skips rows sent, held or not yet due."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    after = 0
    while True:
        with transaction(engine) as db:
            ids = cast(list[int], list(db.exec(select(Notification.id).where(  # primary keys: never None
                col(Notification.sent_at).is_(None), col(Notification.dead_at).is_(None), col(Notification.id) > after,
                or_(col(Notification.claimed_until).is_(None), col(Notification.claimed_until) < now),
                or_(and_(col(Notification.next_attempt_at).is_(None), col(Notification.created_at) < cutoff),
                    col(Notification.next_attempt_at) <= now),
            ).order_by(col(Notification.id)).limit(batch))))
        yield from ids
        if len(ids) < batch:
            return
        after = ids[-1]
