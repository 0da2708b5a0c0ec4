"""Reading a received email: what kind it is (a person's reply, an automatic answer, a
bounce), who sent it, and the commands a person wrote in it, without the quoted
email, the "On ... wrote:" line and the signature."""
from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import getaddresses

import authres
import html2text
from mailparser_reply import EmailReplyParser

# The languages whose "On ... wrote:" lines and signatures the reply parser knows.
_REPLY_PARSER = EmailReplyParser(languages=["en", "de", "fr", "it", "es", "nl", "pt", "sv", "pl"])
MAX_COMMANDS = 20
# The reply parser's time grows faster than the text (seconds of CPU for a 1 MB line);
# a reply's own text, quoted lines dropped, is read up to here.
MAX_READ_CHARS = 64 * 1024
# Out-of-office subjects as mail programs write them (Outlook's "Automatic reply:" in
# its other languages among them): English, German, Dutch, Danish and Norwegian, Portuguese,
# French, Italian, Spanish.
_AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|automatische antwort|abwesenheit(snotiz)?"
    r"|automatisch antwoord|autosvar|resposta autom[áa]tica|absence|r[ée]ponse automatique"
    r"|risposta automatica|fuera de la oficina|respuesta autom[áa]tica)\b", re.IGNORECASE)


def message_kind(message: EmailMessage, envelope_from: str = "") -> str:
    """'bounce' (a delivery status notification), 'auto' (an out-of-office or other
    machine-made answer, never to be answered) or 'person'."""
    if message.get_content_type() == "multipart/report":
        return "bounce"
    auto_submitted = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    sender = envelope_from.strip().strip("<>").lower()
    if (auto_submitted and not auto_submitted.startswith("no")) or precedence in ("bulk", "junk", "list", "auto_reply") \
            or any(message.get(h) for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response", "List-Id")) \
            or sender.startswith("mailer-daemon@") or _AUTO_SUBJECT.search(str(message.get("Subject", ""))):
        return "auto"
    return "person"


def failed_recipients(message: EmailMessage) -> list[str]:
    """The addresses a delivery status notification reports as failed for good."""
    failed = []
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in part.get_payload():  # per-message fields, then one block per recipient
            action = str(block.get("Action", "")).strip().lower()
            status = str(block.get("Status", "")).strip()
            recipient = str(block.get("Final-Recipient", "") or block.get("Original-Recipient", ""))
            if action == "failed" and status.startswith("5") and ";" in recipient:
                failed.append(recipient.split(";", 1)[1].strip().lower())
    return failed


def sender(message: EmailMessage) -> str:
    """The From address, lowercased ('' if there is none)."""
    addresses = getaddresses([str(value) for value in message.get_all("From", [])])
    return addresses[0][1].strip().lower() if addresses else ""


def authentication_failure(message: EmailMessage) -> str | None:
    """'dkim' or 'dmarc' when a receiving server recorded that check as failed."""
    for value in message.get_all("Authentication-Results", []):
        try:
            header = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
        except Exception:  # noqa: BLE001 - an unreadable header proves nothing either way
            continue
        for result in header.results:
            if result.method in ("dkim", "dmarc") and result.result in ("fail", "permerror"):
                return result.method
    return None


def body_text(message: EmailMessage) -> str:
    """The text the person wrote, as plain text: the text part, else the HTML part
    turned into text (quoted blocks become `>` lines). Attachments are ignored."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset or a broken encoding
        content = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
    if not isinstance(content, str):
        return ""
    if part.get_content_type() == "text/html":
        return _html_to_text(content)
    return content


def _html_to_text(html: str) -> str:
    converter = html2text.HTML2Text(bodywidth=0)
    converter.ignore_links = converter.ignore_images = converter.ignore_emphasis = True
    text = converter.handle(html)
    return re.sub(r"\\([\\`*_{}\[\]()#+.!-])", r"\1", text)  # drop Markdown's escapes


def newest_reply(text: str) -> str:
    """The newest reply in a thread's text: without quoted lines, the "On ... wrote:"
    header, the quoted email and the signature."""
    # Quoted lines go first: they are never the reply, and the parser's time grows with the text.
    lines = text.replace("\r\n", "\n").replace("\u00a0", " ").splitlines()
    unquoted = "\n".join(line for line in lines if not line.lstrip().startswith(">"))[:MAX_READ_CHARS]
    for reply in _REPLY_PARSER.read(text=unquoted).replies:
        if (reply.body or "").strip():
            return reply.body.strip()
    return ""


_DECORATION = re.compile(r"^\s*(?:[-*\u2022>]|\d+[.)])\s+")  # a list bullet or number before a move
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"


def commands(text: str) -> list[str]:
    """The commands of a reply: one per line, or separated by `;`; blank ones dropped,
    as are the list bullets, quotes and end punctuation people put around them."""
    found = []
    for line in text.splitlines():
        for part in line.split(";"):
            command = _DECORATION.sub("", part).strip().strip(_QUOTES).strip().rstrip(".,!").strip(_QUOTES).strip()
            if command:
                found.append(command)
    return found[:MAX_COMMANDS + 1]
