"""Email, links and deadlines end to end: a real Celery worker process, Redis,
PostgreSQL and an SMTP server (aiosmtpd) in this process."""
from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlmodel import select

from service.app import create_app
from service.config import Settings
from service.models import Deadline, Game, Move, Notification
from tests.conftest import Player, put_position
from tests.engine.tigris_positions import revolt_position
from tests.workers.conftest import running_relay
from workers.app import bots_queue, inbound_queue, mail_queue
from workers.compose import message_id
from workers.wiring import start_dispatcher

# In these tests a killed worker's email is taken again this long after it was claimed,
# and the outbox is swept this often (as beat would).
CLAIM_SECONDS, SWEEP_SECONDS = 3, 2
# No email sent for this long, with every claim expired and swept twice, means none will be.
STALL_SECONDS = 2 * (CLAIM_SECONDS + 2 * SWEEP_SECONDS)
LINK = re.compile(r"http://turnpost\.test(/[A-Za-z0-9/._~%-]+)")


def wait_for(condition, timeout=30.0, what="condition", state=None):
    """`condition()`'s value once true; `state()` says what was seen when it never is."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}" + (f": {state()}" if state else ""))


def wait_while_progressing(condition, progress, stall, what="condition", state=None):
    """`condition()`'s value once true, however long that takes while `progress()` keeps
    changing; fails once it has not changed for `stall` seconds (a wait that holds on a
    loaded machine: what counts is that work is still being done)."""
    seen, since = progress(), time.monotonic()
    while True:
        value = condition()
        if value:
            return value
        now = progress()
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since > stall:
            raise AssertionError(f"no progress for {stall} s waiting for {what}" + (f": {state()}" if state else ""))
        time.sleep(0.1)


def wait_until_ready(process, log, most=600.0):
    """Until the worker says it is ready (Celery's "ready." line): its start-up (imports, a
    mailer's drawings) takes what the machine gives it, so the wait ends when the process
    is ready or has exited; `most` only stops a start that hangs."""
    wait_for(lambda: process.poll() is not None or b" ready." in log.read_bytes(), most, "the worker to start")
    assert process.poll() is None, f"the worker exited: {log.read_text()[-2000:]}"


@pytest.fixture
def stack(database_url, smtp_server, redis_client, tmp_path):
    """The web app on Celery + Redis, and a way to run (and kill) a worker process."""
    queue = f"turnpost-test-{uuid.uuid4().hex[:12]}"
    settings = Settings(database_url=database_url, redis_url="redis://127.0.0.1:6379/0", smtp_url=smtp_server.url,
                        base_url="http://turnpost.test", secret_key="e2e-secret", queue=queue,
                        maildir=tmp_path, sign_in_limit="1000 per minute")
    app = create_app(settings)
    app.config["TESTING"] = True
    start_dispatcher(app)
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": settings.redis_url, "SMTP_URL": smtp_server.url,
           "SECRET_KEY": "e2e-secret", "BASE_URL": "http://turnpost.test", "TURNPOST_QUEUE": queue,
           "MAIL_CLAIM_SECONDS": str(CLAIM_SECONDS)}  # a killed worker's row is taken again 3 s on
    workers = []
    all_queues = (queue, mail_queue(queue), inbound_queue(queue), bots_queue(queue))

    @contextmanager
    def worker(queues=all_queues, pool=("--pool=solo",), extra_env=None):
        """A worker process on `queues` (all four by default; `pool`: Celery's options),
        once it is ready to take tasks."""
        log = tmp_path / f"worker-{len(workers)}.log"
        with open(log, "wb") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "workers.app", "worker", *pool, "-Q", ",".join(queues),
                 "--loglevel=info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
                env={**env, **(extra_env or {})}, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        process.log = log
        workers.append(process)
        try:
            wait_until_ready(process, log)
            yield process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:  # a task it waits for (a bot's long search): stop its pool too
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()

    with running_relay(app):
        stack = type("Stack", (), {"app": app, "settings": settings, "worker": staticmethod(worker),
                                   "inbox": smtp_server, "engine": app.extensions["turnpost"]["database"],
                                   "redis": redis_client})()
        yield stack
    for process in workers:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    for key in redis_client.scan_iter(queue + "*"):
        redis_client.delete(key)
    redis_client.delete(queue)


def mails_to(inbox, email):
    return [m for m in inbox.messages if m["To"] == email]


def settle(stack, game_id):
    """Wait until every outbox row of the game has been delivered."""
    from service.db import transaction

    def all_sent():
        with transaction(stack.engine) as db:
            return not db.exec(select(Notification).where(
                Notification.game_id == game_id, Notification.sent_at.is_(None))).first()
    wait_for(all_sent, what="the outbox to empty")


def version_of(stack, game_id):
    from service.db import transaction

    with transaction(stack.engine) as db:
        return db.get(Game, game_id).version


def test_a_move_emails_the_next_decider_once_and_links_are_safe(stack):
    ann, bob = (Player(stack.app, f"ann-{uuid.uuid4().hex[:8]}@example.org"),
                Player(stack.app, f"bob-{uuid.uuid4().hex[:8]}@example.org"))
    with stack.worker():
        game = ann.post("/api/games", json={"game": "tigris", "players": 2, "invite": [bob.email]}).json
        game = bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json
        gid = game["id"]
        wait_for(lambda: mails_to(stack.inbox, bob.email), what="the invitation")
        # A revolt: Ann (seat 0) attacks Bob's priest; the defence is Bob's to decide.
        version = put_position(stack.engine, gid, revolt_position({0: {"red": 3}, 1: {"red": 2, "blue": 4}}))
        settle(stack, gid)
        before = len(mails_to(stack.inbox, bob.email))
        version = ann.post(f"/api/games/{gid}/moves",
                           json={"text": "leader priest H4", "version": version}).json["version"]
        version = ann.post(f"/api/games/{gid}/moves", json={"text": "support 2", "version": version}).json["version"]
        mail = wait_for(lambda: mails_to(stack.inbox, bob.email)[before:], what="the decision email")[0]
        time.sleep(1.0)
        assert len(mails_to(stack.inbox, bob.email)) == before + 1  # exactly one
        text = mail.get_body(("plain",)).get_content()
        assert "You defend" in text and "plus 2 committed" in text
        assert "commit 0 supporters: http://turnpost.test/a/" in text
        assert mail["List-Unsubscribe"] and mail["Message-ID"]
        has_drawing = importlib.util.find_spec("service.pictures") is not None
        assert any(p.get_content_type() == "image/png" for p in mail.walk()) == has_drawing
        links = LINK.findall(text)
        action = next(path for path in links if path.startswith("/a/"))
        page = None
        client = stack.app.test_client()
        for path in links:  # a mail scanner opens every link, three times
            for _ in range(3):
                answer = client.get(path)
                assert answer.status_code < 500
                if path == action:
                    page = answer.get_data(as_text=True)
        assert version_of(stack, gid) == version, "a GET changed the game"
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        assert client.post(action, data={}).status_code == 400  # no CSRF token: refused
        assert version_of(stack, gid) == version
        answer = client.post(action, data={"csrf_token": csrf})
        assert answer.status_code == 200 and "Your move was made" in answer.get_data(as_text=True)
        assert version_of(stack, gid) > version
        replay = client.post(action, data={"csrf_token": csrf})
        assert replay.status_code == 409 and "out of date" in replay.get_data(as_text=True)


def test_killed_workers_lose_no_email_and_duplicates_are_recognisable(stack):
    from service.api.accounts import request_sign_in
    from service.db import transaction
    from workers.tasks import sweep_outbox

    ids = []
    with transaction(stack.engine) as db:
        for n in range(120):
            _, work = request_sign_in(db, f"kill{n}-{uuid.uuid4().hex[:6]}@example.org", 30)
            ids.extend(work.ids[0])
    stack.app.extensions["turnpost"]["dispatcher"].dispatch(ids, [])
    kills = 0
    for _ in range(3):
        with stack.worker() as process:
            seen = len(stack.inbox.messages)
            wait_while_progressing(lambda seen=seen: len(stack.inbox.messages) > seen + 5,
                                   lambda: len(stack.inbox.messages),
                                   STALL_SECONDS, what="some deliveries")
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            kills += 1
    with stack.worker():
        swept = [0.0]

        def all_sent():
            # As beat does: the sweep re-enqueues what the killed workers had taken,
            # once the queue has drained.
            if time.monotonic() - swept[0] > SWEEP_SECONDS:
                sweep_outbox.delay(0)
                swept[0] = time.monotonic()
            with transaction(stack.engine) as db:
                rows = db.exec(select(Notification).where(Notification.id.in_(ids))).all()
                return all(r.sent_at for r in rows) and rows
        def unsent():
            with transaction(stack.engine) as db:
                return [(r.id, r.attempts, r.claimed_until, r.next_attempt_at, r.dead_at, r.last_error)
                        for r in db.exec(select(Notification).where(Notification.id.in_(ids),
                                                                    Notification.sent_at.is_(None)))][:5]
        rows = wait_while_progressing(all_sent, lambda: len(stack.inbox.messages), STALL_SECONDS,
                                      what="every row sent", state=unsent)
    received = [m["Message-ID"] for m in stack.inbox.messages]
    expected = {message_id(r.message_id, stack.settings.mail_domain) for r in rows}
    assert expected <= set(received), "an email was lost"
    duplicates = sum(received.count(mid) - 1 for mid in expected)
    assert duplicates <= kills


def started_timed_game(stack):
    """Two new players in a started Tigris game with 2 days per decision (3 at most)."""
    ann, bob = (Player(stack.app, f"ann-{uuid.uuid4().hex[:8]}@example.org"),
                Player(stack.app, f"bob-{uuid.uuid4().hex[:8]}@example.org"))
    game = ann.post("/api/games", json={"game": "tigris", "players": 2, "invite": [bob.email],
                                         "time_control": {"initial_seconds": 2 * 86400, "cap_seconds": 3 * 86400}}).json
    return ann, bob, bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json


def test_deadlines_remind_once_time_out_and_survive_a_redis_flush(stack):
    from service.db import transaction
    from workers.tasks import sweep_deadlines

    ann, bob, game = started_timed_game(stack)
    gid = game["id"]
    seat = int(next(iter(game["pending"])))
    late = (ann, bob)[seat]
    with transaction(stack.engine) as db:
        started = db.get(Game, gid).started_at

    def sweep(hours):
        sweep_deadlines.delay((started + timedelta(hours=hours)).timestamp())

    def kinds(email):
        return [m["Subject"] for m in mails_to(stack.inbox, email)]

    with stack.worker():
        wait_for(lambda: any("your decision" in s for s in kinds(late.email)), what="the first decision email")
        sweep(1)
        sweep(25)  # past the 24-hours-before reminder
        wait_for(lambda: any("reminder" in s for s in kinds(late.email)), what="the first reminder")
        sweep(25)
        sweep(26)
        # Let those sweeps finish first: one still rebuilding the set while its keys go
        # would leave it marked built but missing entries (recover_deadlines, not run
        # here, would mirror them again after a minute).
        wait_for(lambda: stack.redis.llen(stack.settings.queue) == 0, what="the sweeps to be taken")
        time.sleep(1.0)
        for key in stack.redis.scan_iter(stack.settings.queue + ":*"):
            stack.redis.delete(key)  # Redis lost everything: the set is rebuilt from the database
        sweep(47)  # past the 2-hours-before reminder
        wait_for(lambda: sum("reminder" in s for s in kinds(late.email)) == 2, what="the second reminder")
        sweep(49)  # past the deadline: the service plays the late seat's default moves
        other = (ann, bob)[1 - seat]
        wait_for(lambda: any("deadline passed" in s for s in kinds(other.email)), what="the deadline-passed email")
        sweep(49)
        time.sleep(1.5)
    assert sum("reminder" in s for s in kinds(late.email)) == 2
    with transaction(stack.engine) as db:
        moves = db.exec(select(Move).where(Move.game_id == gid)).all()
        assert moves and all(m.by_service and m.seat == seat for m in moves)
        fired = db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.outcome == "fired")).all()
        assert sorted(d.kind for d in fired) == ["reminder", "reminder", "timeout"]
    state = late.get(f"/api/games/{gid}").json
    assert str(1 - seat) in state["pending"]


def test_deadlines_popped_and_lost_are_mirrored_again_and_fire(stack):
    from service.db import transaction
    from workers.tasks import recover_deadlines, sweep_deadlines

    _, _, game = started_timed_game(stack)
    gid = game["id"]
    with transaction(stack.engine) as db:
        started = db.get(Game, gid).started_at
        open_ids = {str(d.id) for d in db.exec(select(Deadline).where(Deadline.game_id == gid))}
    later = (started + timedelta(hours=49)).timestamp()
    key = stack.settings.queue + ":turnpost:deadlines"

    def fired():
        with transaction(stack.engine) as db:
            return db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.outcome == "fired")).all()

    with stack.worker():
        sweep_deadlines.delay(started.timestamp())  # builds the mirror from the database if no sweep has yet
        wait_for(lambda: stack.redis.exists(key + ":built")
                 and open_ids <= set(m.decode() for m in stack.redis.zrange(key, 0, -1)),
                 what="the mirror")
        stack.redis.zrem(key, *open_ids)  # popped by a sweeper that died before handing them on
        sweep_deadlines.delay(later)
        time.sleep(1.5)
        assert fired() == []
        recover_deadlines.delay(60, later)
        wait_for(lambda: open_ids <= set(m.decode() for m in stack.redis.zrange(key, 0, -1)), what="the mirror again")
        sweep_deadlines.delay(later)
        wait_for(lambda: len(fired()) == 3, what="the recovered deadlines firing")
    assert sorted(d.kind for d in fired()) == ["reminder", "reminder", "timeout"]


def test_a_reply_by_smtp_becomes_a_move_through_the_celery_worker(stack):
    """The production path: the inbound SMTP server stores the reply and hands it to a
    Celery worker, which applies the move and mails the answer in its thread."""
    import smtplib

    from tests.workers.conftest import free_port
    from tests.workers.mail_players import reply_address_of
    from workers.inbound_smtp import start_inbound_smtp

    port = free_port()
    server = start_inbound_smtp(stack.settings, stack.engine, stack.app.extensions["turnpost"]["dispatcher"].inbound,
                                "127.0.0.1", port)
    try:
        with stack.worker():
            turn, sent, player, gid, version = _a_reply_to_the_first_turn(stack)
            with smtplib.SMTP("127.0.0.1", port) as client:
                client.send_message(sent, to_addrs=[reply_address_of(turn)])
            _answer_applied(stack, sent, player, gid, version)
    finally:
        server.stop()


def test_a_reply_posted_to_the_http_endpoint_becomes_a_move_through_the_celery_worker(stack):
    """A mail provider's webhook: the signed raw message is stored by the web app and
    handed to a Celery worker, which applies the move and mails the answer in its thread."""
    from urllib.parse import urlencode

    from tests.workers.mail_players import inbound_signature, reply_address_of

    stack.settings.inbound_secret = "provider-secret"
    with stack.worker():
        turn, sent, player, gid, version = _a_reply_to_the_first_turn(stack)
        raw, recipient = sent.as_bytes(), reply_address_of(turn)
        posted = stack.app.test_client().post(
            "/api/inbound/mime?" + urlencode({"recipient": recipient, "sender": player.email}), data=raw,
            headers={"X-Turnpost-Signature": inbound_signature("provider-secret", raw, recipient, player.email)})
        assert posted.status_code == 202 and posted.json["duplicate"] is False, posted.json
        _answer_applied(stack, sent, player, gid, version)


def _a_reply_to_the_first_turn(stack):
    """A two-player Tigris game started through the API, and a reply with a legal move
    to its first turn email: (that email, the reply, its player, the game id, the version)."""
    from engine import get_game
    from service.db import transaction
    from tests.workers.mail_players import reply

    ann, bob = (Player(stack.app, f"ann-{uuid.uuid4().hex[:8]}@example.org"),
                Player(stack.app, f"bob-{uuid.uuid4().hex[:8]}@example.org"))
    game = ann.post("/api/games", json={"game": "tigris", "players": 2, "invite": [bob.email]}).json
    game = bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json
    gid = game["id"]
    turn = wait_for(lambda: [m for m in stack.inbox.messages if "your decision" in m["Subject"]],
                    what="a turn email")[0]
    player = ann if turn["To"] == ann.email else bob
    rules = get_game("tigris")
    with transaction(stack.engine) as db:
        state = rules.from_json(db.get(Game, gid).state)
    seat = next(iter(rules.pending(state)))
    move = rules.format_move(next(m for m in rules.legal_moves(state, seat) if m["type"] == "place_tile"))
    return turn, reply(turn, move, player.email), player, gid, version_of(stack, gid)


def _answer_applied(stack, sent, player, gid, version) -> None:
    from tests.workers.mail_players import text_of

    answer = wait_for(lambda: [m for m in mails_to(stack.inbox, player.email)
                               if m["In-Reply-To"] == sent["Message-ID"]],
                      what="the answer to the reply")[0]
    assert "Applied:" in text_of(answer) and "second action" in text_of(answer)
    assert version_of(stack, gid) == version + 1
