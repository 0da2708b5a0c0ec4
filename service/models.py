"""The tables. The game's snapshot and its append-only move log are the truth about
play; notifications (the outbox) and deadlines are the work owed to players."""
from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import JSON, BigInteger, Column, Date, DateTime, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite gives back the times it keeps without it,
    and they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _when(nullable: bool = False, **kw):
    return Field(sa_column=Column(DateTime(timezone=True), nullable=nullable, **kw))


class User(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(index=True, unique=True, max_length=254)
    name: str = Field(default="", max_length=80)
    timezone: str = Field(default="UTC", max_length=64)
    email_mode: str = Field(default="every", max_length=10)  # every | digest | off
    created_at: datetime = _when(default=utcnow)
    bouncing_since: datetime | None = _when(nullable=True)  # mail to it failed for good: none is sent
    talk_mail: str = Field(default="next", max_length=12)  # table talk by email: immediately | next | never


class ApiToken(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    label: str = Field(default="", max_length=80)
    token_hash: str = Field(index=True, unique=True, max_length=64)
    created_at: datetime = _when(default=utcnow)
    revoked_at: datetime | None = _when(nullable=True)


class WebSession(SQLModel, table=True):
    """A signed-in browser. The cookie holds the secret; only its SHA-256 is stored,
    and signing out revokes the row, so a copied cookie stops working too."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    token_hash: str = Field(index=True, unique=True, max_length=64)
    created_at: datetime = _when(default=utcnow)
    revoked_at: datetime | None = _when(nullable=True)


class SignInLink(SQLModel, table=True):
    """A magic link for an address: marked when used, so it works once. The user is
    created (if new) only when the link is used."""

    nonce: str = Field(primary_key=True, max_length=64)
    user_id: int | None = Field(default=None, foreign_key="user.id")  # links written before the address was kept
    email: str | None = Field(default=None, max_length=254)
    created_at: datetime = _when(default=utcnow)
    used_at: datetime | None = _when(nullable=True)


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_type: str = Field(max_length=32)
    title: str = Field(default="", max_length=120)
    options: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    players: int
    status: str = Field(default="open", max_length=12)  # open | active | finished | abandoned
    seat_order: str = Field(default="fixed", max_length=8)  # fixed | random
    spectators: bool = False
    time_control: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    timeout_policy: str = Field(default="bot", max_length=16)
    rated: bool = False  # between people only; its end updates the players' ratings (service/ratings.py)
    creator_id: int = Field(foreign_key="user.id")
    version: int = 1
    move_count: int = 0  # moves in the log, so the last one's seq (the log is not read to append)
    seed: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    seed_hash: str | None = Field(default=None, max_length=64)
    state: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    result: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = _when(default=utcnow)
    started_at: datetime | None = _when(nullable=True)
    finished_at: datetime | None = _when(nullable=True)
    open_seats: int = Field(default=0, index=True)  # seats anyone may still join, before the start
    rematch_id: int | None = Field(default=None, foreign_key="game.id")  # the game started again from this ended one


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "email"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: int | None = None  # assigned at start
    email: str = Field(max_length=254)
    user_id: int | None = Field(default=None, foreign_key="user.id", index=True)
    status: str = Field(default="invited", max_length=10)  # invited | accepted | declined
    bot: str | None = Field(default=None, max_length=10)  # a bot's kind plays the seat; no user, no email
    resigned: bool = False
    abandon_vote: bool = False
    email_mode: str | None = Field(default=None, max_length=10)  # per game; None: the user's
    bank_seconds: float = 0.0
    decision_started_at: datetime | None = _when(nullable=True)
    last_seen_seq: int = 0  # move log position of this seat's last decision email
    # The game's version when the seat's current decision began (it newly owed one, its
    # kind changed or the moves open to it changed): a move sent for any version since
    # is about this decision, however often the others moved meanwhile.
    decision_version: int | None = None
    table_muted: bool = False  # the player muted the table: no table talk reaches him by email or on the page


class Move(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    seat: int
    move: dict = Field(sa_column=Column(JSON, nullable=False))
    events: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    by_service: bool = False
    created_at: datetime = _when(default=utcnow)


class Notification(SQLModel, table=True):
    """The outbox: an email owed. Marked sent only after the SMTP server accepted it.
    A delivery claims the row until `claimed_until`, so one is in flight at a time; a
    temporary failure sets `next_attempt_at`; a permanent one, or too many attempts,
    sets `dead_at` with `last_error`, and the row is not tried again."""

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=20)
    email: str = Field(max_length=254)
    user_id: int | None = Field(default=None, foreign_key="user.id")
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    seat: int | None = None
    payload: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    message_id: str = Field(unique=True, max_length=120)
    created_at: datetime = _when(default=utcnow)
    sent_at: datetime | None = _when(nullable=True, index=True)
    attempts: int = 0
    claimed_until: datetime | None = _when(nullable=True)
    next_attempt_at: datetime | None = _when(nullable=True)
    dead_at: datetime | None = _when(nullable=True)
    last_error: str | None = Field(default=None, max_length=300)


class InboundMessage(SQLModel, table=True):
    """A received message's bytes, kept once however many of our addresses it came to."""

    __tablename__ = "inbound_message"

    id: int | None = Field(default=None, primary_key=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    received_at: datetime = _when(default=utcnow)


class InboundMail(SQLModel, table=True):
    """A received message for one reply address, kept (its bytes in `inbound_message`)
    before the SMTP server (or the HTTP endpoint) says it was accepted; processed
    afterwards, once. `queued_at` is when it was last handed to a worker, so the
    inbound sweep hands on only what was lost."""

    __tablename__ = "inbound_mail"

    id: int | None = Field(default=None, primary_key=True)
    message_key: str = Field(unique=True, max_length=250)  # its Message-ID, else a hash of it
    recipient: str = Field(max_length=320)  # the envelope recipient (our address)
    envelope_from: str = Field(default="", max_length=320)  # "<>" for the null sender
    inbound_message_id: int = Field(foreign_key="inbound_message.id", index=True)
    received_at: datetime = _when(default=utcnow)
    queued_at: datetime | None = _when(nullable=True)
    processed_at: datetime | None = _when(nullable=True, index=True)
    outcome: str | None = Field(default=None, max_length=20)  # applied | refused | ignored | ...
    detail: str = Field(default="", max_length=2000)


class Deadline(SQLModel, table=True):
    """A reminder or timeout due for a seat's current decision (the truth; Redis
    mirrors the pending ones)."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: int
    kind: str = Field(max_length=10)  # reminder | timeout | bot (a bot seat's turn, due at once)
    due_at: datetime = _when()
    created_at: datetime = _when(default=utcnow)
    done_at: datetime | None = _when(nullable=True, index=True)  # fired or cancelled
    outcome: str | None = Field(default=None, max_length=12)  # fired | cancelled


class Absence(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    first_day: date = Field(sa_column=Column(Date, nullable=False))
    last_day: date = Field(sa_column=Column(Date, nullable=False))


class TableMessage(SQLModel, table=True):
    """A message a player wrote to the table: only the text he typed, who and when;
    never anything the engine knows."""

    __tablename__ = "table_message"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat_id: int = Field(foreign_key="seat.id")
    text: str = Field(max_length=1000)
    via: str = Field(max_length=8)  # page | api | email
    created_at: datetime = _when(default=utcnow, index=True)


class SeatNote(SQLModel, table=True):
    """A seat's private notes on its game, shown to that seat alone."""

    __tablename__ = "seat_note"

    seat_id: int = Field(foreign_key="seat.id", primary_key=True)
    text: str = Field(default="", max_length=10000)
    updated_at: datetime = _when(default=utcnow)


class WebhookToken(SQLModel, table=True):
    """A provider's signed token already accepted (Mailgun's `token`), kept while its
    timestamp is fresh enough to pass the signature's age check, so a captured post
    cannot be sent again."""

    __tablename__ = "webhook_token"

    token: str = Field(primary_key=True, max_length=200)
    signed_at: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))  # the signature's Unix time
class Rating(SQLModel, table=True):
    """A player's skill at one game: the Plackett-Luce model's belief (mean `mu`,
    uncertainty `sigma`) after `games` rated games."""

    __table_args__ = (UniqueConstraint("user_id", "game_type"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    game_type: str = Field(max_length=32, index=True)
    mu: float
    sigma: float
    games: int = 0
    updated_at: datetime = _when(default=utcnow)
