"""Text that can reach an email header: game titles (in subjects), addresses (in To,
and the names made from them). It is refused where it comes in when it holds a
control character (CR, LF, TAB, any C0 or C1 character, DEL, the Unicode line and
paragraph separators) or an RFC 2047 encoded word (`=?charset?q?...?=`), which the
email library would decode back into such characters when it builds the header. The
workers build headers so that stored text cannot add one either (workers/mail_headers.py)."""
from __future__ import annotations

import re
import unicodedata

# Lenient on purpose: the email library decodes encoded words that break RFC 2047's
# own rules (spaces inside, a missing encoding letter), so anything between `=?` and
# `?=` is taken for one.
ENCODED_WORD = re.compile(r"=\?.*?\?=", re.DOTALL)
# Cc: C0, DEL and C1 controls; Zl, Zp: U+2028 and U+2029.
CONTROL_CATEGORIES = ("Cc", "Zl", "Zp")


def first_control(text: str) -> str | None:
    """The first control character (or line/paragraph separator) in `text`, if any."""
    return next((ch for ch in text if unicodedata.category(ch) in CONTROL_CATEGORIES), None)


def header_problem(text: str) -> str | None:
    """Why `text` may not go into an email header, or None when it may."""
    control = first_control(text)
    if control is not None:
        return f"control characters such as line breaks and tabs are not allowed (found U+{ord(control):04X})"
    if ENCODED_WORD.search(text):
        return "encoded words (=?...?=) are not allowed"
    return None
