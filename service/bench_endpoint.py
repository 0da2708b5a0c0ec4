"""A bare endpoint that does one small write and one commit: the floor against which
the benchmark (`bench/api.py`) measures move submits. Mounted only when
TURNPOST_BENCH=1."""
from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import text

from service.db import transaction
from service.web import db_engine

bp = Blueprint("bench", __name__)


@bp.post("/api/_bench/commit")
def one_commit():
    with transaction(db_engine()) as db:
        db.exec(text("UPDATE game SET version = version WHERE id = 1"))
    return jsonify({"ok": True})
