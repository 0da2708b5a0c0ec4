"""The broker refuses the hand-over after the move committed (Redis out of memory):
the player still gets the committed answer, and the outbox sweep sends the email."""
from __future__ import annotations

import time
from collections import Counter

from tests.conftest import Player, start_game
from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows
from workers.compose import message_id


def test_a_refused_publish_still_answers_the_commit(fault_stack):
    stack = fault_stack
    make = lambda name: Player(stack.app, f"{name}-{time.monotonic_ns()}@example.org")  # noqa: E731
    players, game = start_game(make, 2)
    gid, first = game["id"], game["pending"]
    emails = {p.email for p in players}
    owed = len(owed_rows(stack.engine, emails))

    redis = stack.redis.client()
    redis.config_set("maxmemory", "1")  # every write is refused from now on
    try:
        # Both actions of the turn: the second passes it and writes an email.
        while game["pending"] == first:
            mover = players[int(next(iter(game["pending"])))]
            move = mover.get(f"/api/games/{gid}/moves/legal").json["moves"][0]["move"]
            answer = mover.post(f"/api/games/{gid}/moves", json={"move": move, "version": game["version"]})
            assert answer.status_code == 200, answer.json
            assert answer.json["version"] > game["version"]
            game = mover.get(f"/api/games/{gid}").json
            assert game["version"] == answer.json["version"]
        assert len(owed_rows(stack.engine, emails)) > owed
    finally:
        redis.config_set("maxmemory", "0")

    stack.worker(), stack.beat()
    wait_for(lambda: all(r.sent_at for r in owed_rows(stack.engine, emails)), 60, "the sweep to send every email")
    sent = Counter(m["Message-ID"] for m in stack.inbox.messages)
    domain = stack.settings.mail_domain
    assert all(sent[message_id(r.message_id, domain)] == 1 for r in owed_rows(stack.engine, emails))
