"""The `turnpost` command line."""
from __future__ import annotations

import dataclasses
import json
import os
import socket

import click

import engine
from engine.simulate import random_playout


@click.group()
def main() -> None:
    """turnpost: a play-by-email turn service for strategy games."""


def _settings():
    from service.config import Settings

    return Settings()


@main.group()
def db() -> None:
    """The database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Bring the schema up to date (Alembic migrations)."""
    from service.migrate import upgrade

    upgrade(_settings().database_url)
    click.echo("schema is up to date")


@main.group()
def token() -> None:
    """Personal API tokens."""


@token.command("create")
@click.argument("email")
@click.option("--label", default="command line")
def token_create(email: str, label: str) -> None:
    """Create an API token for EMAIL (the account is created if new); printed once."""
    from service.auth import create_api_token, user_for_email
    from service.db import make_engine, transaction

    with transaction(make_engine(_settings().database_url)) as session:
        _, secret = create_api_token(session, user_for_email(session, email), label)
    click.echo(secret)


@main.command()
@click.option("--limit", default=50, show_default=True, help="rows listed per state, newest first")
def outbox(limit: int) -> None:
    """The email outbox: how many rows are sent, waiting, retrying and dead, and the
    retrying and dead rows with their last error, the newest first (the rows that died
    last, the retrying rows written last)."""
    from sqlalchemy import func
    from sqlmodel import col, select

    from service.db import make_engine, reading
    from service.models import Notification as N

    states = {
        "sent": col(N.sent_at).is_not(None),
        "dead": col(N.dead_at).is_not(None),
        "retrying": (col(N.sent_at).is_(None)) & (col(N.dead_at).is_(None)) & (col(N.attempts) > 0),
        "waiting": (col(N.sent_at).is_(None)) & (col(N.dead_at).is_(None)) & (col(N.attempts) == 0),
    }
    with reading(make_engine(_settings().database_url)) as session:
        counts = {state: session.exec(select(func.count()).select_from(N).where(where)).one()
                  for state, where in states.items()}
        click.echo("  ".join(f"{state}: {count}" for state, count in counts.items()))
        newest = {"retrying": (col(N.id).desc(),), "dead": (col(N.dead_at).desc(), col(N.id).desc())}
        for state in ("retrying", "dead"):
            rows = session.exec(select(N).where(states[state]).order_by(*newest[state]).limit(limit)).all()
            for row in rows:
                when = row.dead_at if state == "dead" else row.next_attempt_at
                shown = f"{when:%Y-%m-%d %H:%M:%S} UTC" if when else "now"
                click.echo(f"{state:8} #{row.id} {row.kind} to {row.email}: {row.attempts} attempts, "
                           f"{'dead since' if state == 'dead' else 'next'} {shown}; {row.last_error or ''}")


@main.command("replay-check")
@click.argument("game_id", type=int)
def replay_check(game_id: int) -> None:
    """Rebuild GAME from its seed and move log and compare with its snapshot."""
    from sqlmodel import col, select

    from service.db import make_engine, reading
    from service.models import Move
    from service.play import load_game, replay, rules

    with reading(make_engine(_settings().database_url)) as session:
        game = load_game(session, game_id)
        moves = list(session.exec(select(Move).where(col(Move.game_id) == game_id).order_by(col(Move.seq))))
        rebuilt = rules(game).to_json(replay(game, moves))
    if rebuilt != game.state:
        raise click.ClickException(f"game {game_id}: the replay of {len(moves)} moves differs from the snapshot")
    click.echo(f"game {game_id}: {len(moves)} moves replay to the stored snapshot")


def _demo_title(game_id: str, bots: int, kind: str) -> str:
    """The game's name against its bots: "<game> against 2 greedy bots", "<game> against a strong bot"."""
    import engine

    against = f"a {kind} bot" if bots == 1 else f"{bots} {kind} bots"
    return f"{engine.game_name(game_id)} against {against}"


@main.command()
@click.argument("email")
@click.option("--game", "game_id", default=lambda: engine.game_ids()[0], show_default="the first game",
              help="game id")
@click.option("--bots", default=2, show_default=True, type=click.IntRange(1, 3), help="how many bot seats")
@click.option("--bot", "kind", default="greedy", show_default=True, type=click.Choice(["random", "greedy", "strong"]))
def demo(email: str, game_id: str, bots: int, kind: str) -> None:
    """Start a game for EMAIL against bots; it begins at once. A running turnpost
    (`turnpost serve`, or its workers) plays the bots' turns and sends the emails."""
    from service.api.accounts import request_sign_in
    from service.app import create_app
    from service.auth import user_for_email
    from service.db import transaction
    from service.errors import ServiceError
    from service.migrate import upgrade
    from service.play import InvitationLimits, create_game
    from service.tasks import after_commit

    settings = _settings()
    upgrade(settings.database_url)
    app = create_app(settings)
    try:
        with transaction(app.extensions["turnpost"]["database"]) as session:
            address, sign_in = request_sign_in(session, email, settings.sign_in_minutes)
            user = user_for_email(session, address)
            limits = InvitationLimits(settings.invitations_per_sender, settings.invitations_per_recipient,
                                      settings.bot_games_per_user)
            game, work = create_game(session, user, game_id, bots + 1, invite=[{"bot": kind}] * bots,
                                     title=_demo_title(game_id, bots, kind), limits=limits)
    except ServiceError as err:
        raise click.ClickException(err.message) from None
    if settings.redis_url:  # Celery: hand the work on as the web service does
        from workers.wiring import start_dispatcher

        start_dispatcher(app)
        after_commit(app, *sign_in.ids)
        after_commit(app, *work.ids)
    else:  # embedded: send the emails now; the running server's sweeper plays the bots
        from workers import delivery

        transport = delivery.transport_for(settings)
        for notification_id in sign_in.ids[0] + work.ids[0]:
            delivery.deliver(app.extensions["turnpost"]["database"], settings, notification_id, transport)
    click.echo(f"game {game.id} started: {settings.base_url}/games/{game.id}")
    click.echo(f"a sign-in link for {address} is on its way (embedded: {settings.base_url}/dev/mail)")


def _check_port_free(port: int) -> None:
    """Stop at once, in one line, when the inbound SMTP port is taken: the SMTP server
    would otherwise fail only after its start-up timeout, with a traceback."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise click.ClickException(
                f"the inbound SMTP port 127.0.0.1:{port} is in use (another turnpost serve?); "
                "set INBOUND_SMTP_PORT to a free port") from None


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve(host: str, port: int) -> None:
    """Run the web service (embedded mode: SQLite, in-process work, local mail). Without
    BASE_URL, links in emails point to the host and port served here."""
    from service.app import create_app
    from service.config import served_base_url
    from service.migrate import upgrade
    from workers.inbound_smtp import start_inbound_smtp
    from workers.wiring import start_dispatcher

    settings = _settings()
    _check_port_free(settings.inbound_smtp_port)
    if not os.environ.get("BASE_URL"):
        settings = dataclasses.replace(settings, base_url=served_base_url(host, port))
    if settings.smtp_url:
        from workers.relay_check import exit_unless_relay_usable

        exit_unless_relay_usable(settings)
    upgrade(settings.database_url)
    app = create_app(settings)
    start_dispatcher(app)
    state = app.extensions["turnpost"]
    start_inbound_smtp(settings, state["database"], state["dispatcher"].inbound, "127.0.0.1",
                       settings.inbound_smtp_port)
    click.echo(f"turnpost is running at http://{host}:{port}/  (database: {settings.database_url})")
    click.echo(f"replies to its emails are taken by SMTP at 127.0.0.1:{settings.inbound_smtp_port}")
    app.run(host=host, port=port, threaded=True)


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", default=25, show_default=True, type=int)
def inbound(host: str, port: int) -> None:
    """Receive replies by SMTP for MAIL_DOMAIN and hand them to the Celery workers
    (production: point the domain's MX record at this server; docs/email.md)."""
    import threading

    from service.db import make_engine
    from workers.dispatch import CeleryDispatcher
    from workers.inbound_smtp import start_inbound_smtp

    settings = _settings()
    if not settings.redis_url:
        raise click.ClickException("REDIS_URL is needed: replies are processed by the Celery workers")
    engine_ = make_engine(settings.database_url)
    dispatcher = CeleryDispatcher(settings, engine_)
    start_inbound_smtp(settings, engine_, dispatcher.inbound, host, port)
    click.echo(f"taking replies for @{settings.mail_domain} at {host}:{port}")
    threading.Event().wait()


@main.command()
def relay() -> None:
    """Hand the work that web requests commit (emails, deadlines, bots' turns) to the
    Celery workers: the outbox relay (docs/scaling.md). Needs PostgreSQL and REDIS_URL."""
    import logging
    import signal

    from service.db import make_engine
    from workers.dispatch import CeleryDispatcher
    from workers.outbox_relay import OutboxRelay

    settings = _settings()
    if not settings.redis_url or not settings.database_url.startswith("postgresql"):
        raise click.ClickException("the relay needs PostgreSQL (DATABASE_URL) and REDIS_URL")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    engine_ = make_engine(settings.database_url)
    outbox_relay = OutboxRelay(engine_, settings.queue, CeleryDispatcher(settings, engine_))
    signal.signal(signal.SIGTERM, lambda *_: outbox_relay.stop())
    signal.signal(signal.SIGINT, lambda *_: outbox_relay.stop())
    outbox_relay.run()


@main.command()
@click.option("--game", "game_id", default=lambda: engine.game_ids()[0], show_default="the first game",
              help="game id")
@click.option("--players", default=3, show_default=True, type=click.IntRange(2, 4))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--quiet", is_flag=True, help="print only the result")
def simulate(game_id: str, players: int, seed: int, quiet: bool) -> None:
    """Play one seeded random game and print its course and result."""
    game = engine.get_game(game_id)
    steps = 0
    state = None
    for _, seat, move, state, _ in random_playout(game, players, seed):
        steps += 1
        if not quiet:
            click.echo(f"{steps:4d}  seat {seat}: {game.describe(move)}")
    click.echo(f"{game_id}, {players} players, seed {seed}: {steps} decisions")
    click.echo(json.dumps(game.outcome(state), indent=2))
