"""A provider's signed webhook token is accepted once: its signature covers only a
timestamp and a token, so anyone who saw one post could send it again within the age
the signature check allows. Used tokens are kept in the database (the embedded SQLite
default as well as PostgreSQL) until their timestamp is too old to pass that check."""
from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from service.db import transaction
from service.models import WebhookToken


def use_once(engine, token: str, signed_at: int, now: float, max_age_seconds: int) -> bool:
    """Record `token` as used; False if it was used already. Tokens whose timestamp
    is more than `max_age_seconds` old are pruned first: a post carrying one is
    refused by its age alone."""
    try:
        with transaction(engine) as db:
            db.exec(delete(WebhookToken).where(col(WebhookToken.signed_at) < int(now) - max_age_seconds))
            db.add(WebhookToken(token=token, signed_at=signed_at))
            db.flush()
        return True
    except IntegrityError:  # the primary key: the same token, now or at the same moment elsewhere
        return False


def forget(engine, token: str) -> None:
    """Make `token` usable again: the post that carried it was not stored, so the
    provider's retry of it must be accepted."""
    with transaction(engine) as db:
        db.exec(delete(WebhookToken).where(col(WebhookToken.token) == token))
