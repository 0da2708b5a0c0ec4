"""Putting text into an email header so that it can never add a header.

Titles and addresses are checked where they come in (service/header_text.py), but a
header is built from whatever the database holds, and a reply's subject and
Message-ID (used for threading) come from outside. Python's email library decodes
RFC 2047 encoded words when a header value is set, and before 3.11.10
(CVE-2024-6923) its folding wrote a decoded CR LF out as a real line break: a title of
`=?utf-8?q?x=0d=0aReply-To=3a_a=40evil?=` added a Reply-To header. So the text is
made one line here, an encoded word in it is broken apart (`= ?`) so that nobody
decodes it, and what the library will write is checked before the message is sent.
"""
from __future__ import annotations

import re
import unicodedata
from email.message import EmailMessage

from service.header_text import CONTROL_CATEGORIES, ENCODED_WORD, first_control

# Headers whose value the library parses as addresses: no encoded form can be given.
ADDRESS_HEADERS = {"from", "to", "cc", "bcc", "reply-to", "sender"}
_SPACES = re.compile(r"\s+")


def one_line(text: str) -> str:
    """`text` with every control character and line or paragraph separator replaced by
    a space, and runs of spaces made one."""
    spaced = "".join(" " if unicodedata.category(ch) in CONTROL_CATEGORIES else ch for ch in text)
    return _SPACES.sub(" ", spaced).strip()


def set_header(message: EmailMessage, name: str, value: str) -> None:
    """Add the header `name: value` to `message`, as one header whatever `value`
    holds. Raises ValueError for an address with a control character or an encoded
    word (the delivery then marks its row dead rather than sending it elsewhere)."""
    if name.lower() in ADDRESS_HEADERS:
        if first_control(str(value)) is not None or ENCODED_WORD.search(str(value)):
            # Made one line, it would name another mailbox: not sent at all.
            raise ValueError(f"refusing to send: the {name} header would hold {str(value)[:80]!r}")
    text = one_line(str(value))
    if ENCODED_WORD.search(text):
        # Broken apart, it is plain text to the library and to the reader's mail program
        # alike; either would otherwise decode it (maybe into a line break).
        text = text.replace("=?", "= ?")
    message[name] = text
    control = first_control(str(message[name]))
    if control is not None:  # the last guard: nothing the library decoded may break a line
        del message[name]
        raise ValueError(f"refusing to send: the {name} header would hold the control character U+{ord(control):04X}")
