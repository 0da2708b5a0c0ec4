"""The use cases of play, each one database transaction: create a game, invite,
answer an invitation (the game starts when every seat is filled), submit a move,
resign, vote to abandon, and time out a seat.

Every use case that changes a game checks the version the caller saw (stale: 409),
bumps it, and returns the ids of the notifications and deadlines it wrote, so the
caller can hand them to the workers after the commit (`service.tasks.after_commit`).
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, or_, text
from sqlmodel import Session, select

import engine
from service import rows
from service.errors import Conflict, Forbidden, Invalid, NotFound, Stale, TooMany
from service.header_text import header_problem
from service.models import Deadline, Game, Move, Notification, Seat, User, utcnow
from service.time_control import TimeControl, bank_after_decision, deadline_for, reminder_times

TIMEOUT_POLICIES = ("bot", "default_move", "skip", "forfeit")
log = logging.getLogger(__name__)


@dataclass
class Work:
    """What a transaction left for the workers: notifications and deadlines."""

    notifications: list[rows.NewRow] = field(default_factory=list)
    deadlines: list[rows.NewRow] = field(default_factory=list)

    @property
    def ids(self) -> tuple[list[int], list[tuple[int, float]]]:
        """The notification ids, and each deadline's (id, due timestamp), once written
        (`rows.write`)."""
        if any(row.id is None for row in [*self.notifications, *self.deadlines]):
            raise RuntimeError("the work's rows are not written yet (rows.write)")
        return [n.id for n in self.notifications], [(d.id, _aware(d.due_at).timestamp()) for d in self.deadlines]


# --- loading and checking ------------------------------------------------------

def load_game(db: Session, game_id: int, lock: bool = False) -> Game | rows.GameRow:
    """The game. With `lock`, for a use case that changes it: its row locked for the
    transaction and read as a plain record, with its seats and their users read in the
    same statement (see `seats_of`); `rows.write` writes what the use case changed."""
    if lock:
        game = rows.read_locked(db, game_id)
    else:
        game = db.exec(select(Game).where(Game.id == game_id)).first()
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


def load_user(db: Session, user_id: int) -> User:
    user = db.get(User, user_id)
    if user is None:
        raise NotFound(f"no user {user_id}")
    return user


def seats_of(db: Session, game: Game) -> list[Seat]:
    """The game's seats, read once per transaction and kept, so changes made to them
    are seen (`_forget_seats` after adding one): records read with the locked game
    (`rows.read_locked`), else ORM rows read here. Their users come in the same query
    (see `users_of`)."""
    key = ("seats", game.id)
    if key not in db.info:
        found = db.exec(select(Seat, User).outerjoin(User, User.id == Seat.user_id)
                        .where(Seat.game_id == game.id).order_by(Seat.id)
                        .execution_options(populate_existing=True)).all()
        db.info[key] = [seat for seat, _ in found]
        db.info[("seat users", game.id)] = {user.id: user for _, user in found if user is not None}
    return db.info[key]


def users_of(db: Session, game: Game) -> dict:
    """The users of the game's seats by id, read with the seats."""
    seats_of(db, game)
    return db.info[("seat users", game.id)]


def _forget_seats(db: Session, game: Game) -> None:
    db.info.pop(("seats", game.id), None)
    db.info.pop(("seat users", game.id), None)


def seat_of_user(db: Session, game: Game, user: User | None) -> Seat | None:
    """The user's seat; none once he declined (he is then a stranger to the game)."""
    if user is None:
        return None
    return next((s for s in seats_of(db, game) if s.user_id == user.id and s.status != "declined"), None)


def check_version(game: Game, version) -> None:
    if not isinstance(version, int) or isinstance(version, bool) or version != game.version:
        raise Stale(
            f"the game has changed: it is at version {game.version}, not {version!r}",
            current_version=game.version,
        )


def decision_is_current(db: Session, game: Game, seat_number: int, version) -> bool:
    """Whether `version` is one at which the seat's current decision stood: from the
    version where it began up to the game's. A move by another seat that left this
    seat's decision as it was (a simultaneous choice) does not make it stale; the
    seat's own move does, so one decision is never applied twice. A seat that owes
    nothing, or whose decision's start is unknown, needs the game's own version."""
    if not isinstance(version, int) or isinstance(version, bool) or game.status != "active":
        return version == game.version and not isinstance(version, bool)
    if version != game.version:
        # The seats read with the locked game come from before any wait for its lock
        # (PostgreSQL re-reads only the locked row): read them as committed now.
        _forget_seats(db, game)
    seat = next((s for s in seats_of(db, game) if s.seat == seat_number), None)
    began = seat.decision_version if seat is not None else None
    if began is None or seat_number not in rules(game).pending(game_state(game)):
        return version == game.version
    return began <= version <= game.version


def check_decision_version(db: Session, game: Game, seat_number: int, version) -> None:
    """Conflict (409) unless the seat's decision still stands at `version`."""
    if not decision_is_current(db, game, seat_number, version):
        raise Stale(f"the game has changed: it is at version {game.version}, not {version!r}, and your "
                    "decision is not the one you saw", current_version=game.version)


def rules(game: Game):
    return engine.get_game(game.game_type)


def game_state(game: Game):
    parsed = getattr(game, "parsed_state", None)  # a record keeps the state its last move made
    if parsed is not None and parsed[0] is game.state:
        return parsed[1]
    return rules(game).from_json(game.state)


def notify(db: Session, work: Work, kind: str, email: str, user_id=None, game: Game | None = None,
            seat: int | None = None, payload: dict | None = None) -> rows.NewRow:
    """An outbox row, written by `rows.write` (at the latest before the commit)."""
    row = rows.add_notification(
        db, kind=kind, email=email, user_id=user_id, game_id=game.id if game else None, seat=seat,
        payload=payload or {}, message_id=f"<{uuid.uuid4().hex}@turnpost>",
    )
    work.notifications.append(row)
    return row


# --- creating and joining --------------------------------------------------------

@dataclass(frozen=True)
class InvitationLimits:
    """Invitation emails per 24 hours: sent by one creator, received by one address
    (invitations carry text chosen by their sender, so they must not become a relay)."""

    per_sender: int
    per_recipient: int


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
    return or_(Notification.email == f"{local}@{domain}",
               Notification.email.like(f"{escaped}+%@{domain}", escape="\\"))


def _check_invitation_limits(db: Session, inviter: User, emails: list[str], limits: InvitationLimits | None) -> None:
    if limits is None or not emails:
        return
    _lock_inviter(db, inviter)
    _lock_recipients(db, emails)
    since = utcnow() - timedelta(days=1)
    invitations = select(func.count(Notification.id)).where(Notification.kind == "invitation", Notification.created_at > since)
    sent = db.exec(invitations.join(Game, Game.id == Notification.game_id).where(Game.creator_id == inviter.id)).one()
    if sent + len(emails) > limits.per_sender:
        raise TooMany(f"you may send {limits.per_sender} invitations a day; {sent} were sent in the last 24 hours",
                      code="invitation_limit")
    for email in emails:
        if db.exec(invitations.where(_to_mailbox(email))).one() >= limits.per_recipient:
            raise TooMany(f"{email} has had {limits.per_recipient} invitations in the last 24 hours; "
                          "try again tomorrow", code="invitation_limit")


def create_game(db: Session, creator: User, game_type: str, players: int, options: dict | None = None,
                invite: list = (), seat_order: str = "fixed", spectators: bool = False,
                time_control: dict | None = None, timeout_policy: str = "bot",
                title: str = "", limits: InvitationLimits | None = None, open_seats: int = 0) -> tuple[Game, Work]:
    """`invite` lists the other seats: an email each, or {"bot": kind} for a bot;
    `open_seats` more are left for anyone to join (`join`). A game whose seats are
    all filled at once (the creator and bots) starts at once."""
    from service.auth import normalise_email, user_for_email

    try:
        game_rules = engine.get_game(game_type)
        options = game_rules.validate_options(options or {}, players)
    except engine.EngineError as err:
        raise Invalid(err.message, code=err.code) from None
    try:
        TimeControl(**_time_control_args(time_control or {}))
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
    game = Game(
        game_type=game_type, title=title.strip()[:120] or f"{game_type} game", options=options,
        players=players, seat_order=seat_order, spectators=spectators,
        time_control=time_control or {}, timeout_policy=timeout_policy, creator_id=creator.id,
        open_seats=open_seats,
    )
    db.add(game)
    db.flush()
    db.add(Seat(game_id=game.id, email=creator.email, user_id=creator.id, status="accepted"))
    _forget_seats(db, game)
    work = Work()
    for email in emails:
        _invite(db, work, game, creator, user_for_email(db, email))
    for number, kind in enumerate(bots, 1):
        db.add(Seat(game_id=game.id, email=f"{kind} bot {number}", bot=kind, status="accepted"))
    _forget_seats(db, game)
    if len(seats_of(db, game)) == players and all(s.status == "accepted" for s in seats_of(db, game)):
        _start(db, game, seats_of(db, game), work)
    rows.write(db)
    return game, work


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


def _time_control_args(data: dict) -> dict:
    args = {k: data[k] for k in ("initial_seconds", "extension_seconds", "cap_seconds") if k in data}
    if data.get("quiet_hours"):
        args["quiet_hours"] = tuple(data["quiet_hours"])
    if data.get("reminder_offsets"):
        args["reminder_offsets"] = tuple(data["reminder_offsets"])
    return args


def time_control_of(game: Game) -> TimeControl:
    return TimeControl(**_time_control_args(game.time_control))


def _invite(db: Session, work: Work, game: Game, inviter: User, invitee: User) -> None:
    db.add(Seat(game_id=game.id, email=invitee.email, user_id=invitee.id))
    _forget_seats(db, game)
    notify(db, work, "invitation", invitee.email, invitee.id, game, payload={"inviter": inviter.email})


def invite(db: Session, game_id: int, user: User, email: str, version,
           limits: InvitationLimits | None = None) -> tuple[Game, Work]:
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


def cancel(db: Session, game_id: int, user: User, version, now: datetime | None = None) -> tuple[Game, Work]:
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


def respond(db: Session, game_id: int, user: User, accept: bool, version) -> tuple[Game, Work]:
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


def join(db: Session, game_id: int, user: User, version) -> tuple[Game, Work]:
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
        _forget_seats(db, game)
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
    """A new game of the same type and settings as the ended one, asked for by one of
    its players: the same players (bots too), each one seat on (the last player's
    seat is the first), the others invited as to any game. Once per ended game."""
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
    played = sorted((s for s in seats_of(db, ended) if s.seat is not None), key=lambda s: s.seat)
    rotated = played[-1:] + played[:-1]  # the seat order of the new game: everyone one seat on
    users = users_of(db, ended)
    others = [users[s.user_id] for s in rotated if s.bot is None and s.user_id != user.id]
    _check_invitation_limits(db, user, [u.email for u in others], limits)
    game = Game(game_type=ended.game_type, title=ended.title, options=ended.options, players=ended.players,
                seat_order=ended.seat_order, spectators=ended.spectators, time_control=ended.time_control,
                timeout_policy=ended.timeout_policy, creator_id=user.id)
    db.add(game)
    db.flush()
    work = Work()
    for seat in rotated:  # seats are numbered at the start in the order they were added
        if seat.bot is not None:
            db.add(Seat(game_id=game.id, email=seat.email, bot=seat.bot, status="accepted"))
        elif seat.user_id == user.id:
            db.add(Seat(game_id=game.id, email=user.email, user_id=user.id, status="accepted"))
        else:
            _invite(db, work, game, user, users[seat.user_id])
        db.flush()
    _forget_seats(db, game)
    if all(s.status == "accepted" for s in seats_of(db, game)):
        _start(db, game, seats_of(db, game), work)
    ended.rematch_id = game.id
    ended.version += 1
    rows.write(db)
    return game, work


def _start(db: Session, game: Game, seats: list[Seat], work: Work) -> None:
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
    _decisions_changed(db, game, {}, state, work, game.started_at)
    _decisions_began(db, game, None, state, {}, -1)


# --- moves -------------------------------------------------------------------------

def read_move(game: Game, move=None, text=None) -> dict:
    game_rules = rules(game)
    if (move is None) == (text is None):
        raise Invalid("send either a move object or its text notation", code="bad_move")
    if text is not None:
        try:
            return game_rules.parse_move(text)
        except engine.MoveParseError as err:
            raise Invalid(err.message, code=err.code) from None
    _check_move_shape(move)
    return move


def _check_move_shape(move: dict) -> None:
    if not isinstance(move.get("type"), str):
        raise Invalid("a move needs a `type` that is a string (see the game's move notation)", code="bad_move")


def submit_user_move(db: Session, game_id: int, user: User, version, move: dict | None = None,
                     text: str | None = None) -> tuple[Game, int, list[dict], Work]:
    """A player's move (an object, or its text notation) at the version he saw (any
    version since his decision began: `check_decision_version`); returns the game, his
    seat number, the move's events and the work."""
    game = load_game(db, game_id, lock=True)
    seat = seat_of_user(db, game, user)
    if seat is None or seat.seat is None:
        raise Forbidden("you do not play in this game")
    if seat.resigned:
        raise Conflict("you have resigned from this game", code="resigned")
    game, events, work = _submit(db, game, seat.seat, read_move(game, move, text), version, False, utcnow(),
                                 per_seat=True)
    return game, seat.seat, events, work


def submit_move(db: Session, game_id: int, seat_number: int, move: dict, version,
                by_service: bool = False, now: datetime | None = None,
                email_mover: bool | None = None, per_seat: bool = False) -> tuple[Game, list[dict], Work]:
    """Apply `move` for `seat_number` if the game is still at `version` (`per_seat`:
    if the seat's decision still stands at `version`, see `check_decision_version`).
    `email_mover`: whether the mover gets a decision email when he still owes one
    (True: always, for a player who plays from email links; False: never, when the
    answer to his emailed reply shows the decision; None: only for a new kind of
    decision, as for a player on the game page)."""
    return _submit(db, load_game(db, game_id, lock=True), seat_number, move, version, by_service, now or utcnow(),
                   email_mover, per_seat)


def submit_move_to_locked(db: Session, game: rows.GameRow, seat_number: int, move: dict, version,
                          email_mover: bool | None = None) -> tuple[Game, list[dict], Work]:
    """`submit_move` on a game the caller read with `load_game(lock=True)` in this
    transaction, for a use case that looks at the game before it moves: no other
    move can come between its look and its move."""
    return _submit(db, game, seat_number, move, version, False, utcnow(), email_mover)


def _submit(db: Session, game: Game, seat_number: int, move: dict, version, by_service: bool,
            now: datetime, email_mover: bool | None = None, per_seat: bool = False) -> tuple[Game, list[dict], Work]:
    if per_seat:
        check_decision_version(db, game, seat_number, version)
    else:
        check_version(game, version)
    if game.status != "active":
        raise Conflict(f"the game is {game.status}; no moves are taken", code="game_not_active")
    work = Work()
    events = _apply(db, game, seat_number, move, by_service, now, work, email_mover)
    rows.write(db)
    return game, events, work


def _apply(db: Session, game: Game, seat_number: int, move: dict, by_service: bool,
           now: datetime, work: Work, email_mover: bool | None = None) -> list[dict]:
    game_rules = rules(game)
    state = previous = game_state(game)
    before = game_rules.pending(state)
    if seat_number not in before:
        raise Forbidden("this is not your decision now", code="not_your_turn")
    try:
        state, events = game_rules.apply(state, seat_number, move)
    except engine.IllegalMove as err:
        raise Invalid(err.message, code=err.code) from None
    except (TypeError, KeyError, ValueError, AttributeError) as err:
        # A field of the wrong JSON type (a list for a colour) that the engine's
        # checks did not expect; the engine is left as it was (it never mutates).
        log.warning("move %r for game %s refused by a %s: %s", move, game.id, type(err).__name__, err)
        raise Invalid("the move's fields do not fit the game's move notation (see its docs): "
                      f"{sorted(move)}", code="bad_move") from None
    game.move_count += 1
    rows.add_move(db, game_id=game.id, seq=game.move_count, seat=seat_number, move=move, events=events,
                  by_service=by_service)
    game.state = game_rules.to_json(state)
    if isinstance(game, rows.GameRow):
        game.parsed_state = (game.state, state)
    if not unnoticed_setting(game_rules, move, events, seat_number, before, game_rules.pending(state)):
        game.version += 1
    _decisions_began(db, game, previous, state, before, seat_number)
    _decisions_changed(db, game, before, state, work, now, mover=(seat_number, email_mover))
    _play_for_resigned(db, game, work, now)
    return events


def unnoticed_setting(game_rules, move: dict, events: list[dict], seat: int, before: dict, after: dict) -> bool:
    """Whether `move` is a setting (the card game's standing answer) that the other
    seats must not notice: every event is the mover's own and nobody's decision
    changed. It keeps the game's version, so no other page reloads and no other
    player's move goes stale; the move log shows it to the mover alone."""
    if move.get("type") not in getattr(game_rules, "setting_moves", ()):
        return False
    return before == after and all(event.get("visible_to") == [seat] for event in events)


def _decisions_began(db: Session, game: Game, previous, state, before: dict, mover: int) -> None:
    """Note the version at which each seat's decision began: for the mover, a seat that
    newly owes one or owes another kind, and a seat whose open moves the move changed
    (compared only in simultaneous decisions, where another seat stays pending)."""
    game_rules = rules(game)
    after = game_rules.pending(state)
    for seat in seats_of(db, game):
        kind = after.get(seat.seat) if seat.seat is not None else None
        if kind is None:
            if seat.decision_version is not None:
                seat.decision_version = None
            continue
        stands = seat.seat != mover and before.get(seat.seat) == kind and seat.decision_version is not None \
            and game_rules.legal_moves(previous, seat.seat) == game_rules.legal_moves(state, seat.seat)
        if not stands and seat.decision_version != game.version:
            seat.decision_version = game.version


def _every_decision_begins_again(db: Session, game: Game) -> None:
    """After a change outside the moves (a resignation, an abandon vote), every open
    decision counts from the new version: a move sent before it is stale."""
    for seat in seats_of(db, game):
        if seat.decision_version is not None:
            seat.decision_version = game.version


def last_move_seq(db: Session, game: Game) -> int:
    """The move log's last sequence number."""
    return game.move_count


def _play_for_resigned(db: Session, game: Game, work: Work, now: datetime) -> None:
    """Seats whose players resigned are played by the stand-in bot (one move here;
    `_apply` comes back here for the next)."""
    from service.bots import STAND_IN, bot_move

    resigned = {s.seat for s in seats_of(db, game) if s.resigned}
    if game.status != "active" or not resigned:
        return
    game_rules = rules(game)
    state = game_state(game)
    due = [s for s in game_rules.pending(state) if s in resigned]
    if due:
        _apply(db, game, due[0], bot_move(game.game_type, game.id, state, due[0], STAND_IN), True, now, work)


def _decisions_changed(db: Session, game: Game, before: dict, state, work: Work, now: datetime,
                       mover: tuple[int, bool | None] = (-1, None)) -> None:
    """Charge clocks of seats that decided, start clocks and write deadlines for
    seats that newly owe a decision, email every seat that owes a new kind of
    decision (a war right after one's own tile, say), and finish the game if it ended.
    `mover` is the seat that moved and whether it gets an email (see `submit_move`)."""
    game_rules = rules(game)
    after = game_rules.pending(state)
    seats = {s.seat: s for s in seats_of(db, game) if s.seat is not None}
    tc = time_control_of(game)
    for number in set(before) - set(after):
        seat = seats[number]
        if seat.decision_started_at is not None:
            used = (now - _aware(seat.decision_started_at)).total_seconds()
            seat.bank_seconds = bank_after_decision(seat.bank_seconds, used, tc)
            seat.decision_started_at = None
        _cancel_deadlines(db, game.id, number, now)
    last_seq = last_move_seq(db, game)
    mover_seat, email_mover = mover
    for number in sorted(after):
        seat, new = seats[number], number not in before
        emailed = new or before[number] != after[number]
        if number == mover_seat and email_mover is not None:
            emailed = email_mover
        if seat.bot is not None:
            emailed = False  # a bot never gets email
            if new:
                _bot_turn(db, game, seat, now, work)
        elif seat.resigned:
            emailed = False
        elif new:
            _write_deadlines(db, game, seat, now, tc, work)
        if emailed:
            notify(db, work, "your_turn", seat.email, seat.user_id, game, number,
                    {"since_seq": seat.last_seen_seq, "upto_seq": last_seq, "version": game.version})
            seat.last_seen_seq = last_seq
        if new:  # set after the reads above, so the seat's row is written once
            seat.decision_started_at = now
    outcome = game_rules.outcome(state)
    if outcome is not None:
        _finish(db, game, outcome, "finished", work, now)


def _bot_turn(db: Session, game: Game, seat: Seat, now: datetime, work: Work) -> None:
    """A bot seat owes a decision: a deadline due at once, which a worker fires by
    letting the bot play (`time_out`); no email."""
    work.deadlines.append(rows.add_deadline(db, game_id=game.id, seat=seat.seat, kind="bot", due_at=now))


def _play_bot(db: Session, game: Game, seat_number: int, kind: str, now: datetime, work: Work) -> None:
    """Moves by a bot of `kind` for the seat while it owes a decision, each through
    the move path of a person's (applied to the current version, logged, telling the
    humans who come to owe a decision). The caller holds the game's row lock, so the
    version the bot decided on cannot go stale under it."""
    from service.bots import bot_move

    game_rules = rules(game)
    state = game_state(game)
    while game.status == "active" and seat_number in game_rules.pending(state):
        move = bot_move(game.game_type, game.id, state, seat_number, kind)
        _apply(db, game, seat_number, move, True, now, work)
        state = game_state(game)


def _aware(moment: datetime) -> datetime:
    from datetime import timezone

    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _write_deadlines(db: Session, game: Game, seat: Seat, now: datetime, tc: TimeControl, work: Work) -> None:
    timezone, absences = _timezone_and_absences(db, game, seat.user_id)
    due = deadline_for(now, seat.bank_seconds, tc, timezone, absences)
    for kind, when in [*(("reminder", t) for t in reminder_times(now, due, tc)), ("timeout", due)]:
        work.deadlines.append(rows.add_deadline(db, game_id=game.id, seat=seat.seat, kind=kind, due_at=when))


_TIMEZONE_AND_ABSENCES = select(rows.USER.c.timezone, rows.ABSENCE.c.first_day, rows.ABSENCE.c.last_day).select_from(
    rows.USER.outerjoin(rows.ABSENCE, rows.ABSENCE.c.user_id == rows.USER.c.id)
).where(rows.USER.c.id == bindparam("user_id"))


def _timezone_and_absences(db: Session, game: Game, user_id: int | None) -> tuple[str, list]:
    """The player's timezone and declared absences (first day, last day): read with
    the locked game (`rows.read_locked`), else in one query."""
    if user_id is None:
        return "UTC", []
    user = users_of(db, game).get(user_id)
    if isinstance(user, rows.UserRow):
        return user.timezone, user.absences
    found = db.connection().execute(_TIMEZONE_AND_ABSENCES, {"user_id": user_id}).all()
    return (found[0][0] if found else "UTC"), [(first, last) for _, first, last in found if first is not None]


def _cancel_deadlines(db: Session, game_id: int, seat: int | None, now: datetime) -> None:
    rows.cancel_deadlines(db, game_id, seat, now)


def _finish(db: Session, game: Game, result: dict | None, status: str, work: Work, now: datetime) -> None:
    game.status = status
    game.finished_at = now
    game.result = _json_keys(result) if result is not None else None
    _cancel_deadlines(db, game.id, None, now)
    for seat in seats_of(db, game):
        if seat.status == "accepted" and seat.bot is None:
            notify(db, work, "game_over", seat.email, seat.user_id, game, seat.seat, {"status": status})


def _json_keys(value):
    """The outcome with its integer keys as strings, as JSON stores them."""
    if isinstance(value, dict):
        return {str(k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_keys(v) for v in value]
    return value


# --- leaving -------------------------------------------------------------------------

def _active_seat(db: Session, game: Game, user: User, version) -> Seat:
    """The user's seat in a game he plays, checked in this order: a stranger is
    refused before the version is compared (he may not learn it), then a stale version,
    then a game that is not under way."""
    seat = seat_of_user(db, game, user)
    if seat is None or seat.seat is None:
        raise Forbidden("you do not play in this game")
    check_version(game, version)
    if game.status != "active":
        raise Conflict(f"the game is {game.status}", code="game_not_active")
    return seat


def resign(db: Session, game_id: int, user: User, version, now: datetime | None = None) -> tuple[Game, Work]:
    """The player leaves: ranked last; with two players left the game ends, else the
    service plays the seat's default moves so the others can finish."""
    now = now or utcnow()
    game = load_game(db, game_id, lock=True)
    seat = _active_seat(db, game, user, version)
    if seat.resigned:
        raise Conflict("you have already resigned", code="already_resigned")
    work = Work()
    _resign_seat(db, game, seat, work, now)
    rows.write(db)
    return game, work


def _resign_seat(db: Session, game: Game, seat: Seat, work: Work, now: datetime) -> None:
    seat.resigned = True
    game.version += 1
    _every_decision_begins_again(db, game)
    seats = [s for s in seats_of(db, game) if s.seat is not None]
    still_playing = [s for s in seats if not s.resigned]
    if len(still_playing) <= 1:
        resigned_last = [[s.seat] for s in seats if s.resigned]
        result = {"reason": "resignation", "ranking": [[s.seat for s in still_playing], *resigned_last]}
        _finish(db, game, result, "finished", work, now)
        return
    _cancel_deadlines(db, game.id, seat.seat, now)
    _play_for_resigned(db, game, work, now)


def vote_abandon(db: Session, game_id: int, user: User, version, now: datetime | None = None) -> tuple[Game, Work]:
    """A vote to abandon; when every player still in the game has voted, it ends
    without a result (the seed is revealed as for any ended game)."""
    now = now or utcnow()
    game = load_game(db, game_id, lock=True)
    seat = _active_seat(db, game, user, version)
    seat.abandon_vote = True
    game.version += 1
    _every_decision_begins_again(db, game)
    work = Work()
    if all(s.abandon_vote or s.resigned for s in seats_of(db, game) if s.seat is not None):
        _finish(db, game, None, "abandoned", work, now)
    rows.write(db)
    return game, work


def time_out(db: Session, deadline_id: int, now: datetime) -> tuple[Game | None, Work]:
    """A timeout deadline came due: apply the game's policy if it is still current.
    Idempotent: a deadline already done, or a seat no longer deciding, changes nothing."""
    of_deadline = select(Deadline.game_id).where(Deadline.id == deadline_id).scalar_subquery()
    game = rows.read_locked(db, where=rows.GAME.c.id == of_deadline)
    if game is None:
        return None, Work()
    # Read under the game's lock: a move that cancelled the deadline has committed by now.
    deadline = db.get(Deadline, deadline_id, populate_existing=True)
    work = Work()
    if deadline.done_at is not None or game.status != "active":
        return game, work
    deadline.done_at, deadline.outcome = now, "fired"  # written before any cancellation (`rows.write`)
    game_rules = rules(game)
    state = game_state(game)
    if deadline.seat not in game_rules.pending(state):
        return game, work
    seat = next(s for s in seats_of(db, game) if s.seat == deadline.seat)
    if deadline.kind == "bot":
        if seat.bot is not None:
            _play_bot(db, game, seat.seat, seat.bot, now, work)
        rows.write(db)
        return game, work
    if deadline.kind == "reminder":
        notify(db, work, "reminder", seat.email, seat.user_id, game, seat.seat, {"version": game.version})
        rows.write(db)
        return game, work
    for other in seats_of(db, game):
        if other.status == "accepted" and other.seat != seat.seat and other.bot is None:
            notify(db, work, "deadline_passed", other.email, other.user_id, game, other.seat,
                    {"late_seat": seat.seat, "policy": game.timeout_policy})
    if game.timeout_policy == "forfeit":
        _resign_seat(db, game, seat, work, now)
    elif game.timeout_policy == "bot":
        from service.bots import STAND_IN

        _play_bot(db, game, seat.seat, STAND_IN, now, work)
    else:  # skip and default_move both play the engine's least committal move (a pass where there is one)
        # The deadline covered the whole decision (e.g. both actions of a turn).
        while game.status == "active" and seat.seat in game_rules.pending(state):
            _apply(db, game, seat.seat, game_rules.default_move(state, seat.seat), True, now, work)
            state = game_state(game)
    rows.write(db)
    return game, work


def replay(game: Game, moves: list[Move]):
    """The state rebuilt from the seed and the move log."""
    game_rules = rules(game)
    state = game_rules.setup(game.players, game.seed, game.options)
    for row in moves:
        state, _ = game_rules.apply(state, row.seat, row.move)
    return state
