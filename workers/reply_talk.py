"""Table talk in an emailed reply: a line `say ...` (or `say: ...`) is a message to
the table, read before the moves, and may stand beside them. Only whole lines that
start with the word are taken, so a move is never read as talk."""
from __future__ import annotations

import re

MAX_SAID_LINES = 5  # messages one reply may carry; more are left unsaid (and the answer says so)
_SAY = re.compile(r"^\s*(?:[-*\u2022]\s+)?say\b\s*:?\s*(?P<text>.*?)\s*$", re.IGNORECASE)


def said_lines(text: str) -> tuple[list[str], str]:
    """The messages (in order, empty ones dropped) and the reply's text without them."""
    said, rest = [], []
    for line in text.splitlines():
        found = _SAY.match(line)
        if found is None:
            rest.append(line)
        elif found["text"]:
            said.append(found["text"])
    return said, "\n".join(rest)
