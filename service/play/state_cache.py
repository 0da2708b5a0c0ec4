"""Game states this process has already built, so that the next request on the same
game skips building the state from its stored JSON (the engine's `from_json`, with its
checks, costs about half a millisecond for a board game's state; comparing the stored
JSON with the one a state was built from costs a fiftieth of that).

An entry is kept under (game id, version, move count) with the JSON it was built from
or written as, and served only while the row holds that same JSON: a state is never
served for a row that says something else, whoever wrote it. States are immutable by
the engine's contract (`apply` never changes its input), so one object may be shared
by every request and thread of the process. Bounded: the least recently used entry
goes first.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

# A state is about 1,200 bytes of JSON and a few kilobytes of objects.
CAPACITY = 2048


class StateCache:
    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._entries: OrderedDict[tuple, tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple, stored: Any) -> Any | None:
        """The state kept under `key` if it was built from JSON equal to `stored`."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
        data, state = entry
        return state if data is stored or data == stored else None

    def put(self, key: tuple, stored: Any, state: Any) -> None:
        with self._lock:
            self._entries[key] = (stored, state)
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


states = StateCache()
