"""The game page's table talk, private notes and replay: the data its partials show
(template globals), the forms they post (with CSRF tokens; no game version, since
none of them changes the game), and the replay's steps as page fragments."""
from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for

from service import play, replay, table_talk
from service.db import reading
from service.errors import ServiceError, Unauthorized
from service.web import current_user, db_engine, run

bp = Blueprint("talk_pages", __name__)


@bp.app_template_global()
def table_talk_for(game_id: int) -> dict:
    """What the table talk partial shows the signed-in reader: the messages (none when
    he muted the table), whether he writes, and his own notes (players only)."""
    with reading(db_engine()) as db:
        user = current_user(db, required=False)
        table = table_talk.table_for(db, game_id, user)
        game = play.load_game(db, game_id)
        seat = play.seat_of_user(db, game, user)
        player = seat is not None and seat.bot is None
        table["note"] = table_talk.note_of(db, game_id, user)["text"] if player and user is not None else None
    table["last_id"] = table["messages"][-1]["id"] if table["messages"] else 0
    if table["muted"]:
        table["messages"] = []
    table["max_chars"] = table_talk.MAX_MESSAGE_CHARS
    return table


@bp.app_template_global()
def replay_steps_for(game_id: int) -> list[dict]:
    """The reader's log as replay steps: one line per entry, who and what."""
    from service.api.games import _hidden_setting, _log_entry, _moves

    with reading(db_engine()) as db:
        user = current_user(db, required=False)
        game = play.load_game(db, game_id)
        seat = play.seat_of_user(db, game, user)
        viewer = seat.seat if seat is not None else None
        rules, names = play.rules(game), _names(db, game)
        shown = [m for m in _moves(db, game) if not _hidden_setting(m, viewer, game, rules)]
        return [{"step": number, "text": _entry_words(rules, _log_entry(move, viewer, game), names)}
                for number, move in enumerate(shown, start=1)]


def _names(db, game) -> dict:
    users = play.users_of(db, game)
    return {s.seat: table_talk.display_name(users.get(s.user_id), s)
            for s in play.seats_of(db, game) if s.seat is not None}


def _entry_words(rules, entry: dict, names: dict) -> str:
    """A log entry in words: what its events say (they name who did what), else the
    move as its player (or anyone, after the end) may read it."""
    said = [text for event in entry["events"] if (text := rules.describe_event(event, names))]
    if said:
        return " ".join(said)
    who = names.get(entry["seat"], f"seat {entry['seat']}")
    if entry["move"] is None:
        return f"{who} made a move you may not see."
    return f"{who}: {rules.describe(entry['move'])}"


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _answer(game_id: int, error: ServiceError | None, done: str):
    """JSON for the page's script, else a redirect back to the panel with a flash."""
    if _wants_json():
        return (jsonify(error.to_dict()), error.status) if error else jsonify(message=done)
    flash(error.message if error else done, "error" if error else "message")
    return redirect(url_for("pages.game_page", game_id=game_id) + "#table-talk")


def _as_user(usecase):
    """Run `usecase(db, user)` for the signed-in user; Unauthorized otherwise."""
    def call(db):
        user = current_user(db, required=False)
        if user is None:
            raise Unauthorized("sign in first")
        return usecase(db, user)
    return call


@bp.post("/games/<id:game_id>/messages")
def post_message(game_id):
    text = request.form.get("text", "")
    try:
        run(_as_user(lambda db, user: table_talk.say(db, game_id, user, text, "page")))
    except ServiceError as err:
        return _answer(game_id, err, "")
    return _answer(game_id, None, "Said at the table.")


@bp.post("/games/<id:game_id>/notes")
def save_notes(game_id):
    text = request.form.get("text", "")
    try:
        run(_as_user(lambda db, user: table_talk.save_note(db, game_id, user, text)))
    except ServiceError as err:
        return _answer(game_id, err, "")
    return _answer(game_id, None, "Your notes are saved.")


@bp.post("/games/<id:game_id>/mute")
def mute(game_id):
    muted = request.form.get("muted") == "yes"
    try:
        run(_as_user(lambda db, user: table_talk.set_muted(db, game_id, user, muted)))
    except ServiceError as err:
        return _answer(game_id, err, "")
    return _answer(game_id, None, "The table is muted for you." if muted else "The table is no longer muted.")


@bp.get("/games/<id:game_id>/replay/<int:step>")
def replay_step(game_id, step):
    """One step of the replay as the page shows it: the board then and the entry."""
    from service.pages import board_markup

    with reading(db_engine()) as db:
        found = replay.step_for(db, game_id, current_user(db, required=False), step)
        game = play.load_game(db, game_id)
        words = _entry_words(play.rules(game), found["entry"], _names(db, game)) if found["entry"] else "The start."
    board = board_markup(game.game_type, found["view"])
    return render_template("pages/_replay_step.html", found=found, board=board, words=words)
