"""The daily digest: one email per player who chose it, listing his active games,
those waiting on him first, with what happened in each since yesterday."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import col, select

import engine
from service import rows
from service.db import transaction
from service.models import Game, Move, Notification, Seat, User
from service.play import Work, game_state, notify, rules
from service.table_talk import messages_of, wants_talk_mail
from workers.compose import names_of


def write_digests(database: Engine, base_url: str, now: datetime) -> Work:
    """Outbox rows for today's digests (one per user per day: the Message-ID says so)."""
    work = Work()
    with transaction(database) as db:
        users = db.exec(select(User).where(User.email_mode == "digest"))
        for user in users:
            message_id = f"<digest-{user.id}-{now:%Y%m%d}@turnpost>"
            if db.exec(select(Notification).where(Notification.message_id == message_id)).first():
                continue  # today's digest is already written
            games = _games_of(db, user, base_url, now - timedelta(days=1))
            if games:
                row = notify(db, work, "digest", user.email, user.id, payload={"games": games})
                row.message_id = message_id
        rows.write(db)
    return work


def _games_of(db, user: User, base_url: str, since: datetime) -> list[dict]:
    found = []
    for seat in db.exec(select(Seat).where(Seat.user_id == user.id, Seat.status == "accepted")):
        game = db.get(Game, seat.game_id)
        if game.status != "active":
            continue
        game_rules, state = rules(game), game_state(game)
        names = names_of(db, game)
        moves = db.exec(select(Move).where(col(Move.game_id) == game.id, col(Move.created_at) >= since)
                        .order_by(col(Move.seq)))
        changes = [line for m in moves for e in engine.events_for(m.events, seat.seat)
                   if (line := game_rules.describe_event(e, names))]
        found.append({"game_id": game.id, "title": game.title, "url": f"{base_url}/games/{game.id}",
                      "waiting": seat.seat in game_rules.pending(state), "deadline": None, "changes": changes[-10:],
                      "talk": _talk_since(db, game, seat, since)})
    found.sort(key=lambda g: not g["waiting"])
    return found


def _talk_since(db, game: Game, seat: Seat, since: datetime) -> list[dict]:
    """The others' table talk since `since`, for a player who takes it with his next
    email and did not mute the table (the last 20 messages; the page has them all)."""
    if not wants_talk_mail(db, seat, "next"):
        return []
    said = messages_of(db, game, since=since, not_seat_id=seat.id)
    return [{"name": m["name"], "text": m["text"]} for m in said[-20:]]
