"""Server-rendered pages: sign-in, my games, a new game, the game page with its
drawn board and the decision owed. Forms carry CSRF tokens and the game's version."""
from __future__ import annotations

import math
import re
from datetime import UTC, datetime

from flask import Blueprint, flash, jsonify, redirect, render_template, request, session, url_for
from markupsafe import Markup

import engine
from engine.core import round_of
from service import pictures, play
from service.api.accounts import request_sign_in
from service.auth import end_sessions
from service.db import reading
from service.errors import Invalid, ServiceError, Unauthorized
from service.invitation_links import safe_next
from service.models import aware
from service.outcome_words import end_reason, final_ranking, winners
from service.preference_links import preferences_token
from service.time_control import duration_words, time_control_words
from service.web import NO_STORE, current_user, db_engine, invitation_limits, present_game, run, settings

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def signed_in_user():
    user = None
    if session.get("sid"):
        with reading(db_engine()) as db:
            user = current_user(db, required=False)
    return {"current_user": user}


def _require_user():
    with reading(db_engine()) as db:
        user = current_user(db, required=False)
    if user is None:
        raise Unauthorized("sign in first")
    return user


@bp.errorhandler(Unauthorized)
def to_sign_in(_err):
    return redirect(url_for("pages.sign_in", next=request.path))


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    heading_to = safe_next(request.values.get("next"))
    if request.method == "POST":
        try:
            run(request_sign_in, request.form.get("email", ""), settings().sign_in_minutes)
        except ServiceError as err:
            flash(err.message, "error")
            return render_template("pages/sign_in.html", next=heading_to), 422
        if heading_to:  # where the link, opened in this browser, leads back to
            session["after_sign_in"] = heading_to
        flash(_on_its_way(settings().dev_mode))
    return render_template("pages/sign_in.html", next=heading_to)


@bp.post("/sign-out")
def sign_out():
    """End this browser's session (with `everywhere`, every session of the user)."""
    if session.get("sid"):
        run(lambda db: end_sessions(db, session["sid"], everywhere=bool(request.form.get("everywhere"))))
    session.clear()
    return redirect(url_for("pages.sign_in"))


@bp.get("/")
def my_games():
    user = _require_user()
    with reading(db_engine()) as db:
        from sqlmodel import select

        from service.models import Game, Seat

        seats = db.exec(select(Seat).where(Seat.user_id == user.id, Seat.status != "declined"))
        games = [present_game(db, db.get(Game, s.game_id), user) for s in seats]
    waiting = lambda g: g["your_seat"] is not None and str(g["your_seat"]) in (g["pending"] or {})  # noqa: E731
    games.sort(key=lambda g: (not waiting(g), g["status"] != "active", -g["id"]))
    rows = [{"game": g, "name": engine.game_name(g["game_type"]), "turn": _turn_words(g),
             "opponents": [p["name"] for p in g["player_list"] if p["player"] != user.id and p["status"] != "declined"]}
            for g in games]
    return render_template("pages/my_games.html", rows=rows, waiting=waiting)


def _turn_words(game: dict) -> str:
    """Whom an active game waits for and until when ("you, until Mon 30 Nov 12:10 UTC;
    bob, until ..."); for any other game its state in words."""
    if game["status"] != "active":
        return {"open": "waiting for players to join"}.get(game["status"], game["status"])
    deciding = [p for p in game["player_list"] if p["seat"] is not None and str(p["seat"]) in (game["pending"] or {})]
    if not deciding:
        return "waiting for the other players"
    return "; ".join(("you" if p["seat"] == game["your_seat"] else p["name"])
                     + (f", until {p['deadline']:%a %d %b %H:%M} UTC" if p["deadline"] else "") for p in deciding)


def _on_its_way(dev_mode: bool):
    if not dev_mode:
        return "A sign-in link is on its way to your inbox."
    return Markup('A sign-in link is on its way: in development mode the emails are at <a href="{}">{}</a>.').format(
        url_for("links.dev_mail"), url_for("links.dev_mail"))


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    user = _require_user()
    if request.method == "GET":
        return _new_game_form({})
    form = request.form
    try:
        game_type = form.get("game", engine.game_ids()[0])  # the registry's first game is the default
        players = _form_count(form, "players", "3", 2, MAX_PLAYERS)
        bots = _form_count(form, "bots", "0", 0, MAX_PLAYERS - 1)
        open_seats = _form_count(form, "open_seats", "0", 0, MAX_PLAYERS - 1)
        invite = [e for e in form.get("invite", "").replace(",", " ").split() if e]
        if len(invite) + bots > players - 1:  # before a list is built from the numbers
            raise Invalid(f"a {players}-player game has room for {players - 1} invitations and bots, "
                          f"not {len(invite) + bots}", code="too_many_invitations")
        invite += [{"bot": form.get("bot_kind", "greedy")}] * bots
        game, _ = run(lambda db: play.create_game(
            db, play.load_user(db, user.id), game_type, players, _form_options(form, game_type, players),
            invite, form.get("seat_order", "fixed"), form.get("spectators") == "on", _form_time_control(form),
            form.get("timeout_policy", "bot"), form.get("title", ""), limits=invitation_limits(),
            rated=form.get("rated") == "on", open_seats=open_seats))
    except ServiceError as err:
        flash(err.message, "error")
        return _new_game_form(form), 422
    except ValueError as err:
        flash(str(err), "error")
        return _new_game_form(form), 422
    return redirect(url_for("pages.game_page", game_id=game.id))


MAX_PLAYERS = 8  # as the API's schema (service/schemas.py)
MAX_MOVE_TEXT = 200  # as the API's schema


def _form_count(form, field: str, default: str, low: int, high: int) -> int:
    """A small whole number typed into a form, checked as text before it is
    converted: a number of twenty digits or of millions is refused, not built on."""
    text = (form.get(field) or "").strip() or default
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(high)) and low <= int(text) <= high):
        raise Invalid(f"{field} must be a whole number from {low} to {high}, not {text[:20]!r}", code=f"bad_{field}")
    return int(text)


def _new_game_form(typed):
    """The new-game form, showing what was typed when it comes back with an error."""
    games = [{"id": gid, "name": engine.game_name(gid), "options": _option_fields(gid),
              "description": engine.get_game(gid).description} for gid in engine.game_ids()]
    return render_template("pages/new_game.html", games=games, typed=typed)


def _option_choices(game_id: str) -> dict[str, tuple]:
    """A game's options and their allowed values, the first being the default."""
    return engine.get_game(game_id).option_choices


def _option_fields(game_id: str) -> list[dict]:
    """A game's options as the form shows them: each labelled and explained in the
    game's words (`option_words`), each choice in words (its value stays the form's)."""
    words = engine.get_game(game_id).option_words()
    return [{"name": name, "label": words[name]["label"], "explains": words[name]["explains"],
             "choices": [{"value": value, "words": words[name]["values"][value]} for value in values],
             "boolean": isinstance(values[0], bool), "default": values[0]}
            for name, values in _option_choices(game_id).items()]


def _form_options(form, game_type: str, players: int) -> dict:
    """The chosen game's options from its fields (`option-<game>-<name>`); a box not
    ticked is False. The game completes them for the number of players (a game may
    need an option for two players that choosing two players means)."""
    if game_type not in engine.game_ids():
        return {}
    options = {}
    for name, values in _option_choices(game_type).items():
        raw = form.get(f"option-{game_type}-{name}")
        if isinstance(values[0], bool):
            options[name] = raw == "on"
        elif raw is not None:
            options[name] = next((value for value in values if str(value) == raw.strip()), None)
            if options[name] is None:
                raise Invalid(f"{name.replace('_', ' ')} must be one of {', '.join(map(str, values))}, "
                              f"not {raw[:20]!r}", code="bad_option")
    return engine.get_game(game_type).form_options(players, options)


def _form_time_control(form) -> dict:
    """Days per decision, extra days per decision made, and the most days a player may
    bank, as the API's time control in seconds."""
    def days(field, default):
        text = form.get(field, "").strip() or default
        try:
            days_text = float(text)
        except ValueError:
            days_text = math.nan
        low = 0.001 if field == "days_per_decision" else 0
        if not low <= days_text <= 90:  # also refuses nan and the infinities
            raise Invalid(f"{field.replace('_', ' ')} must be a number of days from {low:g} to 90, not {text[:20]!r}",
                          code="bad_time_control")
        return days_text

    initial, extension, cap = days("days_per_decision", "3"), days("extra_days", "1"), days("max_days", "7")
    return {"initial_seconds": int(initial * 86400), "extension_seconds": int(extension * 86400),
            "cap_seconds": int(max(cap, initial) * 86400)}


def board_markup(game_type: str, view: dict, highlight=None) -> Markup | None:
    """The drawn board (SVG, escaped by the drawing itself), when the game has one, in a
    box that scrolls: the style sheet keeps the board near its drawn width (the box
    carries it as `--drawn-width`), so its squares stay big enough to tap on a phone."""
    try:
        svg = pictures.board_svg(game_type, view, highlight=highlight)
    except ValueError:
        return None
    width = _DRAWN_WIDTH.search(svg)
    style = Markup(' style="--drawn-width: {}px"').format(f"{float(width.group(1)):g}") if width else ""
    return Markup('<div class="board-box"{}>{}</div>').format(style, Markup(svg))


# The width attribute of a drawing's outer <svg> tag (a tag cannot hold a ">").
_DRAWN_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)"')


@bp.get("/games/<id:game_id>")
def game_page(game_id):
    with reading(db_engine()) as db:
        user = current_user(db, required=False)
        game = play.load_game(db, game_id)
        seat = play.seat_of_user(db, game, user)
        if seat is None and (not game.spectators or user is None):  # watchers sign in first
            return redirect(url_for("pages.sign_in", next=request.path)) if user is None else (
                render_template("pages/message.html", title="Not your game", text="This game has no spectators."), 403)
        data = present_game(db, game, user)
        seats = play.seats_of(db, game)
        votes = sum(1 for s in seats if s.abandon_vote)
        context = {"is_creator": user is not None and game.creator_id == user.id, "abandon_votes": votes,
                   "seat_count": game.players, "game_name": engine.game_name(game.game_type),
                   "game": data, "seat": seat, "legal": [], "choices": [], "prompt": "",
                   "log": [], "turn": None, "board": None, "last_move": [], "winners": None, "final_ranking": [],
                   "end_reason": "", "names": {},
                   "hand_cards": [], "hand_labels": {}, "hand_texts": {},
                   "clocks": seat_clocks(data, seats, datetime.now(UTC)) if game.status == "active" else {},
                   "clock_rule": time_control_words(game.time_control)}
        if game.state is not None:
            rules, state = play.rules(game), play.game_state(game)
            names = {p["seat"]: p["name"] for p in data["player_list"]}
            mine = seat.seat if seat and seat.seat is not None else None
            if mine is not None and game.status == "active":
                legal = rules.legal_moves(state, mine)
                context["legal"] = [_choice(rules, m) for m in legal]
                context["choices"] = [_choice(rules, m, state, mine) for m in _page_choices(rules, state, mine, legal)]
                context["prompt"] = rules.prompt(state, mine, names)
                context["owed"] = rules.pending(state).get(mine)
            context["turn"] = _turn_panel(game, data["view"])
            context["log"] = _game_log(db, game, rules, mine, names, (context["turn"] or {}).get("round"))
            context["names"] = names
            context["end_reason"] = end_reason(rules, game.status, game.result)  # "" while the game goes on
            context["winners"] = winners(game.result, names)
            context["final_ranking"] = final_ranking(game.result, names, rules)
            context["board"] = board_markup(game.game_type, data["view"])
            context["last_move"] = _last_touched_squares(db, game, rules) if context["board"] else []
            context["hand_cards"] = _hand_cards(rules, data["view"], mine)
            context["hand_labels"], context["hand_texts"] = _hand_words(rules, data["view"], mine)
    return render_template("pages/game.html", **context)


def seat_clocks(data: dict, seats: list, now: datetime) -> dict[int, str]:
    """Each seat's clock in words: a deciding seat's time left and its deadline, the
    others' bank of time (what their next decision may take)."""
    deciding = {int(seat) for seat in data["pending"] or {}}
    banks = {s.seat: s.bank_seconds for s in seats if s.seat is not None}
    clocks = {}
    for player in data["player_list"]:
        seat, deadline = player["seat"], player["deadline"]
        if seat is None or player["resigned"] or player["bot"]:
            continue
        if seat in deciding and deadline is not None:
            deadline = aware(deadline)
            clocks[seat] = (f"{duration_words(max(0.0, (deadline - now).total_seconds()))} left, "
                            f"until {deadline:%a %d %b %H:%M} UTC")
        elif seat not in deciding:
            clocks[seat] = f"{duration_words(banks.get(seat, 0.0))} in the bank"
    return clocks


def _hand_cards(rules, view: dict | None, seat: int | None) -> list[dict]:
    """The seat's cards as the game names, draws and explains them (`card_label`,
    `card_picture`, `card_text`), for a game whose hand is a list of cards; empty otherwise."""
    if view is None or seat is None:
        return []
    hand = view["players"][seat].get("hand")
    if not isinstance(hand, list):
        return []
    return [{"label": rules.card_label(card), "picture": Markup(rules.card_picture(card) or ""),
             "text": rules.card_text(card)} for card in hand]


def _hand_words(rules, view: dict | None, seat: int | None) -> tuple[dict, dict]:
    """For a hand held as counts, the names the game gives its cards (`card_label`) and
    what each does (`card_text`)."""
    hand = None if view is None or seat is None else view["players"][seat].get("hand")
    if not isinstance(hand, dict):
        return {}, {}
    return {card: rules.card_label(card) for card in hand}, {card: rules.card_text(card) for card in hand}


@bp.get("/games/<id:game_id>/version")
def game_version(game_id):
    """The game's version, polled by the open game page to know when to refresh."""
    from sqlmodel import select

    from service.models import Game, Seat

    with reading(db_engine()) as db:  # two small reads, never the game's state
        user = current_user(db, required=False)
        row = db.exec(select(Game.version, Game.spectators).where(Game.id == game_id)).first()
        if row is None:
            return jsonify(error="not_found", message=f"no game {game_id}"), 404
        seated = user is not None and db.exec(
            select(Seat.id).where(Seat.game_id == game_id, Seat.user_id == user.id,
                                  Seat.status != "declined")).first() is not None  # as play.seat_of_user
        if not seated and (not row.spectators or user is None):
            return jsonify(error="forbidden", message="only the game's players may follow it"), 403
    response = jsonify(version=row.version)
    response.headers["Cache-Control"] = "no-store"
    return response


def _choice(rules, move: dict, state=None, seat: int | None = None) -> dict:
    """A move as the page offers it; a button (given the position) names what it acts on."""
    description = rules.describe(move) if state is None or seat is None else rules.choice_label(state, seat, move)
    return {"move": move, "text": rules.format_move(move), "description": description}


def _page_choices(rules, state, seat: int, legal: list[dict]) -> list[dict]:
    """The moves offered as buttons: all when few; else the few a game names
    (`link_moves`, such as accepting a bid or raising it) and those of the types it
    names as putting nothing on the board (`unplaced_moves`: pass, withdraw a leader);
    the rest are clicked on the board or typed."""
    if len(legal) <= MAX_PAGE_CHOICES:
        return legal
    named = rules.link_moves(state, seat) or []
    # Moves that put nothing on the board, so the board cannot offer them: always buttons.
    return named + [m for m in legal if m.get("type") in rules.unplaced_moves and m not in named]


MAX_PAGE_CHOICES = 20


def _last_touched_squares(db, game, rules) -> list[str]:
    """The squares the latest move on the board touched (`touched_squares`), which the
    page marks; moves that touch none (support, a bid) are looked past."""
    from sqlmodel import col, select

    from service.models import Move

    recent = db.exec(select(Move.move).where(Move.game_id == game.id).order_by(col(Move.seq).desc())
                     .limit(LAST_MOVE_LOOKBACK))
    return next((squares for move in recent if (squares := rules.touched_squares(move))), [])


LAST_MOVE_LOOKBACK = 12  # moves; a board untouched that long has no last move worth marking


def _game_log(db, game, rules, seat, names, current_round: int | None) -> list[dict]:
    """Every event `seat` may see (his private ones too), oldest first, as log entries:
    a round heading ({"round": n}) or a sentence ({"text": ...}). The games count every
    player's turn, so a round is `players` turns."""
    from sqlmodel import col, select

    from service.models import Move

    rows = db.exec(select(Move).where(col(Move.game_id) == game.id).order_by(col(Move.seq)))
    log: list[dict] = []
    opening = None  # the round of the first turn logged, known from its end
    for row in rows:
        for event in engine.events_for(row.events, seat):
            if event.get("type") == "turn_ended" and "turn" in event:
                opening = opening or round_of(event["turn"], game.players)
                who = names.get(event.get("seat"), f"seat {event.get('seat')}")
                log.append({"text": f"{who}'s turn is over."})
                if event["turn"] % game.players == 0:
                    log.append({"round": round_of(event["turn"] + 1, game.players)})
                continue
            text = rules.describe_event(event, names)
            if text:
                log.append({"text": text})
    return [{"round": opening or current_round or 1}, *log]


def _turn_panel(game, view: dict | None) -> dict | None:
    """The round and actions left, from the view's turn counter (which counts every
    player's turn); None for a game without one."""
    turn = (view or {}).get("turn") if isinstance(view, dict) else None
    if not isinstance(turn, dict) or not isinstance(turn.get("number"), int):
        return None
    return {"round": round_of(turn["number"], game.players), "active": turn.get("active"),
            "actions_left": turn.get("actions_left")}


@bp.post("/games/<id:game_id>/move")
def submit_move(game_id):
    user = _require_user()
    form = request.form
    try:
        version = int(form.get("version", ""))
    except ValueError:
        flash("The form lost the game's version; reload the page.", "error")
        return redirect(url_for("pages.game_page", game_id=game_id))

    text = form.get("text", "").strip()
    if not text:
        flash("Type a move, or choose one on the board.", "error")
        return redirect(url_for("pages.game_page", game_id=game_id))
    if len(text) > MAX_MOVE_TEXT:
        flash(f"A move is at most {MAX_MOVE_TEXT} characters; this one has {len(text)}.", "error")
        return redirect(url_for("pages.game_page", game_id=game_id))

    try:
        run(lambda db: play.submit_user_move(db, game_id, play.load_user(db, user.id), version, text=text))
        flash("Move made.")
    except ServiceError as err:
        if err.status == 409 and err.code == "stale_version":
            flash("The game changed since you loaded this page; here is the current position. "
                  "Nothing was changed.", "error")
        else:
            flash(err.message, "error")
    return redirect(url_for("pages.game_page", game_id=game_id))


@bp.get("/preferences")
def preferences():
    user = _require_user()
    return redirect(url_for("links.preferences", token=preferences_token(settings().secret_key, user.id)))


def _game_action(game_id: int, action, done: str):
    """Runs a state-changing use case from a game page's form, which carries the
    version it was drawn from; a stale one changes nothing and says so."""
    user = _require_user()
    try:
        version = int(request.form.get("version", ""))
    except ValueError:
        flash("The form lost the game's version; reload the page.", "error")
        return redirect(url_for("pages.game_page", game_id=game_id))
    try:
        run(lambda db: action(db, play.load_user(db, user.id), version))
        flash(done)
    except ServiceError as err:
        if err.status == 409 and err.code == "stale_version":
            flash("The game changed since you loaded this page; here is the current position. "
                  "Nothing was changed.", "error")
        else:
            flash(err.message, "error")
    return redirect(url_for("pages.game_page", game_id=game_id))


@bp.post("/games/<id:game_id>/resign")
def resign(game_id):
    return _game_action(game_id, lambda db, user, v: play.resign(db, game_id, user, v), "You resigned from the game.")


@bp.post("/games/<id:game_id>/abandon")
def vote_abandon(game_id):
    return _game_action(game_id, lambda db, user, v: play.vote_abandon(db, game_id, user, v),
                        "Your vote to abandon is counted; the game ends when every player still in it has voted.")


@bp.post("/games/<id:game_id>/invite")
def invite(game_id):
    email = request.form.get("email", "").strip()
    return _game_action(game_id, lambda db, user, v: play.invite(db, game_id, user, email, v,
                                                                 limits=invitation_limits()),
                        f"{email} is invited; an email is on its way.")


@bp.post("/games/<id:game_id>/cancel")
def cancel(game_id):
    return _game_action(game_id, lambda db, user, v: play.cancel(db, game_id, user, v), "The game is cancelled.")


@bp.post("/games/<id:game_id>/respond")
def respond(game_id):
    user = _require_user()
    try:
        run(lambda db: play.respond(db, game_id, play.load_user(db, user.id), request.form.get("answer") == "accept",
                                    int(request.form.get("version", "0"))))
    except (ServiceError, ValueError) as err:
        flash(getattr(err, "message", "reload the page and try again"), "error")
    return redirect(url_for("pages.game_page", game_id=game_id))


@bp.route("/tokens", methods=["GET", "POST"])
def api_tokens():
    """Personal API tokens: create one (its secret shown once, on this answer only),
    see and revoke them."""
    user = _require_user()
    from service import auth

    created = None
    if request.method == "POST":
        label = request.form.get("label", "").strip()
        if not label or len(label) > 80:
            flash("Give the token a name of 1 to 80 characters, to tell it apart later.", "error")
        else:
            created = run(lambda db: auth.create_api_token(db, play.load_user(db, user.id), label)[1])
    status = 422 if request.method == "POST" and created is None else 200
    # A new token's secret is on this answer alone: no cache may keep it.
    return render_template("pages/tokens.html", tokens=_tokens_of(user.id), created=created), status, NO_STORE


@bp.post("/tokens/<id:token_id>/revoke")
def revoke_api_token(token_id):
    user = _require_user()
    from service import auth

    try:
        run(lambda db: auth.revoke_api_token(db, play.load_user(db, user.id), token_id))
        flash(f"The token is revoked; programs using it are refused within {auth.TOKEN_CACHE_SECONDS:g} seconds "
              "(each server process remembers a token's owner that long).")
    except ServiceError as err:
        flash(err.message, "error")
    return redirect(url_for("pages.api_tokens"))


def _tokens_of(user_id: int) -> list:
    from sqlmodel import col, select

    from service.models import ApiToken

    with reading(db_engine()) as db:
        return list(db.exec(select(ApiToken).where(col(ApiToken.user_id) == user_id).order_by(col(ApiToken.id).desc())))
