"""DKIM signatures on outgoing mail (dkimpy), so that receivers can check that a message
comes from the From address's domain and pass DMARC there.

The key is read once, at start: a key that cannot sign is a start-up error, never a
failure of each email. The public half goes in DNS at
`<selector>._domainkey.<domain>` (docs/email.md).
"""
from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path

import dkim

# Signed header fields. From is listed twice so that a second From added on the way breaks
# the signature; fields a message lacks are signed as absent, so none can be added unseen.
# List-Unsubscribe-Post must be signed for one-click unsubscribing to be offered (RFC 8058).
SIGNED_HEADERS = (
    b"from", b"from", b"to", b"subject", b"date", b"message-id", b"reply-to", b"in-reply-to", b"references",
    b"list-unsubscribe", b"list-unsubscribe-post", b"auto-submitted", b"mime-version", b"content-type",
)
_PROBE = b"From: probe@invalid\r\nSubject: probe\r\n\r\nprobe\r\n"


class DkimSigner:
    """Signs with the RSA key in `key_file` as `selector` of `domain` (relaxed/relaxed
    canonicalization: a relay that refolds a header keeps the signature valid)."""

    def __init__(self, selector: str, domain: str, key_file: str | Path):
        if not selector or not domain:
            raise ValueError("DKIM signing needs a selector (DKIM_SELECTOR) and a domain (DKIM_DOMAIN)")
        self.selector, self.domain = selector.encode("ascii"), domain.lower().encode("idna")
        try:
            self.key = Path(key_file).read_bytes()
        except OSError as err:
            raise ValueError(f"DKIM_KEY_FILE {str(key_file)!r} cannot be read: {err.strerror}") from None
        try:
            self.sign(_PROBE)
        except dkim.DKIMException as err:
            raise ValueError(f"DKIM_KEY_FILE {str(key_file)!r} holds no RSA private key that can sign: {err}") from None

    def sign(self, data: bytes) -> bytes:
        """The message's bytes with its DKIM-Signature header field in front."""
        signature = dkim.sign(data, self.selector, self.domain, self.key, canonicalize=(b"relaxed", b"relaxed"),
                              include_headers=list(SIGNED_HEADERS))
        return signature + data


def signer_for(settings) -> DkimSigner | None:
    """The signer the settings ask for: none without DKIM_KEY_FILE; the domain is the
    From address's unless DKIM_DOMAIN says otherwise (DMARC wants the two aligned)."""
    if not settings.dkim_key_file:
        return None
    domain = settings.dkim_domain or parseaddr(settings.mail_from)[1].rpartition("@")[2]
    return DkimSigner(settings.dkim_selector, domain, settings.dkim_key_file)
