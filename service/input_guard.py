"""Refusing request bodies built to break the parsers, before any view (and before
any sign-in check) runs: JSON nested deeper than any request needs, numbers too long
to convert, a JSON body that is not UTF-8, and NUL characters in form fields or the
query (no text column can store them). Each gets a 4xx that says what was wrong."""
from __future__ import annotations

import json
import re

from flask import Flask, jsonify, render_template, request

MAX_JSON_DEPTH = 32
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(body: bytes) -> int:
    """How deep arrays and objects nest in `body` (strings skipped, no parsing)."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', body)):
        depth += 1 if bracket.group() in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


def _refusal(code: str, message: str, status: int = 422):
    if request.path.startswith("/api/"):
        return jsonify({"code": code, "message": message}), status
    return render_template("pages/message.html", title="That was not accepted", text=message), status


def refuse_hostile_input():
    if any("\x00" in value for values in (request.args, request.form) for value in values.values()):
        return _refusal("nul_character", "text may not contain NUL characters")
    if not request.is_json:
        return None
    body = request.get_data(cache=True)
    if json_depth(body) > MAX_JSON_DEPTH:
        return _refusal("too_deep", f"the JSON body is nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as err:  # else json.loads' own error would pass for a number's
        return _refusal("bad_encoding", f"the JSON body is not valid UTF-8 (byte {err.start} cannot start or "
                                        "continue a character); send it as UTF-8", 400)
    try:
        json.loads(body)
    except json.JSONDecodeError:
        return None  # the schema layer answers 400 bad_json
    except (ValueError, RecursionError):
        return _refusal("bad_number", "a number in the JSON body is too long (at most 4300 digits)")
    return None


def install_input_guard(app: Flask) -> None:
    app.before_request(refuse_hostile_input)
