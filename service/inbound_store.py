"""Keeping received mail: a message's bytes are stored once, with a row for each of
our addresses it came to, before the SMTP server or the HTTP endpoint says it was
accepted, so nothing accepted is lost. Processing (workers.inbound) happens afterwards
and is retried until done; the inbound sweep hands on only what was lost."""
from __future__ import annotations

import hashlib
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import cast

from sqlalchemy import or_
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select, update

from service.db import transaction
from service.models import InboundMail, InboundMessage, utcnow


def _origin(raw: bytes) -> str:
    """What makes a message the same one when it comes again: its Message-ID, or,
    without one, its bytes."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw[:_HEADER_BYTES])
    message_id = " ".join(str(headers.get("Message-ID", "") or "").split())
    return message_id[:180] if message_id else "sha256:" + hashlib.sha256(raw).hexdigest()


# The Message-ID is looked for this far into the message (the header block of any
# real message ends long before).
_HEADER_BYTES = 256 * 1024


def _key(origin: str, recipient: str) -> str:
    """The message's origin and the address it came to."""
    return f"{origin} {recipient.strip().lower()}"[:250]


def store_message(engine, raw: bytes, recipients: list[str], envelope_from: str = "") -> list[int]:
    """The ids of the new rows, one per recipient the message had not already come
    for; the bytes are stored once (not at all when every recipient had it)."""
    origin = _origin(raw)
    keys = {_key(origin, recipient): recipient.strip()[:320] for recipient in recipients}
    for attempt in (1, 2):
        try:
            with transaction(engine) as db:
                known = set(db.exec(select(col(InboundMail.message_key))
                                    .where(col(InboundMail.message_key).in_(list(keys)))))
                fresh = [(key, recipient) for key, recipient in keys.items() if key not in known]
                if not fresh:
                    return []
                message = InboundMessage(raw=raw)
                db.add(message)
                db.flush()
                assert message.id is not None, "flushed"
                now = utcnow()  # handed on right after the commit; the sweep takes it if that fails
                sender = (envelope_from or "").strip()[:320]
                rows = [InboundMail(message_key=key, recipient=recipient, envelope_from=sender,
                                    inbound_message_id=message.id, queued_at=now) for key, recipient in fresh]
                db.add_all(rows)
                db.flush()
                return cast(list[int], [row.id for row in rows])  # flushed: ids set
        except IntegrityError:  # the same message came at the same moment by another connection
            if attempt == 2:
                raise
    return []


def store(engine, raw: bytes, recipient: str, envelope_from: str = "") -> int | None:
    """The new row's id, or None if this message had already come for `recipient`."""
    ids = store_message(engine, raw, [recipient], envelope_from)
    return ids[0] if ids else None


def raw_of(db, row: InboundMail) -> bytes:
    return db.get(InboundMessage, row.inbound_message_id).raw


def claim_lost(engine, older_than_seconds: float = 60, batch: int = 1000) -> list[int]:
    """Messages still unprocessed a while after they were last handed to a worker (its
    task was lost), each marked as handed on now, so that the next sweep does not take
    it again. Called only when the inbound queue is empty: before that, a message may
    merely be waiting its turn."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    with transaction(engine) as db:
        ids = cast(list[int], list(db.exec(select(InboundMail.id).where(  # ids: never None
            col(InboundMail.processed_at).is_(None),
            or_(col(InboundMail.queued_at).is_(None), col(InboundMail.queued_at) < cutoff),
        ).order_by(col(InboundMail.id)).limit(batch).with_for_update(skip_locked=True))))
        if ids:
            db.exec(update(InboundMail).where(col(InboundMail.id).in_(ids)).values(queued_at=now))
    return ids
