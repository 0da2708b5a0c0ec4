"""Bots' turns on the bots' queue, in worker processes of their own (the Procfile's
`bots`, a prefork pool, which is what enforces Celery's time limits): a search cut
short or killed still ends in a move, and a flood of bot games by one user does not
hold up another user's deadline and email, which the other processes handle."""
from __future__ import annotations

import time
import uuid
from datetime import timedelta

from sqlmodel import col, select

import engine
from engine.bots import get_bot
from service.bots import CUT_SHORT_STAND_IN, bot_inputs, bot_seed
from service.db import transaction
from service.models import Deadline, Game, Move, Seat
from tests.conftest import Player
from tests.workers.test_end_to_end import mails_to, stack, started_timed_game, wait_for, wait_while_progressing  # noqa: F401 (stack: a fixture)
from workers.app import bots_queue, mail_queue

# A search that would take minutes: only the time limits end it.
ENDLESS_SEARCH = {"BOT_SEARCH_ITERATIONS": "200000"}
BOTS_PROCESS = ("--pool=prefork", "--concurrency=1")


def first_turn(player, gid) -> None:
    """The player's first turn (two tile placements), if the game starts with him; else
    the bots' turns come first."""
    for _ in range(2):
        game = player.get(f"/api/games/{gid}").json
        if str(game["your_seat"]) not in game["pending"]:
            return
        legal = player.get(f"/api/games/{gid}/moves/legal").json["moves"]
        tile = next(m["move"] for m in legal if m["move"]["type"] == "place_tile")
        answer = player.post(f"/api/games/{gid}/moves", json={"move": tile, "version": game["version"]})
        assert answer.status_code == 200, answer.json


def human_against_strong_bot(stack):
    """A two-player Tigris game of a new player against a strong bot, with the
    player's first turn made if he starts: the bot owes its turn. (player, game id)."""
    human = Player(stack.app, f"solo-{uuid.uuid4().hex[:8]}@example.org")
    gid = human.post("/api/games", json={"game": "tigris", "players": 2, "invite": [{"bot": "strong"}]}).json["id"]
    first_turn(human, gid)
    return human, gid


def bot_moves(stack, gid) -> tuple[list[dict], list[dict], list[dict]]:
    """The bot seat's moves as logged, what the random bot and what the strong bot
    would have chosen at each, replaying the game from its seed."""
    rules = engine.get_game("tigris")
    with transaction(stack.engine) as db:
        game = db.get(Game, gid)
        assert game is not None
        moves = list(db.exec(select(Move).where(Move.game_id == gid).order_by(col(Move.seq))))
    bot_seat = next(s.seat for s in db_seats(stack, gid) if s.bot)
    assert game.seed is not None, "a started game has its seed"
    state = rules.setup(game.players, game.seed, game.options)
    played: list[dict] = []
    random_choices: list[dict] = []
    strong_choices: list[dict] = []
    for row in moves:
        if row.seat == bot_seat:
            view, legal = bot_inputs(rules, state, bot_seat)
            seed = bot_seed(gid, bot_seat)
            played.append(row.move)
            random_choices.append(get_bot("tigris", CUT_SHORT_STAND_IN, seed).choose(view, legal))
            strong_choices.append(get_bot("tigris", "strong", seed).choose(view, legal))
        state, _ = rules.apply(state, row.seat, row.move)
    return played, random_choices, strong_choices


def db_seats(stack, gid):
    with transaction(stack.engine) as db:
        return list(db.exec(select(Seat).where(Seat.game_id == gid)))


def bot_turn_played(stack, gid, human):
    def played():
        game = human.get(f"/api/games/{gid}").json
        with transaction(stack.engine) as db:
            bot_moved = db.exec(select(Move).where(Move.game_id == gid, Move.seat != game["your_seat"])).first()
        return bot_moved is not None and str(game["your_seat"]) in game["pending"]
    return played


def test_a_search_cut_short_by_the_soft_time_limit_is_played_by_the_random_bot(stack):
    queue = stack.settings.queue
    with stack.worker((queue, mail_queue(queue))), \
            stack.worker((bots_queue(queue),), BOTS_PROCESS, {**ENDLESS_SEARCH, "TURNPOST_BOT_SOFT_SECONDS": "1"}):
        human, gid = human_against_strong_bot(stack)
        # Bounded by the hard limit (soft + 10 s) and the time to start again, not by the search.
        wait_for(bot_turn_played(stack, gid, human), timeout=120, what="the bot's turn")
    played, random_choices, strong_choices = bot_moves(stack, gid)
    assert played and played == random_choices
    assert played != strong_choices, "the strong bot would have played these moves too: nothing tells them apart"


def test_a_bot_turn_killed_at_the_hard_time_limit_is_played_by_the_random_bot_once_recovered(stack):
    from workers.tasks import recover_deadlines, sweep_deadlines

    queue = stack.settings.queue
    with stack.worker((queue, mail_queue(queue))), \
            stack.worker((bots_queue(queue),), BOTS_PROCESS,
                         {**ENDLESS_SEARCH, "TURNPOST_BOT_SOFT_SECONDS": "600", "TURNPOST_BOT_HARD_SECONDS": "2"}):
        human, gid = human_against_strong_bot(stack)

        def killed_and_open():
            with transaction(stack.engine) as db:
                turn = db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.kind == "bot")).one()
            tried = stack.redis.get(f"{queue}:bot-turn-tries:{turn.id}")
            return tried is not None and turn.done_at is None and stack.redis.llen(bots_queue(queue)) == 0

        wait_for(killed_and_open, timeout=60, what="the bot's turn to be tried")
        # What beat does: mirror again the deadlines left open, and sweep them.
        played = bot_turn_played(stack, gid, human)

        swept = [0.0]

        def recovered():
            if time.monotonic() - swept[0] > 2:  # as beat does, less often
                recover_deadlines.delay(0)
                sweep_deadlines.delay()
                swept[0] = time.monotonic()
            return played()

        wait_for(recovered, timeout=120, what="the recovered turn to be played")
    played, random_choices, _ = bot_moves(stack, gid)
    assert played and played == random_choices


def test_a_bot_flood_by_one_user_does_not_hold_up_another_users_deadline_and_email(stack):
    """One user at the limit of games with strong bots (10, each with 3) starts them
    all; meanwhile another game's deadline passes. Its email goes out while the
    flood's first round of bot turns is still being played."""
    from workers.tasks import sweep_deadlines

    queue = stack.settings.queue
    limit = stack.settings.bot_games_per_user
    flooder = Player(stack.app, f"flood-{uuid.uuid4().hex[:8]}@example.org")
    with stack.worker((queue, mail_queue(queue))), stack.worker((bots_queue(queue),), BOTS_PROCESS):
        ann, bob, timed = started_timed_game(stack)
        late_seat = int(next(iter(timed["pending"])))
        other = (ann, bob)[1 - late_seat]
        wait_for(lambda: mails_to(stack.inbox, (ann, bob)[late_seat].email), what="the first decision email")
        against_bots = {"game": "tigris", "players": 4, "invite": [{"bot": "strong"}] * 3}
        flood = [flooder.post("/api/games", json=against_bots).json for _ in range(limit)]
        assert flooder.post("/api/games", json=against_bots).status_code == 422  # the limit
        for game in flood:  # the flooder's first turns: then three strong bots each
            first_turn(flooder, game["id"])
        flood_ids = [game["id"] for game in flood]

        def bot_turns_played():
            with transaction(stack.engine) as db:
                return len(db.exec(select(Deadline).where(Deadline.game_id.in_(flood_ids), Deadline.kind == "bot",
                                                          Deadline.outcome == "fired")).all())

        with transaction(stack.engine) as db:
            started = db.get(Game, timed["id"]).started_at
        before = bot_turns_played()
        assert before < limit, "the flood was over before the deadline passed"
        sweep_deadlines.delay((started + timedelta(hours=49)).timestamp())  # past the late seat's deadline
        wait_for(lambda: [m for m in mails_to(stack.inbox, other.email) if "deadline passed" in m["Subject"]],
                 timeout=120, what="the deadline-passed email")
        meanwhile = bot_turns_played() - before
    # Both kinds of work shared the machine, but the deadline's did not wait behind the
    # bots' turns (each about two seconds of search) queued before it.
    assert meanwhile < limit // 2, f"{meanwhile} bot turns were played before the deadline's email"


def test_beat_sweeps_left_waiting_expire_instead_of_piling_up(stack):
    """Sweeps sent as beat sends them while no worker takes them (a backlog) are
    dropped once they expire: the deadlines they would have fired wait for a later
    sweep, which fires them."""
    from workers.app import celery
    from workers.tasks import sweep_deadlines

    ann, bob, timed = started_timed_game(stack)
    gid = timed["id"]
    with transaction(stack.engine) as db:
        started = db.get(Game, gid).started_at
    past_the_deadline = (started + timedelta(hours=49)).timestamp()
    options = celery.conf.beat_schedule["sweep-deadlines"]["options"]
    sent_at = time.monotonic()
    for _ in range(3):
        sweep_deadlines.apply_async((past_the_deadline,), **options)
    time.sleep(max(0.0, options["expires"] - (time.monotonic() - sent_at)) + 0.5)

    def fired():
        with transaction(stack.engine) as db:
            return db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.outcome == "fired")).all()

    key = stack.settings.queue + ":turnpost:deadlines"
    with stack.worker() as worker:
        # The worker logs each task it takes: while its log grows, it is still at work.
        working = lambda: worker.log.stat().st_size  # noqa: E731
        sweep_deadlines.delay(started.timestamp())  # a sweep that never expires: nothing is due yet
        wait_while_progressing(lambda: stack.redis.exists(key + ":built"), working, 30, what="the sweep in time")
        assert fired() == [], "an expired sweep ran"
        sweep_deadlines.delay(past_the_deadline)
        wait_while_progressing(lambda: len(fired()) == 3, working, 30, what="a later sweep to fire the deadlines")


def test_a_bot_turn_waiting_in_its_queue_is_not_mirrored_again_until_the_queue_drains(stack, monkeypatch):
    """recover_deadlines, run here in the test's process as a worker runs it."""
    from workers import tasks

    queue = stack.settings.queue
    for name, value in {"DATABASE_URL": stack.settings.database_url, "REDIS_URL": stack.settings.redis_url,
                        "TURNPOST_QUEUE": queue, "SECRET_KEY": "e2e-secret"}.items():
        monkeypatch.setenv(name, value)
    tasks._runtime.cache_clear()
    tasks._dispatcher.cache_clear()
    try:
        human, gid = human_against_strong_bot(stack)  # no worker: the turn waits in the bots' queue
        with transaction(stack.engine) as db:
            turn = str(db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.kind == "bot")).one().id)
        key = queue + ":turnpost:deadlines"
        mirrored = lambda: {m.decode() for m in stack.redis.zrange(key, 0, -1)}  # noqa: E731
        # The relay hands the committed turn to the bots' queue once it hears of it.
        wait_for(lambda: stack.redis.llen(bots_queue(queue)) == 1, what="the bot's turn in its queue")
        assert turn not in mirrored()
        tasks.recover_deadlines.run(0)
        assert turn not in mirrored()
        stack.redis.delete(bots_queue(queue))  # the queue drained, and the turn was lost with a worker
        tasks.recover_deadlines.run(0)
        assert turn in mirrored()
    finally:
        tasks._runtime.cache_clear()
        tasks._dispatcher.cache_clear()
