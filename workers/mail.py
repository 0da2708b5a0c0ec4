"""Building and sending email over SMTP.

One `SmtpSender` per worker process keeps its connection open between messages and
reconnects once when the server has dropped it. Every message carries a fixed
Message-ID chosen by the caller (one per outbox row), so a message sent again after a
crash is recognisable as the same one.

The relay is reached over TLS whenever it offers it (`smtps://`, or STARTTLS on
`smtp://`), with its certificate and host name verified, and a login is only ever sent
encrypted. A relay that cannot be used as configured raises `RelayUnusable`, which the
mailer reports at its start (workers/relay_check.py) rather than as a failure of each
email.
"""
from __future__ import annotations

import base64
import copy
import ipaddress
import random
import re
import smtplib
import ssl
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.generator import BytesGenerator
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime, getaddresses
from functools import lru_cache
from io import BytesIO
from typing import cast
from urllib.parse import unquote, urlsplit

from workers.mail_headers import set_header


@dataclass
class Attachment:
    """An inline image, referenced from the HTML part as `cid:<content_id>`."""

    content_id: str
    data: bytes
    subtype: str = "png"
    filename: str = "board.png"


@dataclass
class Mail:
    to: str
    subject: str
    text: str
    html: str
    message_id: str
    sender: str
    unsubscribe_url: str | None = None
    images: list[Attachment] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    envelope_from: str | None = None  # the bounce address; the From address if None
    # RFC 3834: mail made by a program, so vacation responders do not answer it;
    # "auto-replied" for an answer to a person's mail.
    auto_submitted: str = "auto-generated"


class _HeaderClasses(HeaderRegistry):
    """The library's header factory, making the class of each header name once (the
    library makes a new class for every header it sets, some 25 a message, about 0.5
    ms), and parsing a header once for every message that sets the very same text: the
    parts' Content-Type, Content-Transfer-Encoding and the like are the same in every
    email. A parsed header is not changed after it is made (a new value is a new one)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made

    def __call__(self, name: str, value):
        if type(value) is str:
            return _parsed_header(self, name, value)
        return super().__call__(name, value)


@lru_cache(maxsize=256)
def _parsed_header(factory: _HeaderClasses, name: str, value: str):
    return HeaderRegistry.__call__(factory, name, value)


# The library's default policy (the one `EmailMessage()` takes), with that factory.
MESSAGE_POLICY = default_policy.clone(header_factory=_HeaderClasses())


def build_message(mail: Mail) -> EmailMessage:
    msg = EmailMessage(policy=MESSAGE_POLICY)
    msg["From"] = mail.sender
    set_header(msg, "To", mail.to)  # user text from here on: see workers/mail_headers.py
    set_header(msg, "Subject", mail.subject)
    msg["Message-ID"] = mail.message_id
    msg["Date"] = format_datetime(datetime.now(UTC))  # "+0000": the time is known to be UTC
    msg["Auto-Submitted"] = mail.auto_submitted
    if mail.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    for name, value in mail.headers.items():
        set_header(msg, name, value)
    msg.set_content(mail.text)
    msg.add_alternative(mail.html, subtype="html")
    if mail.images:
        html_part = cast(list[EmailMessage], msg.get_payload())[1]  # the text part, then this one
        html_part.make_related()
        for image in mail.images:
            html_part.attach(image_part(image, msg.policy))
    return msg


def image_part(image: Attachment, policy) -> EmailMessage:
    """The MIME part of an inline image, as `add_related` would make it (the same
    headers but MIME-Version, which belongs to the message alone; base64 in lines of
    76), its base64 encoded in one piece where the library encodes each line apart."""
    part = EmailMessage(policy)
    part["Content-Type"] = f"image/{image.subtype}"
    part["Content-Transfer-Encoding"] = "base64"
    part.add_header("Content-Disposition", "attachment", filename=image.filename)
    part["Content-ID"] = f"<{image.content_id}>"
    encoded = base64.b64encode(image.data).decode("ascii")
    part.set_payload("".join(f"{encoded[start:start + 76]}\n" for start in range(0, len(encoded), 76)))
    return part


class RelayUnusable(Exception):
    """The relay in SMTP_URL cannot take mail as configured: a login it would get
    unencrypted, a login it does not offer or refuses, a certificate that does not
    verify, a login it requires. No retry mends it; a change of the settings or of the
    relay does."""


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def wire_form(message: EmailMessage) -> tuple[bytes, list[str], tuple[str, ...]]:
    """The message's bytes as they go out, its recipients and the MAIL options it needs,
    worked out as smtplib's `send_message` does; done here because a DKIM signature
    is computed over the very bytes that are sent."""
    recipients = [address for _, address in getaddresses(
        [str(value) for name in ("To", "Cc", "Bcc") for value in message.get_all(name, [])])]
    senders = [address for _, address in getaddresses([str(value) for value in message.get_all("From", [])])]
    international = not all(address.isascii() for address in recipients + senders)
    shown = copy.copy(message)  # smtplib's way: deleting rebinds the header list, the message keeps its own
    del shown["Bcc"], shown["Resent-Bcc"]
    buffer = BytesIO()
    # An EmailMessage's policy is an EmailPolicy, which has `utf8`; the stubs type it as the base Policy.
    wire_policy = message.policy.clone(utf8=True) if international else message.policy  # type: ignore[call-arg]
    _WireGenerator(buffer, policy=wire_policy).flatten(shown, linesep="\r\n")
    return buffer.getvalue(), recipients, ("SMTPUTF8", "BODY=8BITMIME") if international else ()


_LINE_END = re.compile(r"\r\n|\r|\n")  # what the library's generator takes for a line's end


class _WireGenerator(BytesGenerator):
    """The library's generator, writing each body with its line ends made `linesep`
    in one piece rather than line by line (the same bytes: a base64 picture is some
    600 lines, and writing them one by one cost about 0.4 ms a message)."""

    def _write_lines(self, lines: str) -> None:
        assert self.policy is not None, "flatten() gave the generator its policy, with the linesep asked for"
        self.write(_LINE_END.sub(self.policy.linesep, lines))

    @classmethod
    def _make_boundary(cls, text: bytes | str | None = None) -> str:
        """A boundary of the library's form, found nowhere in `text` (the parts as
        written): looked for as it is, where the library compiles a regular expression
        for each new boundary (two a message, about 0.8 ms). Nowhere at all is more
        than the library asks (nowhere at the start of a line)."""
        while True:
            boundary = f"{'=' * 15}{random.randrange(sys.maxsize):019d}=="
            if text is None:
                return boundary
            if isinstance(text, bytes) and boundary.encode("ascii") not in text:
                return boundary
            if isinstance(text, str) and boundary not in text:
                return boundary


class SmtpSender:
    """Sends messages to the relay named by an `smtp://[user:pass@]host[:port]` URL
    (port 25 unless given; 587 is the submission port) or `smtps://...` (TLS from the
    start, port 465 unless given), reusing one connection.

    `ca_file` holds the certificates the relay's must chain to (a private CA; the
    system's otherwise). `allow_plain_login` lets a relay on this machine take the
    login without TLS (a development relay). `signer` DKIM-signs each message
    (workers/dkim_signing.py)."""

    def __init__(self, url: str, timeout: float = 30.0, ca_file: str | None = None,
                 allow_plain_login: bool = False, signer=None):
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"SMTP_URL must start with smtp:// or smtps://, not {url!r}")
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.implicit_tls = parts.scheme == "smtps"
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        if allow_plain_login and not is_loopback(self.host):
            raise ValueError(f"SMTP_ALLOW_PLAIN_LOGIN is only for a relay on this machine, not {self.host}: "
                             "a login sent unencrypted over a network can be read by anyone on the way")
        self.allow_plain_login = allow_plain_login
        try:  # verifies the certificate chain and that it names self.host
            self.tls_context = ssl.create_default_context(cafile=ca_file)
        except (OSError, ssl.SSLError) as err:
            raise ValueError(f"SMTP_CA_FILE {ca_file!r} cannot be read as PEM certificates: {err}") from None
        self.signer = signer
        self.timeout = timeout
        self._connection: smtplib.SMTP | None = None

    @property
    def relay(self) -> str:
        return f"the SMTP relay {self.host}:{self.port}"

    def connect(self) -> None:
        """Open the connection now (a new worker does, before its first email)."""
        if self._connection is None:
            self._connection = self._connect()

    def _connect(self) -> smtplib.SMTP:
        connection: smtplib.SMTP
        try:
            if self.implicit_tls:
                connection = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self.tls_context)
            else:
                connection = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        except ssl.SSLCertVerificationError as err:
            raise RelayUnusable(self._bad_certificate(err)) from None
        try:
            self._secure(connection)
            self._log_in(connection)
        except BaseException:
            connection.close()
            raise
        return connection

    def _secure(self, connection: smtplib.SMTP) -> None:
        """STARTTLS whenever the relay offers it; a login is never sent in the clear."""
        connection.ehlo()
        if self.implicit_tls:
            return
        if connection.has_extn("starttls"):
            try:
                connection.starttls(context=self.tls_context)
            except ssl.SSLCertVerificationError as err:
                raise RelayUnusable(self._bad_certificate(err)) from None
            connection.ehlo()  # the relay's extensions, AUTH among them, may change under TLS
        elif self.user and not self.allow_plain_login:
            raise RelayUnusable(
                f"{self.relay} offers no STARTTLS, and the login in SMTP_URL is never sent unencrypted: use the "
                "relay's submission port with STARTTLS (smtp://user:password@host:587) or smtps:// (port 465)")

    def _log_in(self, connection: smtplib.SMTP) -> None:
        if not self.user:
            return
        if not connection.has_extn("auth"):
            raise RelayUnusable(f"{self.relay} offers no login (no AUTH in its EHLO answer), yet SMTP_URL names "
                                f"the user {self.user!r}: check the port (587 for submission) or drop the login")
        try:
            connection.login(self.user, self.password or "")
        except smtplib.SMTPAuthenticationError as err:
            raise RelayUnusable(f"{self.relay} refused the login of {self.user!r}: {_answer(err)}") from None

    def _bad_certificate(self, err: ssl.SSLCertVerificationError) -> str:
        return (f"the certificate of {self.relay} does not verify ({err.verify_message or err}): it must be valid "
                f"for the name {self.host!r} and chain to a trusted CA (SMTP_CA_FILE names a private CA's file)")

    def check(self, envelope_from: str) -> None:
        """Connect, secure, log in, and ask whether the relay takes mail from
        `envelope_from` (MAIL, then RSET: nothing is sent); RelayUnusable if it wants a
        login or TLS it does not get."""
        self.connect()
        assert self._connection is not None, "connected"
        code, text = self._connection.mail(envelope_from)
        self._connection.rset()
        if code == 530:
            raise RelayUnusable(f"{self.relay} takes no mail without a login: {code} {text.decode('utf-8', 'replace')}")

    def send(self, message: EmailMessage, envelope_from: str | None = None) -> None:
        """Return only once the server has accepted the message; raise otherwise."""
        data, recipients, options = wire_form(message)
        if self.signer is not None:
            data = self.signer.sign(data)
        if envelope_from is None:
            envelope_from = next((address for _, address in getaddresses([str(message["From"])])), "")
        for attempt in (1, 2):
            self.connect()
            assert self._connection is not None, "connected"
            try:
                self._connection.sendmail(envelope_from, recipients, data, mail_options=options)
                return
            except smtplib.SMTPSenderRefused as err:
                if err.smtp_code == 530:  # 5.7.0: authentication or TLS required before MAIL
                    raise RelayUnusable(f"{self.relay} takes no mail without a login: {_answer(err)}") from None
                raise
            except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused):
                raise  # the server answered: a new connection would not change its answer
            except OSError:  # SMTPServerDisconnected too: an idle connection closed, a timeout
                self._connection = None
                if attempt == 2:
                    raise

    def close(self) -> None:
        if self._connection is not None:
            try:
                self._connection.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._connection = None


def _answer(err: smtplib.SMTPResponseException) -> str:
    text = err.smtp_error.decode("utf-8", "replace") if isinstance(err.smtp_error, bytes) else str(err.smtp_error)
    return f"{err.smtp_code} {text}"
