"""Turning an outbox row into an email: the context of its template, its links, and
the board picture for decision emails."""
from __future__ import annotations

import logging

from sqlalchemy import bindparam, select
from sqlmodel import Session

import engine
from service.action_tokens import ActionToken, make_token
from service.models import Game, Notification, User
from service.outcome_words import end_reason, final_ranking
from service.play import GameLike, game_state, rules, seats_of, users_of
from service.preference_links import preferences_token
from service.reply_address import ReplyToken, bounce_address, reply_address
from service.rows import DEADLINE, MOVE, NOTIFICATION
from service.time_control import time_control_words
from workers.decision_mail import decision_summary
from workers.emails import render
from workers.mail import Attachment, Mail

log = logging.getLogger(__name__)

# The reads of a decision email, built once as Core statements of the columns it shows:
# building a statement and loading ORM objects cost more than running it.
_EVENTS_SINCE = select(MOVE.c.events).where(
    MOVE.c.game_id == bindparam("game_id"), MOVE.c.seq > bindparam("since_seq"),
    MOVE.c.seq <= bindparam("upto_seq")).order_by(MOVE.c.seq)
_TIMEOUT_DUE = select(DEADLINE.c.due_at).where(
    DEADLINE.c.game_id == bindparam("game_id"), DEADLINE.c.seat == bindparam("seat"),
    DEADLINE.c.kind == "timeout", DEADLINE.c.done_at.is_(None)).limit(1)
_PREVIOUS_DECISION_WRITTEN = select(NOTIFICATION.c.created_at).where(
    NOTIFICATION.c.game_id == bindparam("game_id"), NOTIFICATION.c.seat == bindparam("seat"),
    NOTIFICATION.c.id < bindparam("before_id"), NOTIFICATION.c.kind.in_(("your_turn", "reply_answer"))
).order_by(NOTIFICATION.c.id.desc()).limit(1)


def names_of(db: Session, game: GameLike) -> dict[int, str]:
    names, users = {}, users_of(db, game)  # the users come with the seats, in one query
    for seat in seats_of(db, game):
        if seat.seat is not None:
            user = users.get(seat.user_id)
            names[seat.seat] = user.name if user and user.name else seat.email.split("@")[0]
    return names


def compose(db: Session, settings, row: Notification) -> Mail:
    """The email for an outbox row, rendered from the database as it is now."""
    assert row.id is not None, "a stored outbox row"
    base = settings.base_url
    context: dict = {"table_talk": []}
    if row.user_id:
        token = preferences_token(settings.secret_key, row.user_id)
        context["preferences_url"] = f"{base}/preferences/{token}"
        context["unsubscribe_url"] = f"{base}/unsubscribe/{token}"
    images: list[Attachment] = []
    game = db.get(Game, row.game_id) if row.game_id else None
    if game is not None:
        context.update(game_title=game.title, game_url=f"{base}/games/{game.id}",
                       rules_url=f"{base}/rules/{game.game_type}?game={game.id}")
    builder = _BUILDERS[row.kind]
    builder(db, settings, row, game, context, images)
    subject, text, html = render(row.kind, context)
    return Mail(
        to=row.email, subject=context.get("thread_subject") or subject, text=text, html=html,
        message_id=message_id(row.message_id, settings.mail_domain), sender=settings.mail_from,
        unsubscribe_url=context.get("unsubscribe_url"), images=images,
        headers={**_headers(context), **thread_headers(row.game_id, settings.mail_domain, context)},
        envelope_from=bounce_address(settings.secret_key, settings.mail_domain, row.id),
        auto_submitted="auto-replied" if row.kind == "reply_answer" else "auto-generated",
    )


def message_id(stored: str, domain: str) -> str:
    """The Message-ID an outbox row's email carries: the row's unique id under our own
    mail domain (the row keeps only what makes it unique, whatever MAIL_DOMAIN is)."""
    return f"<{stored.strip('<>').partition('@')[0]}@{domain}>"


def game_thread_id(game_id: int, domain: str) -> str:
    """The root every email of a game refers to, so that mail programs show them as one
    thread; derived from the game alone, no email needs to be looked up."""
    return f"<game-{game_id}@{domain}>"


def thread_headers(game_id: int | None, domain: str, context: dict) -> dict[str, str]:
    """References to the game's thread root for every email of a game; an answer to a
    reply also answers that reply (In-Reply-To, and its References after the root)."""
    answered = context.get("in_reply_to")
    chain = [game_thread_id(game_id, domain)] if game_id else []
    for reference in (context.get("references") or "").split() + ([answered] if answered else []):
        if reference not in chain:
            chain.append(reference)
    headers = {"References": " ".join(chain)} if chain else {}
    if answered:
        headers["In-Reply-To"] = answered
    return headers


def _headers(context: dict) -> dict[str, str]:
    """Reply-To for emails a player may answer."""
    return {"Reply-To": context["reply_to"]} if context.get("reply_to") else {}


def _reply_to(settings, game: Game, row: Notification, version: int, purpose: str = "move") -> str:
    assert game.id is not None and row.seat is not None, "a decision email is about a seat of a stored game"
    token = ReplyToken(game.id, row.seat, row.user_id or 0, version, purpose)
    return reply_address(settings.secret_key, settings.mail_domain, token)


def _invitation(db, settings, row, game, context, images):
    seats = seats_of(db, game)
    context.update(
        game_name=engine.game_name(game.game_type),
        inviter=row.payload.get("inviter", ""), players=[s.email for s in seats if s.status != "declined"],
        time_control=time_control_words(game.time_control), invitation_url=_invitation_url(db, settings, row, game),
    )


def _invitation_url(db, settings, row, game) -> str:
    """A link that signs the invitee in once and opens the game (the game page when the
    invitation has no account to sign in)."""
    from service.auth import create_sign_in_link
    from service.invitation_links import invitation_token

    invitee = db.get(User, row.user_id) if row.user_id else None
    if invitee is None:
        return f"{settings.base_url}/games/{game.id}"
    sign_in = create_sign_in_link(db, invitee.email, settings.secret_key)
    return f"{settings.base_url}/join/{invitation_token(settings.secret_key, sign_in, game.id)}"


def sign_in_url(settings, payload: dict) -> str:
    """The link of a sign-in email, built from the nonce and issue time its outbox row
    keeps (rows written before they did keep the link itself)."""
    from service.auth import sign_in_token

    if "sign_in_url" in payload:
        return payload["sign_in_url"]
    return f"{settings.base_url}/sign-in/{sign_in_token(settings.secret_key, payload['nonce'], payload['issued_at'])}"


def _sign_in(db, settings, row, game, context, images):
    context.update(sign_in_url=sign_in_url(settings, row.payload), valid_minutes=row.payload["valid_minutes"])


def _your_turn(db, settings, row, game, context, images):
    _decision(db, settings, row, game, context, images, row.payload.get("since_seq", 0),
              row.payload.get("upto_seq", 10**9))
    context["reply_to"] = _reply_to(settings, game, row, row.payload.get("version", game.version))


def _decision(db, settings, row, game, context, images, since_seq: int, upto_seq: int) -> None:
    """The decision the seat owes now: prompt, what changed, hand, links, the moves it
    may reply with, and the board picture."""
    game_rules, state = rules(game), game_state(game)
    names = names_of(db, game)
    events = [event for (move_events,) in db.execute(
        _EVENTS_SINCE, {"game_id": game.id, "since_seq": since_seq, "upto_seq": upto_seq}) for event in move_events]
    summary = decision_summary(game_rules, state, row.seat, names, events)
    version = row.payload.get("version", game.version)
    actions = [
        {"label": choice["label"], "url": _action_url(settings, game.id, row.seat, version, choice["text"])}
        for choice in summary["choices"]
    ]
    deadline = _deadline_words(db, game.id, row.seat)
    owed = summary["kind"] is not None
    context.update(
        prompt=summary["prompt"] or ("It is your decision." if owed else "You owe no decision now."),
        deadline=deadline if owed else "", changes=summary["changes"], owed=owed,
        summary_lines=summary["summary_lines"], actions=actions,
        move_kinds=summary["move_kinds"], board_text=summary["board_text"],
        reply_example=summary["reply_example"], board_cid=None, board_alt="", waiting_for=summary["waiting_for"],
    )
    context["table_talk"] = talk_since_last_decision(db, game, row)
    picture = board_picture(settings, game.game_type, picture_view(game_rules, state, row.seat, summary["view"]))
    if picture is not None:
        images.append(Attachment("board", picture))
        context.update(board_cid="board", board_alt=f"The board of {game.title}")


def talk_since_last_decision(db, game, row) -> list[dict]:
    """The others' table talk since the seat's last decision email (or its first),
    up to this email's writing, for a player who takes talk with his next email and
    did not mute the table. Counted in time, so a retried email says the same."""
    from service.table_talk import messages_of, wants_talk_mail

    seat = next((s for s in seats_of(db, game) if s.seat == row.seat and s.user_id == row.user_id), None)
    if seat is None or not wants_talk_mail(db, seat, "next", users_of(db, game).get(seat.user_id)):
        return []
    previous = db.execute(_PREVIOUS_DECISION_WRITTEN,
                          {"game_id": game.id, "seat": row.seat, "before_id": row.id}).scalar()
    return messages_of(db, game, since=previous, upto=row.created_at, not_seat_id=seat.id)


def _table_talk(db, settings, row, game, context, images):
    """A message to the table, for a player who takes table talk at once."""
    from service.models import TableMessage
    from service.table_talk import message_dicts

    message = db.get(TableMessage, row.payload["message_id"])
    said = message_dicts(db, game, [message])[0]
    context.update(name=said["name"], text=said["text"],
                   reply_to=_reply_to(settings, game, row, row.payload.get("version", game.version)))


def _reply_answer(db, settings, row, game, context, images):
    """The answer to a player's emailed reply: what was done with it, and the decision
    he owes now (or who the game waits for)."""
    payload = row.payload
    context.update(outcome=payload.get("outcome", ""), lines=payload.get("lines", []),
                   forms=payload.get("forms", []), in_reply_to=payload.get("in_reply_to"),
                   references=payload.get("references"), thread_subject=payload.get("subject"),
                   confirm_resign=payload.get("confirm_resign", False), show_decision=False)
    if payload.get("decision") and game.state is not None and game.status == "active":
        seen = payload.get("since_seq", 0)
        _decision(db, settings, row, game, context, images, seen, 10**9)
        context["show_decision"] = True
    purpose = "confirm_resign" if context["confirm_resign"] else "move"
    context["reply_to"] = _reply_to(settings, game, row, payload.get("version", game.version), purpose)


def _action_url(settings, game_id: int, seat: int, version: int, move_text: str | None) -> str:
    token = make_token(settings.secret_key, ActionToken(game_id, seat, version, move_text))
    return f"{settings.base_url}/a/{token}"


def _deadline_words(db, game_id: int, seat: int) -> str:
    due_at = db.execute(_TIMEOUT_DUE, {"game_id": game_id, "seat": seat}).scalar()
    return due_at.strftime("%a %d %b %Y %H:%M UTC") if due_at else ""


def picture_view(game_rules: engine.Game, state, seat: int | None, seat_view: dict | None = None) -> dict:
    """The view an email's picture is drawn from: the spectators' one for a game whose
    board looks the same to every seat but for the reader's own marks (which the
    email's text also says), so that every reader of a position shares one picture;
    else the seat's own (`seat_view` when the caller has it already)."""
    if seat is not None and game_rules.shared_board_picture:
        return game_rules.view(state, None)
    return seat_view if seat_view is not None else game_rules.view(state, seat)


def board_picture(settings, game_type: str, view: dict) -> bytes | None:
    """The board as PNG, when this game has a drawing; drawn once for all the emails
    that show the same picture (workers/picture_cache.py)."""
    try:  # imported here: without the cairo library the email still goes, without its picture
        from service import pictures
        from workers.picture_cache import cache_for

        return cache_for(settings).png(pictures.board_picture(game_type, view))
    except (ModuleNotFoundError, ValueError):  # a game without a drawing
        return None
    except OSError:  # no cairo library: the email still goes, without its picture
        log.exception("the board picture could not be drawn")
        return None


def _reminder(db, settings, row, game, context, images):
    game_rules, state = rules(game), game_state(game)
    context.update(
        deadline=_deadline_words(db, game.id, row.seat) or "soon",
        time_left=row.payload.get("time_left", "little time"),
        prompt=game_rules.prompt(state, row.seat, names_of(db, game)),
        reply_to=_reply_to(settings, game, row, row.payload.get("version", game.version)),
    )


def _deadline_passed(db, settings, row, game, context, images):
    late = row.payload.get("late_seat")
    policy = row.payload.get("policy", "default_move")
    name = names_of(db, game).get(late, f"seat {late}")
    what = {"forfeit": f"{name} forfeited and is ranked last; the service plays on for them.",
            "bot": f"A bot made {name}'s decision."}.get(
        policy, f"The service made the least committal move for {name}.")
    context.update(player=name, what_happened=what)


def _game_over(db, settings, row, game, context, images):
    names, game_rules = names_of(db, game), rules(game)
    context.update(reason=end_reason(game_rules, game.status, game.result),
                   ranking=final_ranking(game.result, names, game_rules), seed=str(game.seed),
                   seed_hash=game.seed_hash or "", export_url=f"{settings.base_url}/api/games/{game.id}/export")


def _digest(db, settings, row, game, context, images):
    games = []
    for entry in row.payload.get("games", []):
        entry = {**entry, "board_cid": None}
        shown = db.get(Game, entry.get("game_id")) if entry.get("game_id") else None
        seat = next((s for s in seats_of(db, shown) if s.user_id == row.user_id), None) if shown else None
        if shown is not None and shown.state is not None:
            view = picture_view(rules(shown), game_state(shown), seat.seat if seat else None)
            picture = board_picture(settings, shown.game_type, view)
            if picture is not None:
                images.append(Attachment(f"board-{shown.id}", picture, filename=f"board-{shown.id}.png"))
                entry["board_cid"] = f"board-{shown.id}"
        games.append(entry)
    context.update(games=games)


_BUILDERS = {
    "invitation": _invitation, "sign_in": _sign_in, "your_turn": _your_turn, "reminder": _reminder,
    "deadline_passed": _deadline_passed, "game_over": _game_over, "digest": _digest,
    "reply_answer": _reply_answer, "table_talk": _table_talk,
}
