"""Creating a game and filling its seats: invitations (with their limits), answers to
them, cancelling an open game, and the start once every seat is filled."""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any

from sqlalchemy import func, or_, text
from sqlmodel import Session, col, select

import engine
from service import rows
from service.errors import Conflict, Forbidden, Invalid, TooMany
from service.header_text import header_problem
from service.models import Game, Notification, Seat, User, utcnow
from service.play.deadlines import time_control_args, time_control_of
from service.play.moves import decisions_began, decisions_changed
from service.play.records import (
    TIMEOUT_POLICIES,
    GameLike,
    Work,
    check_version,
    forget_seats,
    load_game,
    notify,
    rules,
    seat_of_user,
    seats_of,
    users_of,
)
from service.time_control import TimeControl


@dataclass(frozen=True)
class InvitationLimits:
    """Invitation emails per 24 hours: sent by one creator, received by one address
    (invitations carry text chosen by their sender, so they must not become a relay);
    and the games with bots one creator may have going at once (open or active: every
    bot turn costs the workers CPU), None for no limit."""

    per_sender: int
    per_recipient: int
    bot_games: int | None = None


def _lock_inviter(db: Session, inviter: User) -> None:
    """Serialise one sender's invitations, so parallel ones cannot all pass the count
    of his invitations: his user row, locked for the transaction (FOR NO KEY UPDATE,
    which rows referring to him still may be written beside; nothing on SQLite, whose
    writers take turns). Taken before the transaction writes any row, so it never waits
    while holding a row another invitation waits for."""
    db.exec(select(User.id).where(User.id == inviter.id).with_for_update(key_share=True)).one()


def _lock_recipients(db: Session, emails: list[str]) -> None:
    """Serialise the invitations to one address from different senders, so parallel
    ones cannot all pass its count: a transaction-scoped advisory lock per address,
    taken in one order (after the sender's lock), so two invitations never wait on each
    other in a circle. Nothing on SQLite, whose writers take turns."""
    from service.auth import address_limit_key

    if db.get_bind().dialect.name != "postgresql":
        return
    for mailbox in sorted({address_limit_key(email) for email in emails}):
        db.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"invitation:{mailbox}"})


def _to_mailbox(email: str):
    """A condition on Notification.email: the address reaches the same mailbox as
    `email` (`service.auth.address_limit_key`: the same address but for a plus tag)."""
    from service.auth import address_limit_key

    local, _, domain = address_limit_key(email).rpartition("@")
    escaped = local.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return or_(col(Notification.email) == f"{local}@{domain}",
               col(Notification.email).like(f"{escaped}+%@{domain}", escape="\\"))


def _check_invitation_limits(db: Session, inviter: User, emails: list[str], limits: InvitationLimits | None) -> None:
    if limits is None or not emails:
        return
    _lock_inviter(db, inviter)
    _lock_recipients(db, emails)
    since = utcnow() - timedelta(days=1)
    invitations = select(func.count(col(Notification.id))).where(
        Notification.kind == "invitation", Notification.created_at > since)
    sent = db.exec(invitations.join(Game, col(Game.id) == Notification.game_id)
                   .where(Game.creator_id == inviter.id)).one()
    if sent + len(emails) > limits.per_sender:
        raise TooMany(f"you may send {limits.per_sender} invitations a day; {sent} were sent in the last 24 hours",
                      code="invitation_limit")
    for email in emails:
        if db.exec(invitations.where(_to_mailbox(email))).one() >= limits.per_recipient:
            raise TooMany(f"{email} has had {limits.per_recipient} invitations in the last 24 hours; "
                          "try again tomorrow", code="invitation_limit")


def create_game(db: Session, creator: User, game_type: str, players: int, options: dict | None = None,
                invite: Sequence[Any] = (), seat_order: str = "fixed", spectators: bool = False,
                time_control: dict | None = None, timeout_policy: str = "bot",
                title: str = "", limits: InvitationLimits | None = None, rated: bool = False,
                open_seats: int = 0) -> tuple[Game, Work]:
    """`invite` lists the other seats: an email each, or {"bot": kind} for a bot;
    `open_seats` more are left for anyone to join (`join`). A game whose seats are
    all filled at once (the creator and bots) starts at once. A `rated` game is
    between people only: its end updates their ratings."""
    from service.auth import normalise_email, user_for_email

    try:
        game_rules = engine.get_game(game_type)
        options = game_rules.validate_options(options or {}, players)
    except engine.EngineError as err:
        raise Invalid(err.message, code=err.code) from None
    try:
        TimeControl(**time_control_args(time_control or {}))
    except (TypeError, ValueError) as err:
        raise Invalid(f"bad time control: {err}", code="bad_time_control") from None
    if timeout_policy not in TIMEOUT_POLICIES:
        raise Invalid(f"timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}", code="bad_timeout_policy")
    if seat_order not in ("fixed", "random"):
        raise Invalid("seat order must be fixed or random", code="bad_seat_order")
    title_problem = header_problem(title)
    if title_problem:  # the title is in the subject of the game's emails
        raise Invalid(f"the game's title goes into email subjects: {title_problem}", code="bad_title")
    if len(invite) > players - 1:  # before any address is read
        raise Invalid(f"a {players}-player game has room for {players - 1} invitations", code="too_many_invitations")
    bots = _bot_kinds(game_type, [i for i in invite if isinstance(i, dict)])
    if rated and bots:
        raise Invalid("a rated game is between people only: invite players instead of bots, "
                      "or make the game unrated", code="rated_with_bots")
    emails = [normalise_email(e) for e in invite if not isinstance(e, dict)]
    if creator.email in emails or len(set(emails)) != len(emails):
        raise Invalid("each player may be invited once", code="duplicate_invitation")
    if len(emails) + len(bots) > players - 1:
        raise Invalid(f"a {players}-player game has room for {players - 1} invitations", code="too_many_invitations")
    if not isinstance(open_seats, int) or isinstance(open_seats, bool) \
            or not 0 <= open_seats <= players - 1 - len(emails) - len(bots):
        raise Invalid(f"a {players}-player game with {len(emails) + len(bots)} invited seats has room for "
                      f"0 to {players - 1 - len(emails) - len(bots)} open seats, not {open_seats!r}",
                      code="too_many_open_seats")
    _check_invitation_limits(db, creator, emails, limits)
    if bots and limits is not None and limits.bot_games is not None:
        _check_bot_games(db, creator, limits.bot_games)
    assert creator.id is not None, "a stored user"
    game = Game(
        game_type=game_type, title=title.strip()[:120] or engine.game_name(game_type), options=options,
        players=players, seat_order=seat_order, spectators=spectators,
        time_control=time_control or {}, timeout_policy=timeout_policy, creator_id=creator.id, rated=rated,
        open_seats=open_seats,
    )
    db.add(game)
    db.flush()
    assert game.id is not None, "flushed"
    db.add(Seat(game_id=game.id, email=creator.email, user_id=creator.id, status="accepted"))
    forget_seats(db, game)
    work = Work()
    for email in emails:
        _invite(db, work, game, creator, user_for_email(db, email))
    for number, kind in enumerate(bots, 1):
        db.add(Seat(game_id=game.id, email=f"{kind} bot {number}", bot=kind, status="accepted"))
    forget_seats(db, game)
    if len(seats_of(db, game)) == players and all(s.status == "accepted" for s in seats_of(db, game)):
        _start(db, game, seats_of(db, game), work)
    rows.write(db)
    return game, work


def _check_bot_games(db: Session, creator: User, most: int) -> None:
    _lock_inviter(db, creator)  # parallel creations by one user cannot all pass the count
    with_bots = select(Seat.id).where(Seat.game_id == Game.id, col(Seat.bot).is_not(None)).exists()
    going = db.exec(select(func.count(col(Game.id))).where(
        Game.creator_id == creator.id, col(Game.status).in_(("open", "active")), with_bots)).one()
    if going >= most:
        raise Invalid(f"at most {most} of your games may have bots at once, and {going} are open or active; "
                      "one must end before you start another with bots", code="bot_game_limit")


def _bot_kinds(game_type: str, entries: list[dict]) -> list[str]:
    """The kinds of the bot seats asked for, each checked against the game's bots."""
    from engine.bots import bot_kinds

    allowed = bot_kinds(game_type)
    kinds = []
    for entry in entries:
        kind = entry.get("bot")
        if set(entry) != {"bot"} or kind not in allowed:
            raise Invalid(f"a bot seat is {{\"bot\": kind}} with kind one of {', '.join(allowed)}; got {entry!r}",
                          code="bad_bot")
        kinds.append(kind)
    return kinds


def _invite(db: Session, work: Work, game: GameLike, inviter: User, invitee: User) -> None:
    assert game.id is not None, "a game one is invited to is stored"
    db.add(Seat(game_id=game.id, email=invitee.email, user_id=invitee.id))
    forget_seats(db, game)
    notify(db, work, "invitation", invitee.email, invitee.id, game, payload={"inviter": inviter.email})


def invite(db: Session, game_id: int, user: User, email: str, version,
           limits: InvitationLimits | None = None) -> tuple[rows.GameRow, Work]:
    from service.auth import user_for_email

    game = load_game(db, game_id, lock=True)
    if game.creator_id != user.id:  # before the version, which is not a stranger's to know
        raise Forbidden("only the game's creator invites players")
    check_version(game, version)
    if game.status != "open":
        raise Conflict("the game has already started", code="game_started")
    if limits is not None:
        _lock_inviter(db, user)  # before user_for_email may write the invitee's row
    seats = [s for s in seats_of(db, game) if s.status != "declined"]
    invitee = user_for_email(db, email)
    if any(s.user_id == invitee.id for s in seats_of(db, game)):
        raise Conflict(f"{invitee.email} is already invited", code="already_invited")
    if len(seats) + game.open_seats >= game.players:
        raise Conflict("every seat is already taken or open to join", code="game_full")
    _check_invitation_limits(db, user, [invitee.email], limits)
    work = Work()
    _invite(db, work, game, user, invitee)
    game.version += 1
    rows.write(db)
    return game, work


def cancel(db: Session, game_id: int, user: User, version, now: datetime | None = None) -> tuple[rows.GameRow, Work]:
    """The creator calls off a game that has not started; it ends abandoned, unplayed."""
    game = load_game(db, game_id, lock=True)
    if game.creator_id != user.id:
        raise Forbidden("only the game's creator cancels it")
    check_version(game, version)
    if game.status != "open":
        raise Conflict("the game has already started; resign or vote to abandon instead", code="game_started")
    game.status = "abandoned"
    game.finished_at = now or utcnow()
    game.version += 1
    rows.write(db)
    return game, Work()


def respond(db: Session, game_id: int, user: User, accept: bool, version) -> tuple[rows.GameRow, Work]:
    game = load_game(db, game_id, lock=True)
    seat = seat_of_user(db, game, user)
    if seat is None or seat.status != "invited":
        raise Forbidden("you have no open invitation to this game")
    check_version(game, version)
    if game.status != "open":
        raise Conflict("the game has already started", code="game_started")
    seat.status = "accepted" if accept else "declined"
    game.version += 1
    work = Work()
    accepted = [s for s in seats_of(db, game) if s.status == "accepted"]
    if len(accepted) == game.players:
        _start(db, game, accepted, work)
    rows.write(db)
    return game, work


def join(db: Session, game_id: int, user: User, version) -> tuple[rows.GameRow, Work]:
    """The user takes one of the game's open seats; the game starts when every seat
    is filled. The game's row lock and version make two joiners for the last seat
    take turns: the second finds the version changed (409)."""
    game = load_game(db, game_id, lock=True)
    if seat_of_user(db, game, user) is not None:
        raise Conflict("you are already in this game (an invitation to it is answered on its page)",
                       code="already_in_game")
    check_version(game, version)
    if game.status != "open":
        raise Conflict(f"the game is no longer waiting for players: it is {game.status}", code="game_not_open")
    if game.open_seats <= 0:
        raise Conflict("the game has no open seat", code="no_open_seat")
    declined = next((s for s in seats_of(db, game) if s.user_id == user.id), None)
    if declined is not None:  # one seat row per address: the declined invitation's is taken again
        declined.status = "accepted"
    else:
        db.add(Seat(game_id=game.id, email=user.email, user_id=user.id, status="accepted"))
        forget_seats(db, game)
    game.open_seats -= 1
    game.version += 1
    work = Work()
    accepted = [s for s in seats_of(db, game) if s.status == "accepted"]
    if len(accepted) == game.players:
        _start(db, game, accepted, work)
    rows.write(db)
    return game, work


def rematch(db: Session, game_id: int, user: User, version,
            limits: InvitationLimits | None = None) -> tuple[Game, Work]:
    """A new game of the same type and settings as the ended one (rated as it was),
    asked for by one of its players: the same players (bots too), each one seat on
    (the last player's seat is the first), the others invited as to any game. Once
    per ended game."""
    ended = load_game(db, game_id, lock=True)
    mine = seat_of_user(db, ended, user)
    if mine is None or mine.seat is None and ended.started_at is not None:
        raise Forbidden("only a player of the game asks for a rematch")
    check_version(ended, version)
    if ended.status not in ("finished", "abandoned"):
        raise Conflict("a rematch is asked for once the game has ended", code="game_not_ended")
    if ended.started_at is None:
        raise Conflict("the game was cancelled before it started: create a new one", code="never_started")
    if ended.rematch_id is not None:
        raise Conflict(f"a rematch was already started: game {ended.rematch_id}", code="rematch_started",
                       current_version=ended.version)
    played = sorted((s for s in seats_of(db, ended) if s.seat is not None), key=attrgetter("seat"))
    rotated = played[-1:] + played[:-1]  # the seat order of the new game: everyone one seat on
    users = users_of(db, ended)
    others = [users[s.user_id] for s in rotated if s.bot is None and s.user_id != user.id]
    _check_invitation_limits(db, user, [u.email for u in others], limits)
    assert user.id is not None, "a stored user"
    game = Game(game_type=ended.game_type, title=ended.title, options=ended.options, players=ended.players,
                seat_order=ended.seat_order, spectators=ended.spectators, time_control=ended.time_control,
                timeout_policy=ended.timeout_policy, creator_id=user.id, rated=ended.rated)
    db.add(game)
    db.flush()
    assert game.id is not None, "flushed"
    work = Work()
    for seat in rotated:  # seats are numbered at the start in the order they were added
        if seat.bot is not None:
            db.add(Seat(game_id=game.id, email=seat.email, bot=seat.bot, status="accepted"))
        elif seat.user_id == user.id:
            db.add(Seat(game_id=game.id, email=user.email, user_id=user.id, status="accepted"))
        else:
            _invite(db, work, game, user, users[seat.user_id])
        db.flush()
    forget_seats(db, game)
    if all(s.status == "accepted" for s in seats_of(db, game)):
        _start(db, game, seats_of(db, game), work)
    ended.rematch_id = game.id
    ended.version += 1
    rows.write(db)
    return game, work


def _start(db: Session, game: GameLike, seats: list[Seat], work: Work) -> None:
    game.seed = secrets.randbits(63)
    game.seed_hash = hashlib.sha256(str(game.seed).encode()).hexdigest()
    order = list(seats)
    if game.seat_order == "random":
        secrets.SystemRandom().shuffle(order)
    bank = float(time_control_of(game).initial_seconds)
    for number, seat in enumerate(order):
        seat.seat = number
        seat.bank_seconds = bank
    game_rules = rules(game)
    state = game_rules.setup(game.players, game.seed, game.options)
    game.state = game_rules.to_json(state)
    game.status = "active"
    game.started_at = utcnow()
    decisions_changed(db, game, {}, state, work, game.started_at)
    decisions_began(db, game, None, state, {}, -1)
