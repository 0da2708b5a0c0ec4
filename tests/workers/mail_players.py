"""Players who play by email only: the service's inbound SMTP server on a free port,
its answers delivered to a real SMTP sink, and replies written as mail clients do."""
from __future__ import annotations

import hashlib
import hmac
import smtplib
import uuid
from email import message_from_bytes, message_from_string
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses
from pathlib import Path
from typing import cast

from sqlmodel import col, select

from service.db import transaction
from service.models import InboundMail, Notification
from workers import delivery, inbound
from workers.inbound_smtp import start_inbound_smtp
from workers.mail import SmtpSender

REPLIES = Path(__file__).resolve().parent / "replies"


class MailService:
    """The inbound SMTP server of the service; each stored reply is processed and its
    answers delivered before the server says 250, so a test reads them at once."""

    def __init__(self, app, sink, port: int):
        self.settings = app.extensions["turnpost"]["settings"]
        self.engine = app.extensions["turnpost"]["database"]
        self.sink, self.port = sink, port
        self.sender = SmtpSender(sink.url)
        self.controller = start_inbound_smtp(self.settings, self.engine, self.handle, "127.0.0.1", port)

    def handle(self, inbound_id: int) -> None:
        self.deliver(inbound.process(self.engine, self.settings, inbound_id).ids[0])

    def deliver(self, notification_ids: list[int]) -> None:
        for notification_id in notification_ids:
            delivery.deliver(self.engine, self.settings, notification_id, self.sender)

    def deliver_outbox(self) -> None:
        """Deliver every email still owed (those the API's moves wrote)."""
        with transaction(self.engine) as db:
            ids = list(db.exec(select(Notification.id).where(col(Notification.sent_at).is_(None))
                               .order_by(col(Notification.id))))
        self.deliver(cast(list[int], ids))  # stored rows have ids

    def send(self, message: EmailMessage | bytes, to: str, sender: str) -> None:
        raw = message if isinstance(message, bytes) else message.as_bytes(policy=default.clone(linesep="\r\n"))
        with smtplib.SMTP("127.0.0.1", self.port) as client:
            client.sendmail(sender, [to], raw)

    def stop(self) -> None:
        self.controller.stop()
        self.sender.close()

    def inbound_rows(self, recipient: str) -> list[InboundMail]:
        with transaction(self.engine) as db:
            return list(db.exec(select(InboundMail).where(InboundMail.recipient == recipient)
                            .order_by(col(InboundMail.id))))


def mails_to(sink, address: str) -> list[EmailMessage]:
    return [m for m in sink.messages if getaddresses([m["To"]])[0][1].lower() == address.lower()]


def latest_mail_to(sink, address: str) -> EmailMessage:
    """The last message to `address` (searched from the end: a long game sends many)."""
    return next(m for m in reversed(sink.messages) if getaddresses([m["To"]])[0][1].lower() == address.lower())


def reply_address_of(mail: EmailMessage) -> str:
    return getaddresses([mail["Reply-To"]])[0][1]


def inbound_signature(secret: str, raw: bytes, recipient: str, sender: str = "") -> str:
    """The `X-Turnpost-Signature` a mail provider sends with a message posted to
    /api/inbound/mime (docs/email.md): over the recipient, the sender and the body."""
    return "sha256=" + hmac.new(secret.encode(), f"{recipient}\n{sender}\n".encode() + raw, hashlib.sha256).hexdigest()


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None, "the mail has a plain-text body"
    return body.get_content()


def reply(to_mail: EmailMessage, body: str, sender: str, **headers) -> EmailMessage:
    """A plain top-posted reply to `to_mail`, as a mail client writes it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to_mail["Reply-To"]
    message["Subject"] = "Re: " + str(to_mail["Subject"])
    message["Message-ID"] = f"<{uuid.uuid4().hex}@client.example>"
    message["In-Reply-To"] = to_mail["Message-ID"]
    message["References"] = to_mail["Message-ID"]
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    quoted = "\n".join("> " + line for line in text_of(to_mail).splitlines())
    message.set_content(f"{body}\n\nOn Tue, 24 Nov 2026 at 10:00, turnpost wrote:\n{quoted}\n")
    return message


def corpus_reply(name: str, to_mail: EmailMessage, sender: str, moves: tuple[str, str]) -> bytes:
    """A reply from the hand-written corpus (tests/workers/replies/NAME.eml), addressed
    to answer `to_mail` with `moves`."""
    import base64

    text = (REPLIES / f"{name}.eml").read_text()
    body = f"{moves[0]}\n{moves[1]}\n\nSent from my Galaxy\n\n-------- Original message --------\n" \
           f"From: turnpost <{reply_address_of(to_mail)}>\nDate: 24/11/2026 10:00 (GMT+00:00)\n\nYour decision\n"
    values = {"{{FROM}}": sender, "{{TO}}": reply_address_of(to_mail), "{{IN_REPLY_TO}}": to_mail["Message-ID"],
              "{{ID}}": uuid.uuid4().hex, "{{MOVE1}}": moves[0], "{{MOVE2}}": moves[1],
              "{{BASE64_BODY}}": base64.encodebytes(body.encode()).decode()}
    for key, value in values.items():
        text = text.replace(key, value)
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode()


def client_reply(name: str, to_mail: EmailMessage, sender: str, moves: tuple[str, str]) -> bytes:
    """A reply from the corpus (tests/workers/replies/NAME.eml, written with its bodies
    decoded) to the real email `to_mail`, quoting it as that mail client does, with
    `moves`; each body is then encoded with the charset and transfer encoding its
    part declares."""
    html_part = to_mail.get_body(("html",))
    assert html_part is not None, "the mail has an HTML body"
    text, html = text_of(to_mail), html_part.get_content()
    first_word, rest = moves[1].split(" ", 1)
    values = {
        "{{FROM}}": sender, "{{TO}}": reply_address_of(to_mail), "{{IN_REPLY_TO}}": to_mail["Message-ID"],
        "{{SUBJECT}}": str(to_mail["Subject"]), "{{ID}}": uuid.uuid4().hex,
        "{{ORIGINAL_FROM}}": getaddresses([to_mail["From"]])[0][1], "{{ORIGINAL_TEXT}}": text.strip("\n"),
        "{{QUOTED_TEXT}}": "\n".join(f"> {line}" if line else ">" for line in text.strip("\n").splitlines()),
        "{{ORIGINAL_HTML}}": html[html.index(">", html.index("<body")) + 1:html.index("</body>")],
        "{{MOVE1}}": moves[0], "{{MOVE2}}": moves[1], "{{MOVE1_UPPER}}": moves[0].upper(),
        # As pasted from a web page: no-break spaces between the words.
        "{{MOVE2_PASTED}}": moves[1].replace(" ", "\u00a0"),
        # Two moves on one line, wrapped by the mail program with a soft (flowed) line break.
        "{{FLOWED_MOVES}}": f"{moves[0]}; {first_word} \n{rest}",
    }
    template = (REPLIES / f"{name}.eml").read_text(encoding="utf-8")
    for key, value in values.items():
        template = template.replace(key, value)
    message = message_from_string(template, policy=default)
    for part in message.walk():
        if not part.is_multipart():
            _encode_body(part)
    return message.as_bytes(policy=default.clone(linesep="\r\n"))


def _encode_body(part: EmailMessage) -> None:
    """The part's body, read as written in the template (UTF-8), encoded as its headers
    say; a 7bit or 8bit body stays as written."""
    import base64
    import quopri

    encoding = str(part.get("Content-Transfer-Encoding", "7bit")).lower()
    if encoding not in ("base64", "quoted-printable"):
        return
    payload = part.get_payload()
    assert isinstance(payload, str), "a single part's body is text"
    body = payload.replace("\r\n", "\n").replace("\n", "\r\n")
    data = body.encode(part.get_content_charset("us-ascii"))
    if encoding == "base64":
        part.set_payload(base64.encodebytes(data).decode("ascii"))
    else:
        part.set_payload(quopri.encodestring(data).decode("ascii"))


def parse(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=default)
