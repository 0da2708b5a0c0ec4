"""The process delivering email and firing deadlines killed with SIGKILL at random
points during 200 moves: no email lost, at most one duplicate per kill, and none left
once duplicates are recognised by their Message-ID."""
from __future__ import annotations

import random
import signal
import threading
import time
import uuid
from collections import Counter

from tests.conftest import Player, start_game
from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows

MOVES, KILLS = 200, 3


def test_killed_workers_lose_no_email(fault_stack):
    stack = fault_stack
    stack.beat()
    current = [stack.worker()]
    make = lambda name: Player(stack.app, f"{name}-{uuid.uuid4().hex[:8]}@example.org")  # noqa: E731
    emails: set[str] = set()
    kills, stop = [], threading.Event()

    def killer():
        chance = random.Random(12)
        while len(kills) < KILLS and not stop.wait(chance.uniform(0.5, 2.0)):
            current[0].send_signal(signal.SIGKILL)
            current[0].wait(timeout=10)
            kills.append(time.monotonic())
            current[0] = stack.worker()

    thread = threading.Thread(target=killer)
    thread.start()
    moves, game = 0, None
    try:
        while moves < MOVES:
            if game is None or game["status"] != "active":
                players, game = start_game(make, 2)
                emails |= {p.email for p in players}
            mover = players[int(next(iter(game["pending"])))]
            move = mover.get(f"/api/games/{game['id']}/moves/legal").json["moves"][0]["move"]
            answer = mover.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": game["version"]})
            assert answer.status_code == 200, answer.json
            game, moves = answer.json["game"], moves + 1
        played = time.monotonic()
    finally:
        thread.join(timeout=30)
        stop.set()
    assert len(kills) == KILLS and kills[0] < played, "the kills came after the moves"
    wait_for(lambda: all(r.sent_at for r in owed_rows(stack.engine, emails)), 90, "every email sent")
    rows = owed_rows(stack.engine, emails)
    received = Counter(m["Message-ID"] for m in stack.inbox.messages)
    assert all(received[r.message_id] >= 1 for r in rows), "an email was lost"
    duplicates = sum(received[r.message_id] - 1 for r in rows)
    assert duplicates <= KILLS
    assert len(rows) > MOVES // 4  # the moves wrote plenty of email to lose
