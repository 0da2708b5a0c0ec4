"""A bare endpoint that does one small write and one commit on a game's row: the floor
against which the benchmark (`bench/api.py`) measures move submits, on the same games
they play (so the rows are as spread out as theirs). Mounted only when
TURNPOST_BENCH=1."""
from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import text

from service.db import transaction
from service.web import db_engine

bp = Blueprint("bench", __name__)


@bp.post("/api/_bench/commit/<int:game_id>")
def one_commit(game_id: int):
    with transaction(db_engine()) as db:
        # sqlmodel types exec for its own statements; it runs any SQLAlchemy statement.
        db.exec(text("UPDATE game SET version = version WHERE id = :id").bindparams(id=game_id))  # type: ignore[call-overload]
    return jsonify({"ok": True})
