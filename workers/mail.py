"""Building and sending email over SMTP.

One `SmtpSender` per worker process keeps its connection open between messages and
reconnects once when the server has dropped it. Every message carries a fixed
Message-ID chosen by the caller (one per outbox row), so a message sent again after a
crash is recognisable as the same one.
"""
from __future__ import annotations

import smtplib
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate
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


def build_message(mail: Mail) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = mail.sender
    set_header(msg, "To", mail.to)  # user text from here on: see workers/mail_headers.py
    set_header(msg, "Subject", mail.subject)
    msg["Message-ID"] = mail.message_id
    msg["Date"] = formatdate(localtime=False)
    msg["Auto-Submitted"] = mail.auto_submitted
    if mail.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    for name, value in mail.headers.items():
        set_header(msg, name, value)
    msg.set_content(mail.text)
    msg.add_alternative(mail.html, subtype="html")
    html_part = msg.get_payload()[1]
    for image in mail.images:
        html_part.add_related(
            image.data, maintype="image", subtype=image.subtype,
            cid=f"<{image.content_id}>", filename=image.filename,
        )
    return msg


class SmtpSender:
    """Sends messages to the server named by an `smtp://[user:pass@]host:port` URL
    (`smtps://` for TLS from the start), reusing one connection."""

    def __init__(self, url: str, timeout: float = 30.0):
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"SMTP_URL must start with smtp:// or smtps://, not {url!r}")
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.tls = parts.scheme == "smtps"
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.timeout = timeout
        self._connection: smtplib.SMTP | None = None

    def connect(self) -> None:
        """Open the connection now (a new worker does, before its first email)."""
        if self._connection is None:
            self._connection = self._connect()

    def _connect(self) -> smtplib.SMTP:
        cls = smtplib.SMTP_SSL if self.tls else smtplib.SMTP
        connection = cls(self.host, self.port, timeout=self.timeout)
        if self.user:
            connection.login(self.user, self.password or "")
        return connection

    def send(self, message: EmailMessage, envelope_from: str | None = None) -> None:
        """Return only once the server has accepted the message; raise otherwise."""
        for attempt in (1, 2):
            self.connect()
            try:
                self._connection.send_message(message, from_addr=envelope_from)
                return
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
            except smtplib.SMTPException:
                pass
            self._connection = None
