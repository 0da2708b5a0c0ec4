"""An answer written as its marshmallow schema would dump it, without marshmallow's
per-field machinery: for the answers of the busiest requests (a move's), where the
schema's dump of the whole game cost a twentieth of the request. The schema stays what
documents the answer (flask-smorest builds the OpenAPI document from it) and what every
other answer is dumped by; tests/service/test_plain_dump.py checks that both dumps of
real answers agree.

Only fields that copy their value (renamed by `attribute` or `data_key`), date-times
(ISO 8601, as marshmallow writes them) and nested schemas are understood: a schema with
another kind of field is refused when its plan is made, not dumped wrongly.
"""
from __future__ import annotations

from functools import lru_cache

import orjson
from flask import Response, current_app
from marshmallow import Schema, fields

# Fields whose dump is their value as it is, for the values the service puts in them.
_COPIED = (fields.Integer, fields.String, fields.Boolean, fields.Dict)


@lru_cache(maxsize=32)
def _plan(schema_class: type[Schema]) -> tuple:
    """(key written, attribute read, how: "copy" | "time" | "one" | "many", nested plan)."""
    plan = []
    for name, field in schema_class().dump_fields.items():
        key, attribute = field.data_key or name, field.attribute or name
        nested, how = None, "copy"
        if isinstance(field, fields.List) and isinstance(field.inner, fields.Nested):
            nested, how = _plan(type(field.inner.schema)), "many"
        elif isinstance(field, fields.Nested):
            nested, how = _plan(type(field.schema)), "many" if field.many else "one"
        elif isinstance(field, fields.DateTime):
            how = "time"
        elif isinstance(field, fields.List) and isinstance(field.inner, _COPIED) or isinstance(field, _COPIED):
            pass
        else:
            raise TypeError(f"{schema_class.__name__}.{name}: a {type(field).__name__} is not dumped plainly")
        plan.append((key, attribute, how, nested))
    return tuple(plan)


def _dump(plan: tuple, data: dict) -> dict:
    dumped: dict = {}
    for key, attribute, how, nested in plan:
        if attribute not in data:
            continue  # as marshmallow leaves out an attribute the object lacks
        value = data[attribute]
        if value is None:
            dumped[key] = None
        elif how == "copy":
            dumped[key] = value
        elif how == "time":
            dumped[key] = value.isoformat()
        elif how == "one":
            dumped[key] = _dump(nested, value)
        else:
            dumped[key] = [_dump(nested, item) for item in value]
    return dumped


def plain_dump(schema_class: type[Schema], data: dict) -> dict:
    """`data` (a dict) as `schema_class().dump(data)` gives it."""
    return _dump(_plan(schema_class), data)


def answer_body(schema_class: type[Schema], data: dict) -> bytes:
    """The JSON text of `data` dumped by `schema_class`: keys sorted and keys that are
    not strings written as strings, as Flask's own JSON answers have them."""
    return orjson.dumps(plain_dump(schema_class, data), option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def json_answer(schema_class: type[Schema], data: dict) -> Response:
    """The JSON answer of `data` dumped by `schema_class`."""
    return current_app.response_class(answer_body(schema_class, data) + b"\n", mimetype="application/json")
