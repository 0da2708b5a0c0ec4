"""Per-recipient reply addresses: `play+<token>@<MAIL_DOMAIN>` on every game email, and
`bounce+<token>@<MAIL_DOMAIN>` as the envelope sender, so a bounce names the email it
is about.

A reply token names what the email was about (the game, the seat, the user and the
game's version) and is signed. Addresses are read back case-insensitively (some mail
systems fold case) and must fit the 64 characters SMTP allows a local part, so the
token is written in lowercase base 36 and base 32 rather than itsdangerous's own
(case-sensitive, longer) base64; itsdangerous still computes the signature.
"""
from __future__ import annotations

import base64
import hmac
from dataclasses import dataclass

from itsdangerous import Signer

REPLY_SALT = "turnpost.reply-address"
BOUNCE_SALT = "turnpost.bounce-address"
SIGNATURE_CHARS = 20  # 100 bits of the HMAC
PURPOSES = {"m": "move", "r": "confirm_resign"}


@dataclass(frozen=True)
class ReplyToken:
    game_id: int
    seat: int
    user_id: int
    version: int
    purpose: str = "move"  # move | confirm_resign


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if number == 0:
            return text


def _signature(secret: str, salt: str, value: str) -> str:
    raw = base64.urlsafe_b64decode(Signer(secret, salt=salt).get_signature(value) + b"==")
    return base64.b32encode(raw).decode().lower()[:SIGNATURE_CHARS]


def _signed(secret: str, salt: str, value: str) -> str:
    return f"{value}.{_signature(secret, salt, value)}"


def _verified(secret: str, salt: str, text: str) -> str | None:
    value, _, signature = text.lower().rpartition(".")
    if not value or not hmac.compare_digest(signature, _signature(secret, salt, value)):
        return None
    return value


def reply_address(secret: str, domain: str, token: ReplyToken) -> str:
    purpose = next(letter for letter, name in PURPOSES.items() if name == token.purpose)
    fields = ".".join(_b36(n) for n in (token.game_id, token.seat, token.user_id, token.version))
    return f"play+{_signed(secret, REPLY_SALT, purpose + fields)}@{domain}"


def bounce_address(secret: str, domain: str, notification_id: int) -> str:
    return f"bounce+{_signed(secret, BOUNCE_SALT, _b36(notification_id))}@{domain}"


def _local_tag(address: str, domain: str, box: str) -> str | None:
    """The part after `box+` in an address at `domain`, or None."""
    local, _, at = address.strip().strip("<>").lower().rpartition("@")
    if at != domain.lower() or not local.startswith(box + "+"):
        return None
    return local[len(box) + 1:]


def read_reply_address(secret: str, domain: str, address: str) -> ReplyToken | None:
    """The token of a reply address, or None if it is not one of ours or was altered."""
    tag = _local_tag(address, domain, "play")
    value = _verified(secret, REPLY_SALT, tag) if tag else None
    if not value or value[0] not in PURPOSES:
        return None
    try:
        game_id, seat, user_id, version = (int(part, 36) for part in value[1:].split("."))
    except ValueError:
        return None
    return ReplyToken(game_id, seat, user_id, version, PURPOSES[value[0]])


def read_bounce_address(secret: str, domain: str, address: str) -> int | None:
    """The notification id of a bounce address, or None."""
    tag = _local_tag(address, domain, "bounce")
    value = _verified(secret, BOUNCE_SALT, tag) if tag else None
    try:
        return int(value, 36) if value else None
    except ValueError:
        return None


def is_our_address(domain: str, address: str) -> bool:
    """Whether the inbound server takes mail for `address` (play+..., bounce+...)."""
    local, _, at = address.strip().strip("<>").lower().rpartition("@")
    return at == domain.lower() and local.split("+", 1)[0] in ("play", "bounce")
