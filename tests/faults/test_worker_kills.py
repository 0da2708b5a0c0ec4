"""The processes delivering email and firing deadlines, run as the Procfile runs them
(a `worker` on the game queue and a `mailer` on the mail queue, each a prefork pool),
killed with SIGKILL at random points during 200 moves: each parent once, and one pool
child of each once. No email lost, at most one duplicate per kill, and none left once
duplicates are recognised by their Message-ID."""
from __future__ import annotations

import contextlib
import os
import random
import signal
import uuid
from collections import Counter
from pathlib import Path

from tests.conftest import Player, start_game
from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows
from tests.workers.test_end_to_end import wait_while_progressing
from workers.app import mail_queue
from workers.compose import message_id

MOVES = 200
# No email sent for this long, with every claim (3 s here) expired and swept (every
# second) twice over, means none will be; a busy machine only makes sending slower.
STALL_SECONDS = 2 * (3 + 2 * 1)
# The Procfile's processes: name, queue and pool size.
PROCESSES = {"worker": ("", 4), "mailer": (".mail", 2)}
KILLS = [("worker", "parent"), ("worker", "child"), ("mailer", "parent"), ("mailer", "child")]


def children(pid: int) -> list[int]:
    """The processes `pid` started (a prefork pool's children), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except FileNotFoundError:
            pass
    return found


def started_at(pid: int) -> str | None:
    """When the process `pid` started (from /proc), to tell it from a later one with its pid."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (FileNotFoundError, IndexError):
        return None


def test_killed_workers_lose_no_email(fault_stack):
    stack = fault_stack
    queue = stack.settings.queue
    stack.beat()

    def start(name: str):
        suffix, size = PROCESSES[name]
        process = stack.worker(queue + suffix if suffix else queue, pool="prefork", concurrency=size)
        wait_for(lambda: len(children(process.pid)) == size, 60, f"the {name}'s pool")
        return process

    assert mail_queue(queue) == queue + PROCESSES["mailer"][0]
    running = {name: start(name) for name in PROCESSES}
    chance = random.Random(12)
    kills = chance.sample(KILLS, len(KILLS))
    kill_at = dict(zip(sorted(chance.sample(range(1, MOVES), len(kills))), kills))
    orphans: list[tuple[int, str | None]] = []  # a killed parent's pool children, which exit once they notice

    def kill(name: str, which: str) -> None:
        parent = running[name]
        pool = children(parent.pid)
        if which == "child":
            os.kill(chance.choice(pool), signal.SIGKILL)  # the parent starts another
            return
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        orphans.extend((pid, started_at(pid)) for pid in pool)
        running[name] = start(name)

    make = lambda name: Player(stack.app, f"{name}-{uuid.uuid4().hex[:8]}@example.org")  # noqa: E731
    emails: set[str] = set()
    moves, game = 0, None
    try:
        while moves < MOVES:
            if moves in kill_at:
                kill(*kill_at.pop(moves))
            if game is None or game["status"] != "active":
                players, game = start_game(make, 2)
                emails |= {p.email for p in players}
            mover = players[int(next(iter(game["pending"])))]
            move = mover.get(f"/api/games/{game['id']}/moves/legal").json["moves"][0]["move"]
            answer = mover.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": game["version"]})
            assert answer.status_code == 200, answer.json
            game, moves = answer.json["game"], moves + 1
        assert not kill_at, "every kill came during the moves"
        sent = lambda: sum(1 for r in owed_rows(stack.engine, emails) if r.sent_at)  # noqa: E731
        wait_while_progressing(lambda: all(r.sent_at for r in owed_rows(stack.engine, emails)), sent, STALL_SECONDS,
                               "every email sent")
    finally:
        for pid, started in orphans:
            if started is not None and started_at(pid) == started:
                with contextlib.suppress(ProcessLookupError):  # it may exit meanwhile
                    os.kill(pid, signal.SIGKILL)
    sent_ids = [message_id(r.message_id, stack.settings.mail_domain) for r in owed_rows(stack.engine, emails)]
    received = Counter(m["Message-ID"] for m in stack.inbox.messages)
    assert all(received[sent_id] >= 1 for sent_id in sent_ids), "an email was lost"
    assert sum(received[sent_id] - 1 for sent_id in sent_ids) <= len(KILLS)
    assert set(received) == set(sent_ids)  # once told apart by Message-ID, each email once
    assert len(sent_ids) > MOVES // 4  # the moves wrote plenty of email to lose
