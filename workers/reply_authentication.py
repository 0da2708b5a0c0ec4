"""Whether the mail server in front found a reply's sender forged, from the
Authentication-Results header fields it added (RFC 8601).

Only fields under a configured authserv-id (AUTHSERV_ID) are read: anyone can write such
a field into the mail he sends, under any name, while the server in front adds its own
under its name (and drops copies of that name it received: OpenDKIM does by default).
A reply is refused when DMARC failed for it, or when a signature of the From address's
domain failed and none of that domain passed. A broken signature of another domain (a
mailing list's, a forwarder's) says nothing about the sender.
"""
from __future__ import annotations

from email.message import EmailMessage

import authres

_FAILED = ("fail", "permerror")


def authentication_failure(message: EmailMessage, sender_address: str, trusted_ids: tuple[str, ...]) -> str | None:
    """'dmarc' or 'dkim' when a trusted server recorded that check as failed for the
    sender; None otherwise (also when no trusted server checked at all)."""
    results = trusted_results(message, trusted_ids)
    if any(result.method == "dmarc" and result.result == "fail" for result in results):
        return "dmarc"
    domain = sender_address.rpartition("@")[2].lower()
    own = [result for result in results if result.method == "dkim" and _of_domain(signing_domain(result), domain)]
    if any(result.result in _FAILED for result in own) and not any(result.result == "pass" for result in own):
        return "dkim"
    return None


def trusted_results(message: EmailMessage, trusted_ids: tuple[str, ...]) -> list:
    """The results of every Authentication-Results field under a trusted authserv-id."""
    trusted = {name.lower() for name in trusted_ids}
    results = []
    for value in message.get_all("Authentication-Results", []):
        try:
            header = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
        except Exception:  # noqa: BLE001 - an unreadable field proves nothing either way
            continue
        if str(header.authserv_id or "").lower() in trusted:
            results.extend(header.results)
    return results


def signing_domain(result) -> str:
    """The domain a DKIM result is about: its `header.d`, else the domain of `header.i`."""
    found = {prop.name: str(prop.value) for prop in result.properties if prop.type == "header"}
    return (found.get("d") or found.get("i", "").rpartition("@")[2]).strip().lower()


def _of_domain(signer: str, sender_domain: str) -> bool:
    """Whether a signature by `signer` speaks for mail from `sender_domain` (the same
    domain or a parent of it, as DMARC's relaxed alignment reads it)."""
    return bool(signer) and (sender_domain == signer or sender_domain.endswith("." + signer))
