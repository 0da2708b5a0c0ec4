"""Table talk and private notes: the use cases, one transaction each.

A message is only what a player typed, with his seat and the time: nothing from the
engine goes into it, so it can carry no other seat's hidden information. Messages do
not change the game's state, so writing one needs no game version and bumps none
(a player may talk while another moves). Players seated in the game write; anyone who
may see the game (spectators too) reads. By email a message reaches the others as
each chose (`User.talk_mail`): at once, with their next decision email or digest, or
never; a seat that muted the table gets none.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from service import play
from service.errors import Forbidden, Invalid
from service.models import Game, Seat, SeatNote, TableMessage, User, utcnow
from service.rows import TABLE_MESSAGE

MAX_MESSAGE_CHARS = 1000
MAX_NOTE_CHARS = 10000
TALK_MAIL_MODES = ("immediately", "next", "never")
VIAS = ("page", "api", "email")


def checked_text(text, limit: int, what: str, empty_ok: bool = False) -> str:
    """The text without surrounding blanks, refused when empty (unless allowed), too
    long, or holding control characters other than line breaks and tabs (which no
    page or email shows as typed)."""
    if not isinstance(text, str):
        raise Invalid(f"{what} is text", code="bad_text")
    text = text.replace("\r\n", "\n").strip()
    if not text and not empty_ok:
        raise Invalid(f"{what} is empty; write 1 to {limit} characters", code="empty_text")
    if len(text) > limit:
        raise Invalid(f"{what} is {len(text)} characters long; at most {limit} are allowed", code="text_too_long")
    if any(unicodedata.category(char) == "Cc" and char not in "\n\t" for char in text):
        raise Invalid(f"{what} may not hold control characters (only line breaks and tabs)", code="bad_text")
    return text


def _seat_for_reading(db: Session, game: play.GameLike, user: User | None) -> Seat | None:
    """The reader's seat, or None for a spectator; Forbidden when the game has none."""
    seat = play.seat_of_user(db, game, user)
    if seat is None and not game.spectators:
        raise Forbidden("this game has no spectators", code="no_spectators")
    return seat


def _writer_seat(db: Session, game: play.GameLike, user: User | None) -> Seat:
    seat = play.seat_of_user(db, game, user)
    if seat is None or seat.status != "accepted" or seat.bot is not None:
        raise Forbidden("only the game's players write to the table; spectators read it", code="not_a_player")
    return seat


def display_name(user, seat) -> str:
    return user.name if user is not None and user.name else seat.email.split("@")[0]


def say(db: Session, game_id: int, user: User, text, via: str, game: play.GameLike | None = None
        ) -> tuple[TableMessage, play.Work]:
    """A player's message to the table; emails owed at once to those who chose so.
    `game`: the game when the caller has it already (read locked, by an emailed reply)."""
    game = game or play.load_game(db, game_id)
    seat = _writer_seat(db, game, user)
    assert game.id is not None and seat.id is not None, "stored rows"
    message = TableMessage(game_id=game.id, seat_id=seat.id, text=checked_text(text, MAX_MESSAGE_CHARS, "a message"),
                           via=via)
    db.add(message)
    db.flush()
    work = play.Work()
    for other in immediate_readers(db, game, exclude_seat_id=seat.id):
        play.notify(db, work, "table_talk", other.email, other.user_id, game, other.seat,
                    {"message_id": message.id, "version": game.version})
    return message, work


def _talk_preferences(db: Session, user_ids: list[int]) -> dict[int, tuple[str, str, datetime | None]]:
    """Each user's (talk_mail, email_mode, bouncing_since)."""
    if not user_ids:
        return {}
    found = db.exec(select(col(User.id), col(User.talk_mail), col(User.email_mode), col(User.bouncing_since))
                    .where(col(User.id).in_(user_ids)))
    return {user_id: (talk_mail, email_mode, bouncing_since)
            for user_id, talk_mail, email_mode, bouncing_since in found if user_id is not None}


def immediate_readers(db: Session, game: play.GameLike, exclude_seat_id: int) -> list[Seat]:
    """The seats that get a message by email at once: players (no bots) who chose so,
    did not mute the table, take game email and whose address does not bounce."""
    seats = [s for s in play.seats_of(db, game)
             if s.id != exclude_seat_id and s.status == "accepted" and s.bot is None and s.user_id is not None
             and not s.table_muted]
    preferences = _talk_preferences(db, [s.user_id for s in seats if s.user_id is not None])
    return [s for s in seats if s.user_id is not None and _mails_talk(preferences.get(s.user_id), s, "immediately")]


def _mails_talk(preference, seat, mode: str) -> bool:
    if preference is None:
        return False
    talk_mail, email_mode, bouncing_since = preference
    return talk_mail == mode and (seat.email_mode or email_mode) != "off" and bouncing_since is None


def wants_talk_mail(db: Session, seat: Seat, mode: str, user: User | None = None) -> bool:
    """Whether the seat's player takes table talk by email in `mode` now (checked
    again when an email is composed: he may have changed his mind since). `user`: the
    seat's user as this transaction read it already (with the seats), else read here."""
    if seat is None or seat.table_muted or seat.user_id is None:
        return False
    if user is not None and user.id == seat.user_id:
        return _mails_talk((user.talk_mail, user.email_mode, user.bouncing_since), seat, mode)
    return _mails_talk(_talk_preferences(db, [seat.user_id]).get(seat.user_id), seat, mode)


def message_dicts(db: Session, game: Game, messages: Sequence[TableMessage | Row]) -> list[dict]:
    seats = {s.id: s for s in play.seats_of(db, game)}
    users = play.users_of(db, game)
    return [{"id": m.id, "seat": seats[m.seat_id].seat, "name": display_name(users.get(seats[m.seat_id].user_id),
                                                                               seats[m.seat_id]),
             "text": m.text, "via": m.via, "created_at": m.created_at} for m in messages]


_MESSAGE = TABLE_MESSAGE.c


def messages_of(db: Session, game: Game, after_id: int = 0, since: datetime | None = None,
                upto: datetime | None = None, not_seat_id: int | None = None) -> list[dict]:
    """The game's messages, oldest first: after a message id, in a time window, and
    without one seat's own. Read as plain rows (every decision email asks, and most
    find none: the ORM's objects cost more than the query)."""
    query = core_select(_MESSAGE.id, _MESSAGE.seat_id, _MESSAGE.text, _MESSAGE.via, _MESSAGE.created_at).where(
        _MESSAGE.game_id == game.id, _MESSAGE.id > after_id)
    if since is not None:
        query = query.where(_MESSAGE.created_at > since)
    if upto is not None:
        query = query.where(_MESSAGE.created_at <= upto)
    if not_seat_id is not None:
        query = query.where(_MESSAGE.seat_id != not_seat_id)
    return message_dicts(db, game, db.execute(query.order_by(_MESSAGE.id)).all())


def table_for(db: Session, game_id: int, user: User | None, after_id: int = 0) -> dict:
    """The table as the reader sees it: the messages, whether he may write and whether
    he muted it (the API still lists the messages of a muted table when asked)."""
    game = play.load_game(db, game_id)
    seat = _seat_for_reading(db, game, user)
    may_write = seat is not None and seat.status == "accepted" and seat.bot is None
    return {"messages": messages_of(db, game, after_id), "can_write": may_write,
            "muted": bool(seat is not None and seat.table_muted)}


def set_muted(db: Session, game_id: int, user: User, muted: bool) -> Seat:
    game = play.load_game(db, game_id)
    seat = _writer_seat(db, game, user)
    stored = db.get(Seat, seat.id)
    assert stored is not None, "the writer's seat"
    stored.table_muted = bool(muted)
    return seat


def set_talk_mail(db: Session, user: User, mode) -> None:
    if mode not in TALK_MAIL_MODES:
        raise Invalid(f"table talk by email is one of {', '.join(TALK_MAIL_MODES)}, not {mode!r}",
                      code="bad_talk_mail")
    stored = db.get(User, user.id)
    assert stored is not None, "a signed-in user"
    stored.talk_mail = mode


# --- private notes ----------------------------------------------------------------

def _note_seat(db: Session, game_id: int, user: User) -> Seat:
    game = play.load_game(db, game_id)
    seat = play.seat_of_user(db, game, user)
    if seat is None or seat.bot is not None:
        raise Forbidden("only the game's players keep notes on it", code="not_a_player")
    return seat


def note_of(db: Session, game_id: int, user: User) -> dict:
    """The caller's own notes on the game (empty when he wrote none)."""
    seat = _note_seat(db, game_id, user)
    note = db.get(SeatNote, seat.id)
    return {"text": note.text if note else "", "updated_at": note.updated_at if note else None}


def save_note(db: Session, game_id: int, user: User, text) -> dict:
    seat = _note_seat(db, game_id, user)
    text = checked_text(text, MAX_NOTE_CHARS, "a note", empty_ok=True)
    assert seat.id is not None, "a stored seat"
    note = db.get(SeatNote, seat.id) or SeatNote(seat_id=seat.id)
    note.text, note.updated_at = text, utcnow()
    db.add(note)
    return {"text": note.text, "updated_at": note.updated_at}
