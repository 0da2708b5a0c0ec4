"""The embedded service's local outbox page: emails shown as HTML with their pictures,
and replies sent through the inbound SMTP server, as a reader's mail program would."""
from __future__ import annotations

import base64
import smtplib
import uuid
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formataddr, getaddresses, parsedate_to_datetime

from markupsafe import Markup


def sent_at(message) -> datetime:
    try:
        return parsedate_to_datetime(str(message.get("Date", "")))
    except (TypeError, ValueError):
        return datetime.min.replace(tzinfo=UTC)


def _as_email(message) -> EmailMessage:
    return message_from_bytes(message.as_bytes(), policy=policy.default)


def shown(key: str, message) -> dict:
    """What the outbox page shows of one email."""
    mail = _as_email(message)
    text_part = mail.get_body(("plain",))
    return {
        "key": key, "to": mail["To"], "subject": mail["Subject"], "date": mail["Date"],
        "reply_to": mail["Reply-To"], "text": text_part.get_content() if text_part else "",
        "html": _html_with_pictures(mail),
    }


def _html_with_pictures(mail: EmailMessage) -> str | None:
    """The HTML part, its `cid:` pictures inlined as data URLs (shown in a sandboxed frame)."""
    part = mail.get_body(("html",))
    if part is None:
        return None
    html = part.get_content()
    for item in mail.walk():
        content_id = str(item.get("Content-ID", "")).strip("<>")
        if content_id and item.get_content_maintype() == "image":
            image = item.get_payload(decode=True)
            assert isinstance(image, bytes), "an image part is not multipart"
            data = base64.b64encode(image).decode()
            html = html.replace(f"cid:{content_id}", f"data:{item.get_content_type()};base64,{data}")
    # Shown in a sandboxed frame; its links open beside the outbox (the page's content
    # policy allows no <base> element).
    return Markup.escape(html.replace("<a ", '<a target="_blank" '))


def send_reply(original, body: str, port: int) -> None:
    """A top-posted reply from the email's reader to its Reply-To address."""
    mail = _as_email(original)
    if not mail["Reply-To"]:
        raise ValueError("this email takes no reply")
    reader = getaddresses([str(mail["To"])])[0][1]
    reply = EmailMessage()
    reply["From"] = formataddr(("", reader))
    reply["To"] = str(mail["Reply-To"])
    reply["Subject"] = "Re: " + str(mail["Subject"])
    reply["Message-ID"] = f"<{uuid.uuid4().hex}@outbox.turnpost.localhost>"
    reply["In-Reply-To"] = str(mail["Message-ID"])
    reply["References"] = str(mail["Message-ID"])
    text = mail.get_body(("plain",))
    quoted = "\n".join("> " + line for line in (text.get_content() if text else "").splitlines())
    reply.set_content(f"{body.strip()}\n\nOn {mail['Date']}, turnpost wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.send_message(reply)
