"""Request plumbing shared by the API and the pages: the database, who is asking,
running a use case in one transaction and handing its work to the workers after
the commit."""
from __future__ import annotations

from datetime import datetime

from flask import current_app, request, session
from flask_wtf.csrf import validate_csrf
from sqlalchemy import bindparam, select
from sqlmodel import Session
from wtforms import ValidationError

from service import rows, tasks
from service.auth import user_for_api_token, user_for_session
from service.db import transaction
from service.errors import Unauthorized
from service.models import Game, Seat, User
from service.play import Work, game_state, rules, seats_of, users_of
from service.ratings import ordinal, ordinals_for

# For answers that show a secret (a new API token, a page that holds a live sign-in
# link): no browser or proxy cache keeps a copy.
NO_STORE = {"Cache-Control": "no-store"}


def settings():
    return current_app.extensions["turnpost"]["settings"]


def invitation_limits():
    from service.play import InvitationLimits

    return InvitationLimits(settings().invitations_per_sender, settings().invitations_per_recipient,
                            settings().bot_games_per_user)


def db_engine():
    return current_app.extensions["turnpost"]["database"]


def run(usecase, *args, **kwargs):
    """Run a use case in its own transaction and hand its work on: announced to the
    outbox relay in the transaction, or else handed to the dispatcher after the commit.
    The use case returns a tuple whose last item is its Work."""
    channel = tasks.relayed(current_app)
    with transaction(db_engine()) as db:
        result = usecase(db, *args, **kwargs)
        work = result[-1] if isinstance(result, tuple) else None
        if channel is not None and isinstance(work, Work):
            rows.write(db)  # the ids to announce
            tasks.announce(db, channel, *work.ids)
    if channel is None and isinstance(work, Work):
        tasks.after_commit(current_app, *work.ids)
    return result


def current_user(db: Session, required: bool = True) -> User | None:
    """The user named by a bearer token or else by the session. A browser sends its
    cookie along with any request another site makes it send, so an API call that
    changes something on the strength of the cookie must carry the CSRF token of one of
    our pages (header X-CSRFToken); pages' forms carry it and are checked before."""
    header = request.headers.get("Authorization", "")
    user = None
    if header:
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise Unauthorized("use 'Authorization: Bearer <token>'", code="bad_token")
        user = user_for_api_token(db, secret.strip())
    elif session.get("sid"):
        _check_api_csrf()
        user = user_for_session(db, session["sid"])
    if user is None and required:
        raise Unauthorized("sign in or send an API token", code="unauthorized")
    return user


def _check_api_csrf() -> None:
    if not request.path.startswith("/api/") or request.method in ("GET", "HEAD", "OPTIONS"):
        return
    try:
        validate_csrf(request.headers.get("X-CSRFToken", ""))
    except ValidationError:
        raise Unauthorized("an API call signed in by the session cookie needs the page's CSRF token in the "
                           "X-CSRFToken header; or send 'Authorization: Bearer <token>'", code="csrf_missing") from None


_DEADLINE = rows.DEADLINE.c
_OPEN_TIMEOUTS = select(_DEADLINE.seat, _DEADLINE.due_at).where(
    _DEADLINE.game_id == bindparam("game_id"), _DEADLINE.kind == "timeout", _DEADLINE.done_at.is_(None))


def present_game(db: Session, game: Game, user: User | None) -> dict:
    """The game as `user` may see it: his own view, or the spectator's."""
    seats = seats_of(db, game)
    mine = next((s for s in seats if user is not None and s.user_id == user.id and s.status != "declined"), None)
    users = users_of(db, game)  # read with the seats
    playing = mine is not None and mine.seat is not None
    deadlines: dict[int | None, datetime] = dict(db.connection().execute(_OPEN_TIMEOUTS, {"game_id": game.id}).all())
    shown_ratings = _shown_ratings(db, game, seats, users)
    data = {
        "id": game.id, "game_type": game.game_type, "title": game.title, "status": game.status,
        "version": game.version, "options": game.options, "time_control": game.time_control,
        "timeout_policy": game.timeout_policy, "rated": game.rated, "seat_order": game.seat_order,
        "spectators": game.spectators, "your_seat": mine.seat if mine else None,
        "seed_hash": game.seed_hash, "result": game.result, "created_at": game.created_at,
        "started_at": game.started_at, "finished_at": game.finished_at,
        "seed": str(game.seed) if game.status in ("finished", "abandoned") and game.seed is not None else None,
        "player_list": [
            {
                "seat": s.seat, "name": _display_name(users.get(s.user_id), s), "status": s.status,
                "resigned": s.resigned,
                "bot": s.bot, "email": s.email if mine is not None and s.bot is None else None,
                "deadline": deadlines.get(s.seat), "player": s.user_id,
                "rating": shown_ratings.get(s.user_id) if s.user_id is not None else None,
            }
            for s in sorted(seats, key=lambda s: (s.seat is None, s.seat, s.id))
        ],
        "pending": None, "view": None, "open_seats": game.open_seats, "rematch_id": game.rematch_id,
    }
    if game.state is not None and (playing or game.spectators or game.status != "active"):
        state = game_state(game)
        data["pending"] = {str(k): v for k, v in rules(game).pending(state).items()}
        data["view"] = rules(game).view(state, mine.seat if mine is not None else None)
    return data


def _shown_ratings(db: Session, game: Game, seats: list, users: dict) -> dict[int, int]:
    """The seats' players' ratings at the game: as read with the locked game while it
    is active (a rating changes only when a game ends), else read now."""
    if game.status == "active" and users and all(isinstance(user, rows.UserRow) for user in users.values()):
        return {user_id: ordinal(*user.rating) for user_id, user in users.items() if user.rating is not None}
    return ordinals_for(db, game.game_type, [s.user_id for s in seats if s.user_id is not None])


def _display_name(user: User | None, seat: Seat) -> str:
    return user.name if user and user.name else seat.email.split("@")[0]
