"""The Redis mirror of the deadline table: a sorted set of deadline ids scored by due
time. The database stays the truth; this set only makes "what is due now?" cheap.

A marker key says the set was built from the database; if Redis lost its data the
marker is gone too and the sweeper rebuilds the set before popping anything.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import redis

KEY = "turnpost:deadlines"
MARKER = "turnpost:deadlines:built"

# Take up to ARGV[2] members due at ARGV[1] or earlier and remove them, atomically, so
# two sweepers never both receive the same deadline.
POP_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
"""


class DeadlineQueue:
    def __init__(self, client: redis.Redis, prefix: str = ""):
        self.client = client
        self.key = prefix + KEY
        self.marker = prefix + MARKER
        self._pop_due = client.register_script(POP_DUE)

    def add_many(self, entries: list[tuple[int, float]], pipeline=None) -> None:
        """Mirror (deadline id, due timestamp) pairs, in one command; sent at once, or
        with the other commands of `pipeline` (a Redis pipeline) when given."""
        if entries:
            (pipeline or self.client).zadd(self.key, {str(deadline_id): due_at for deadline_id, due_at in entries})

    def pop_due(self, now: float, limit: int = 500) -> list[int]:
        return [int(member) for member in self._pop_due(keys=[self.key], args=[now, limit])]

    def is_built(self) -> bool:
        return bool(self.client.exists(self.marker))

    def rebuild(self, pending: Callable[[], Iterable[tuple[int, float]]]) -> int:
        """Refill the set from the database's pending deadlines (id, due time)."""
        entries = {str(deadline_id): due_at for deadline_id, due_at in pending()}
        with self.client.pipeline(transaction=True) as pipe:
            pipe.delete(self.key)
            if entries:
                pipe.zadd(self.key, entries)
            pipe.set(self.marker, "1")
            pipe.execute()
        return len(entries)

    def size(self) -> int:
        return self.client.zcard(self.key)
