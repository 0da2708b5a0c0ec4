"""Readying a worker before its first task, so that the first emails after a start
are as quick as the others: without this, a fresh mailer process imported the drawing
code, rendered each board's background, loaded the PNG encoder, compiled the email
templates and opened its database and SMTP connections while its first emails waited
(the tail of the commit-to-SMTP latency, docs/benchmarks.md)."""
from __future__ import annotations

import logging

import engine
from workers.emails import compile_templates

log = logging.getLogger(__name__)


def draw_every_game() -> None:
    """Draw the start position of each game that has a picture, and compile the email
    templates. Done in the worker's main process before it forks its pool, every pool
    process starts with the drawing code, the backgrounds and the first pieces."""
    try:
        from service import pictures
    except (ModuleNotFoundError, OSError):  # no cairo: emails go without pictures
        return
    for game_id in pictures.games_with_drawings():
        try:
            rules = engine.get_game(game_id)
            # The most players: every dynasty's or colour's pieces are drawn.
            state = rules.setup(players=rules.max_players, seed=1, options={})
            pictures.board_png(game_id, rules.view(state, 0))
        except Exception:  # noqa: BLE001  (only a warm-up: the emails draw it when needed)
            log.exception("the start position of %s could not be drawn", game_id)
    compile_templates()


def open_connections(database, transport=None, picture_cache=None) -> None:
    """Open this process's database connection (kept in its pool), its SMTP connection
    and its Redis connection for pictures. A server that is down now is only logged:
    the first task will try again and record its failure as usual."""
    try:
        with database.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except Exception as err:  # noqa: BLE001  (a start must not fail on a server that is down)
        log.warning("the database could not be reached at start: %s", err)
    if transport is not None and hasattr(transport, "connect"):
        try:
            transport.connect()
        except OSError as err:
            log.warning("the SMTP server could not be reached at start: %s", err)
    if picture_cache is not None and picture_cache.client is not None:
        try:
            picture_cache.client.ping()
        except Exception as err:  # noqa: BLE001  (pictures are drawn without Redis then)
            log.warning("Redis could not be reached at start for pictures: %s", err)
