"""Pages behind the links in emails. A GET only ever shows a page (mail scanners open
every link); the change happens on the POST from that page, which carries a CSRF
token, except the one-click unsubscribe POST that mail clients send (RFC 8058)."""
from __future__ import annotations

import mailbox

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from itsdangerous import BadSignature

from service import dev_outbox, play
from service.action_tokens import TokenRejected, read_token
from service.auth import peek_sign_in_link, start_session, use_sign_in_link
from service.db import reading
from service.errors import ServiceError
from service.invitation_links import read_invitation, safe_next
from service.models import User
from service.outcome_words import winners
from service.pages import board_markup
from service.preference_links import read_preferences_token
from service.table_talk import TALK_MAIL_MODES
from service.web import NO_STORE, current_user, db_engine, present_game, run, settings

bp = Blueprint("links", __name__)


def _message(title: str, text: str, status: int = 200, game_id: int | None = None):
    return render_template("pages/message.html", title=title, text=text, game_id=game_id), status


def _token_or_page(text: str):
    try:
        return read_token(settings().secret_key, text, settings().link_days * 86400), None
    except TokenRejected as err:
        if err.reason == "expired":
            return None, _message("This link has expired", "Open the game from your games list to play on.", 410)
        return None, _message("This link is not valid", "It may have been cut short by your mail program.", 400)


def _still_current(token):
    """The page for a token whose decision has moved on, or None if it still applies
    (other seats may have moved meanwhile: `play.decision_is_current`)."""
    with reading(db_engine()) as db:
        game = play.load_game(db, token.game_id)
        if game.status == "active" and play.decision_is_current(db, game, token.seat, token.version):
            return None, game
        rules = play.rules(game)
        owed = game.status == "active" and token.seat in rules.pending(play.game_state(game))
        text = ("The game has moved on since this email was written"
                + (", and it is your decision again: see the game page." if owed else ". Nothing was changed."))
        return _message("This link is out of date", text, 409, game.id), game


def _usable(token: str):
    """(token, game, None) for a link that still applies, else (.., .., the page
    that says why not)."""
    parsed, page = _token_or_page(token)
    if page:
        return None, None, page
    stale, game = _still_current(parsed)
    return parsed, game, stale


@bp.get("/a/<token>")
def confirm_action(token):
    parsed, game, page = _usable(token)
    if page:
        return page
    if parsed.move is None:
        return redirect(url_for("pages.game_page", game_id=parsed.game_id))
    rules = play.rules(game)
    state = play.game_state(game)
    view = rules.view(state, parsed.seat)
    description = rules.choice_label(state, parsed.seat, rules.parse_move(parsed.move))  # in words for the link's owner
    with reading(db_engine()) as db:
        names = _names(db, game)
        holder = next((s for s in play.seats_of(db, game) if s.seat == parsed.seat), None)
        viewer = current_user(db, required=False)
    someone_else = viewer is not None and holder is not None and holder.user_id != viewer.id
    return render_template(
        "pages/confirm.html", game=game, token=token, description=description, move=parsed.move,
        board=board_markup(game.game_type, view),
        prompt=rules.prompt(state, parsed.seat, names),
        seat_name=names.get(parsed.seat, f"seat {parsed.seat}"), viewer=viewer if someone_else else None)


def _names(db, game) -> dict:
    return {p["seat"]: p["name"] for p in present_game(db, game, None)["player_list"]}


@bp.post("/a/<token>")
def apply_action(token):
    parsed, game, page = _usable(token)
    if page:
        return page
    try:
        moved, _, _ = run(lambda db: play.submit_move(
            db, parsed.game_id, parsed.seat, play.read_move(game, text=parsed.move), parsed.version, email_mover=True,
            per_seat=True))
    except ServiceError as err:
        if err.status == 409:
            return _still_current(parsed)[0] or _message("This link is out of date", err.message, 409, game.id)
        return _message("That move was not accepted", err.message, err.status, game.id)
    rules = play.rules(game)  # `game` as the link found it: the move in words as its confirm page said
    said = rules.choice_label(play.game_state(game), parsed.seat, play.read_move(game, text=parsed.move))
    made = f"Your move was made: {said}."
    if moved.status == "active" and parsed.seat in play.rules(moved).pending(play.game_state(moved)):
        made += " It is still your decision: an email with it is on its way."
    if moved.status == "finished":
        with reading(db_engine()) as db:
            made += " The game is over. " + (winners(moved.result, _names(db, moved)) or "")
    return _message("Done", made, 200, game.id)


@bp.get("/sign-in/<token>")
def confirm_sign_in(token):
    try:
        with reading(db_engine()) as db:
            email = peek_sign_in_link(db, token, settings().secret_key, settings().sign_in_minutes)
    except ServiceError as err:
        return _message("This sign-in link cannot be used", err.message, err.status)
    return render_template("pages/sign_in_confirm.html", email=email,
                           action=url_for("links.sign_in", token=token), game=None), 200, NO_STORE


@bp.post("/sign-in/<token>")
def sign_in(token):
    try:
        user = run(lambda db: use_sign_in_link(db, token, settings().secret_key, settings().sign_in_minutes))
    except ServiceError as err:
        return _message("This sign-in link cannot be used", err.message, err.status)
    return _signed_in(user, session.get("after_sign_in") or url_for("pages.my_games"))


@bp.get("/join/<token>")
def confirm_invitation(token):
    """An invitation email's link: a page that asks before it signs the invitee in."""
    try:
        sign_in_token, game_id = read_invitation(settings().secret_key, token, settings().link_days * 86400)
        with reading(db_engine()) as db:
            email = peek_sign_in_link(db, sign_in_token, settings().secret_key, settings().link_days * 1440)
            game = play.load_game(db, game_id)
    except ServiceError as err:
        return _message("This invitation link cannot be used", err.message, err.status)
    return render_template("pages/sign_in_confirm.html", email=email,
                           action=url_for("links.join", token=token), game=game), 200, NO_STORE


@bp.post("/join/<token>")
def join(token):
    try:
        sign_in_token, game_id = read_invitation(settings().secret_key, token, settings().link_days * 86400)
        user = run(lambda db: use_sign_in_link(db, sign_in_token, settings().secret_key, settings().link_days * 1440))
    except ServiceError as err:
        return _message("This invitation link cannot be used", err.message, err.status)
    return _signed_in(user, url_for("pages.game_page", game_id=game_id))


def _signed_in(user: User, target: str):
    """Start the session of `user` (kept 30 days when asked) and go to `target`, a
    path on this site (else the games list: the target is checked before the session
    starts)."""
    destination = safe_next(target) or url_for("pages.my_games")
    user_id = user.id
    assert user_id is not None, "a stored user"
    secret = run(lambda db: _start_session(db, user_id))
    session.clear()
    session["sid"] = secret
    session.permanent = request.form.get("remember") == "on"
    return redirect(destination)


def _start_session(db, user_id: int) -> str:
    user = db.get(User, user_id)
    user.bouncing_since = None  # a link sent to the address arrived: mail to it works
    return start_session(db, user)


def _user_for_preferences(token: str) -> int:
    try:
        return read_preferences_token(settings().secret_key, token)
    except (BadSignature, ValueError):
        abort(404)


@bp.route("/preferences/<token>", methods=["GET", "POST"])
def preferences(token):
    user_id = _user_for_preferences(token)
    if request.method == "POST":
        mode = request.form.get("email_mode")
        if mode not in ("every", "digest", "off"):
            return _message("Unknown choice", "Choose every decision, a daily digest, or no email.", 400)
        talk_mail = request.form.get("talk_mail")  # None: as it was
        if talk_mail is not None and talk_mail not in TALK_MAIL_MODES:
            return _message("Unknown choice", "Table talk comes immediately, with your next email, or never.", 400)
        run(lambda db: _save_preferences(db.get(User, user_id), mode, request.form.get("mail_works") == "yes",
                                         talk_mail))
    with reading(db_engine()) as db:
        user = db.get(User, user_id) or abort(404)
        return render_template("pages/preferences.html", user=user, token=token, saved=request.method == "POST")


def _save_preferences(user: User, mode: str, mail_works: bool, talk_mail: str | None) -> None:
    user.email_mode = mode
    user.talk_mail = talk_mail or user.talk_mail
    if mail_works:  # the player says his address takes mail again (it had bounced)
        user.bouncing_since = None


@bp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token):
    user_id = _user_for_preferences(token)
    if request.method == "GET":
        return render_template("pages/unsubscribe.html", token=token)
    run(lambda db: setattr(db.get(User, user_id), "email_mode", "off"))
    return _message("Unsubscribed",
                    "You will get no more game emails. Sign-in links still arrive when you ask for one.")


@bp.get("/dev/mail")
def dev_mail():
    """The local outbox of the embedded service (development mode only): each email
    as its reader sees it, with a box to reply to it through the inbound SMTP server."""
    if not settings().dev_mode:
        abort(404)
    box = mailbox.Maildir(str(settings().maildir), create=True)
    messages = sorted(box.items(), key=lambda item: dev_outbox.sent_at(item[1]), reverse=True)[:100]
    shown = [dev_outbox.shown(key, message) for key, message in messages]
    return render_template("pages/dev_mail.html", messages=shown, replied=request.args.get("replied"))


@bp.post("/dev/mail/<key>/reply")
def dev_mail_reply(key):
    """Send a reply to a local email as its reader's mail program would."""
    if not settings().dev_mode:
        abort(404)
    box = mailbox.Maildir(str(settings().maildir), create=True)
    try:
        original = box[key]
    except KeyError:
        abort(404)
    try:
        dev_outbox.send_reply(original, request.form.get("body", ""), settings().inbound_smtp_port)
    except (OSError, ValueError) as err:
        return _message("The reply was not sent", f"The inbound SMTP server did not take it: {err}", 502)
    return redirect(url_for("links.dev_mail", replied=key))
