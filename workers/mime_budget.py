"""A received message reduced to what is read, within a budget, before any full parse.

The standard library's parser builds every part of a message, and a message of
20,000 MIME parts costs seconds of CPU. So the message's structure is first walked
here cheaply: each part's header block is parsed, the bodies are only searched for
their multipart boundaries, never decoded. The parts, their nesting and the bytes of
the header blocks and the text kept are counted against the budget; past it the
message is not read at all. Within it, the message is rewritten with only the bodies
that are read (text parts, delivery status reports) and every other body (pictures,
documents, forwarded messages) left empty, so an attachment of any size costs one
search for the next boundary. No library walks a message's structure without
building it, hence this walk.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

MAX_PARTS = 100  # MIME parts (a reply with a few pictures and its quoted copy has a dozen)
MAX_DEPTH = 10  # multiparts inside multiparts (a forwarded reply to a reply has five)
MAX_READ_BYTES = 1024 * 1024  # header blocks and text bodies, as received (still encoded)

# The bodies read: what a person wrote, and what a delivery report says.
_READ_TYPES = {"text/plain", "text/html", "message/delivery-status"}
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


class OverBudget(Exception):
    """The message is more than the service reads; `reason` says how, for a person."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Reduced:
    message: bytes  # the message with only the bodies that are read
    headers: bytes  # its top header block, for an answer when it is over the budget


def header_block(raw: bytes) -> bytes:
    """The top header block of a message (the whole of it when there is no body),
    at most MAX_READ_BYTES of it."""
    end = _BLANK_LINE.search(raw, 0, MAX_READ_BYTES)
    return raw[:end.start()] if end else raw[:MAX_READ_BYTES]


def reduce(raw: bytes) -> bytes:
    """The message with every body that is not read left empty; OverBudget if it
    has more parts, deeper nesting or more text than the budget."""
    walk = _Walk(raw)
    return b"".join(walk.entity(0, len(raw), depth=0))


class _Walk:
    def __init__(self, raw: bytes):
        self.raw, self.parts, self.read = raw, 0, 0

    def count(self, read_bytes: int) -> None:
        self.read += read_bytes
        if self.read > MAX_READ_BYTES:
            raise OverBudget(f"its text is more than {MAX_READ_BYTES // 1024} KB")

    def entity(self, start: int, end: int, depth: int) -> list[bytes]:
        """The pieces of the part from `start` to `end`, reduced."""
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise OverBudget(f"it has more than {MAX_PARTS} parts (attachments, pictures, alternatives)")
        if depth > MAX_DEPTH:
            raise OverBudget(f"its parts are nested more than {MAX_DEPTH} deep")
        blank = _BLANK_LINE.search(self.raw, start, end)
        head_end, body_start = (blank.start(), blank.end()) if blank else (end, end)
        self.count(head_end - start)
        head = self.raw[start:head_end]
        headers = BytesHeaderParser(policy=compat32).parsebytes(head)
        pieces = [head, b"\r\n\r\n"]
        boundary = headers.get_param("boundary") if headers.get_content_maintype() == "multipart" else None
        if isinstance(boundary, str) and boundary:
            return pieces + self.multipart(boundary.encode("latin-1", "replace"), body_start, end, depth)
        if _is_read(headers):
            self.count(end - body_start)
            pieces.append(self.raw[body_start:end])
        return pieces

    def multipart(self, boundary: bytes, start: int, end: int, depth: int) -> list[bytes]:
        """The parts between the boundary lines, each reduced; preamble and epilogue dropped."""
        pieces, part_start = [], None
        for line_start, line_end, closing in self.boundary_lines(b"--" + boundary, start, end):
            if part_start is not None:
                part_end = line_start - 2 if self.raw[line_start - 2:line_start] == b"\r\n" else line_start - 1
                pieces += [b"--" + boundary + b"\r\n", *self.entity(part_start, max(part_start, part_end), depth + 1),
                           b"\r\n"]
            if closing:
                part_start = None
                break
            part_start = line_end
        if part_start is not None and part_start <= end:  # no closing line: the last part runs to the end
            pieces += [b"--" + boundary + b"\r\n", *self.entity(part_start, end, depth + 1), b"\r\n"]
        return pieces + [b"--" + boundary + b"--\r\n"]

    def boundary_lines(self, delimiter: bytes, start: int, end: int):
        """(where the line starts, where the next line starts, whether it closes) for
        each boundary line between `start` and `end`. bytes.find, not a regular
        expression: it skips a 25 MB picture at memory speed."""
        at = self.raw.find(delimiter, start, end)
        while at != -1:
            line_end = self.raw.find(b"\n", at, end)
            line_end = end if line_end == -1 else line_end + 1
            rest = self.raw[at + len(delimiter):line_end].rstrip(b"\r\n")
            at_line_start = at == start or self.raw[at - 1:at] == b"\n"
            if at_line_start and rest.rstrip(b" \t") in (b"", b"--"):
                yield at, line_end, rest.rstrip(b" \t") == b"--"
            at = self.raw.find(delimiter, line_end, end)


def _is_read(headers: Message) -> bool:
    if headers.get_content_type() not in _READ_TYPES:
        return False
    disposition = str(headers.get("Content-Disposition", "")).split(";", 1)[0].strip().lower()
    return disposition != "attachment"
