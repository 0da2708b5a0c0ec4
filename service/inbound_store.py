"""Keeping received mail: a message is stored raw, once per recipient, before the
SMTP server or the HTTP endpoint says it was accepted, so nothing accepted is lost.
Processing (workers.inbound) happens afterwards and is retried until done."""
from __future__ import annotations

import hashlib
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from service.db import transaction
from service.models import InboundMail, utcnow


def message_key(raw: bytes, recipient: str) -> str:
    """What makes a message the same one when it comes again: its Message-ID (or,
    without one, its bytes) and the address it came to."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw)
    message_id = " ".join(str(headers.get("Message-ID", "") or "").split())
    origin = message_id[:180] if message_id else "sha256:" + hashlib.sha256(raw).hexdigest()
    return f"{origin} {recipient.strip().lower()}"[:250]


def store(engine, raw: bytes, recipient: str, envelope_from: str = "") -> int | None:
    """The new row's id, or None if this message had already come for `recipient`."""
    try:
        with transaction(engine) as db:
            row = InboundMail(message_key=message_key(raw, recipient), recipient=recipient.strip()[:320],
                              envelope_from=(envelope_from or "").strip()[:320], raw=raw)
            db.add(row)
            db.flush()
            return row.id
    except IntegrityError:
        return None


def unprocessed_ids(engine, older_than_seconds: float = 60) -> list[int]:
    """Messages still waiting a while after they came (their task was lost)."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    with transaction(engine) as db:
        return list(db.exec(select(InboundMail.id).where(
            InboundMail.processed_at.is_(None), InboundMail.received_at < cutoff).order_by(InboundMail.id).limit(1000)))
