"""Reading a received email: what kind it is (a person's reply, an automatic answer, a
bounce), who sent it, and the commands a person wrote in it, without the quoted
email, the "On ... wrote:" line and the signature."""
from __future__ import annotations

import re
import unicodedata
from email.message import EmailMessage, Message
from email.utils import collapse_rfc2231_value, getaddresses, parseaddr
from typing import Any

import html2text
from mailparser_reply import EmailReplyParser
from mailparser_reply.parser import EmailMessage as ThreadText

# The languages whose "On ... wrote:" lines and signatures the reply parser knows (the
# parser's own factory drops those it has no patterns for).
_LANGUAGES = EmailReplyParser(languages=["en", "de", "fr", "it", "es", "nl", "pt", "sv", "da", "pl"]).languages
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
    if (auto_submitted and not auto_submitted.startswith("no")) \
            or precedence in ("bulk", "junk", "list", "auto_reply") \
            or any(message.get(h) for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response", "List-Id")) \
            or _from_a_mail_system(message, envelope_from) or _AUTO_SUBJECT.search(str(message.get("Subject", ""))):
        return "auto"
    return "person"


NULL_SENDER = "<>"  # how a message sent with `MAIL FROM:<>` keeps its envelope sender
_MAIL_SYSTEMS = ("mailer-daemon", "postmaster")


def _from_a_mail_system(message: EmailMessage, envelope_from: str) -> bool:
    """Mail with the null envelope sender (RFC 5321: a bounce, never to be answered),
    or from a MAILER-DAEMON or postmaster address (a qmail-style bounce is plain text,
    not a delivery report)."""
    if envelope_from.strip() == NULL_SENDER:
        return True
    addresses = [envelope_from.strip().strip("<>")]
    try:
        addresses += [address for _, address in getaddresses([str(v) for v in message.get_all("From", [])])]
    except (ValueError, IndexError, TypeError):  # a From header the parser cannot read
        pass
    return any(address.lower().split("@")[0] in _MAIL_SYSTEMS for address in addresses if address)


def failed_recipients(message: EmailMessage) -> list[str]:
    """The addresses a delivery status notification reports as failed for good."""
    failed = []
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in part.get_payload():  # per-message fields, then one block per recipient
            if not isinstance(block, Message):
                continue  # a body the parser kept as text: no fields to read
            action = str(block.get("Action", "")).strip().lower()
            status = str(block.get("Status", "")).strip()
            if action != "failed" or not status.startswith("5"):
                continue
            # Both: mail to our address forwarded elsewhere fails at the final one
            # (RFC 3464: Original-Recipient is the address we sent to).
            for field in ("Final-Recipient", "Original-Recipient"):
                recipient = str(block.get(field, ""))
                if ";" in recipient:
                    failed.append(recipient.split(";", 1)[1].strip().strip("<>").lower())
    return failed


def sender(message: EmailMessage) -> str:
    """The From address, lowercased ('' if there is none)."""
    addresses = getaddresses([str(value) for value in message.get_all("From", [])])
    return addresses[0][1].strip().lower() if addresses else ""


def body_text(message: EmailMessage) -> str:
    """The text the person wrote, as plain text: the text part, else the HTML part
    turned into text (quoted blocks become `>` lines). Attachments are ignored."""
    kind = message.get_content_type()
    if message.is_multipart():
        part = message.get_body(preferencelist=("plain", "html"))
        if part is None:
            return ""
        kind = part.get_content_type()
    elif kind in ("text/plain", "text/html") and not message.is_attachment():
        part = message  # a one-part message (each of the library's looks parses its headers anew)
    else:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset or a broken encoding
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    if kind == "text/html":
        return _html_to_text(content)
    # A parameter in RFC 2231 form may come as (charset, language, value).
    if collapse_rfc2231_value(part.get_param("format", "")).lower() == "flowed":
        return _unflowed(content, delete_space=collapse_rfc2231_value(part.get_param("delsp", "")).lower() == "yes")
    return content


def _unflowed(text: str, delete_space: bool) -> str:
    """Text sent as format=flowed (RFC 3676) with its soft line breaks joined: a mail
    program wraps a long line there (a line of moves separated by `;`, say)."""
    lines = text.replace("\r\n", "\n").split("\n")
    joined: list[list[Any]] = []  # [depth, content, flowed] of each line put back together
    for line in lines:
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content[1:] if content.startswith(" ") else content  # space-stuffing
        soft = joined and joined[-1][2] and joined[-1][0] == depth
        if soft:
            joined[-1][1] += content
        else:
            joined.append([depth, content, False])
        flowed = content.endswith(" ") and content != "-- "  # the signature separator is never flowed
        joined[-1][2] = flowed
        if flowed and delete_space:
            joined[-1][1] = joined[-1][1][:-1]
    return "\n".join(">" * depth + (" " if depth else "") + content for depth, content, _ in joined)


def _html_to_text(html: str) -> str:
    converter = html2text.HTML2Text(bodywidth=0)
    converter.ignore_links = converter.ignore_images = converter.ignore_emphasis = True
    text = converter.handle(html)
    return re.sub(r"\\([\\`*_{}\[\]()#+.!-])", r"\1", text)  # drop Markdown's escapes


def newest_reply(text: str, own_addresses: tuple[str, ...] = ()) -> str:
    """The newest reply in a thread's text: without quoted lines, the "On ... wrote:"
    header, the quoted email and the signature. `own_addresses` (the service's sending
    address, `@` and its mail domain) mark the start of a copy of our email that a mail
    program put below the reply without `>` (Outlook, Yahoo), in any language."""
    lines = _plain_characters(text).splitlines()
    marks = tuple(address.lower() for address in own_addresses if address)
    lines = _without_attribution(lines[:_unquoted_copy_start(lines, marks)], marks)
    lines = _without_quote_headers(_rejoined_quote_lines(_attribution_tails_apart(lines)))
    # Quoted lines go first: they are never the reply, and the parser's time grows with the text.
    unquoted = "\n".join(_without_closing_lines([line for line in lines if not line.lstrip().startswith(">")]))
    unquoted = unquoted[:MAX_READ_CHARS]
    # A list of moves written with "- " bullets is not a signature.
    thread = ThreadText(text=unquoted, languages=_LANGUAGES, keep_hyphen_lists=True).read()
    for reply in thread.replies:
        body = (reply.body or "").strip()
        if reply.signatures and not _SIGNATURE_START.match(reply.signatures):
            # The parser took a sign-off ("Thanks,", "Grüße") for a signature and dropped
            # what follows it, where a move may stand: keep it (it is passed over as text).
            kept = reply.full_body.strip().splitlines()
            end = next((i for i, line in enumerate(kept) if _SIGNATURE_START.match(line)), len(kept))
            body = "\n".join(kept[:end]).strip()
        if body:
            return body
    return ""


# How a signature proper starts (the "-- " line, a rule, "Sent from my ..."): all below is
# the signature, or the answered email that phones put there.
_SIGNATURE_START = re.compile(
    r"\s*(?:--|__|Sent |Envoy|Enviado|Inviato|Gesendet|Verzonden|Skickat|Sendt|Wys[łl]ane|Get Outlook|Von meinem"
    r"|Obtenir Outlook|Scarica Outlook|Descargar Outlook)", re.IGNORECASE)


# Dashes and minus signs that word processors and phones put for "-".
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")


def _plain_characters(text: str) -> str:
    """The text with compatibility characters folded (no-break and other spaces,
    full-width letters and digits), dashes made "-", and invisible format characters
    (zero-width spaces, byte order marks, direction marks) dropped: pasted from a web
    page or typed on a phone, a move reads as it looks."""
    text = text.replace("\r\n", "\n")
    if text.isascii():  # nothing to fold (the common case, and a character-by-character pass is slow)
        return text
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


def _names_us(line: str, marks: tuple[str, ...]) -> bool:
    """Whether `line` names one of our addresses (`marks`, lowercased)."""
    return any(mark in line.lower() for mark in marks)


def _unquoted_copy_start(lines: list[str], marks: tuple[str, ...]) -> int:
    """The index of the line that starts a copy of our email quoted without `>` (a
    "From: turnpost <play@...>" block, an "On ..., turnpost <play@...> wrote:" line):
    the first line naming our address with no `>` line anywhere after it (a reply
    written below a `>` quote keeps its text). len(lines) when there is none."""
    if not marks:
        return len(lines)
    last_quoted = max((i for i, line in enumerate(lines) if line.lstrip().startswith(">")), default=-1)
    for index in range(last_quoted + 1, len(lines)):
        if _names_us(lines[index], marks):
            return index
    return len(lines)


def _without_attribution(lines: list[str], marks: tuple[str, ...]) -> list[str]:
    """The lines without the "On ... wrote:" header of the first `>` quote when it names
    our address, in any language and however the mail program wrapped it (the reply
    parser knows some languages' wording, and not wrapped over two lines): the last
    few lines above the quote, from the one naming us (or the line it was wrapped from,
    ending in "<" or "(") down to the quote."""
    quote = next((i for i, line in enumerate(lines) if line.lstrip().startswith(">")), None)
    if not marks or quote is None:
        return lines
    above = [i for i in range(quote - 1, -1, -1) if lines[i].strip()][:3]
    start = next((i for i in above if _names_us(lines[i], marks)), None)
    if start is None:
        return lines
    if start - 1 in above and lines[start - 1].rstrip().endswith(("<", "(")):
        start -= 1
    return lines[:start] + lines[quote:]


# The verb of an "On ... wrote:" line in the languages mail programs write it.
_WROTE = (r"wrote|writes|escreveu|escribi[óo]|a [ée]crit|schrieb|ha scritto|scrive|schreef|skrev|kirjoitti"
          r"|napisa[łl]a?|написал[аи]?|пишет|napsal|[íi]rta|yazd[ıi]|skriver|kirjutas")
_ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
# A line that starts a quoted or copied email: "<date>, <name> wrote:" in any of those
# languages, or, in any language at all, a line naming an address that ends with ":"
# ("ср, 30 апр. 2025 г. в 15:19, John Doe <doe@example.com>:"), or the verb with an
# address after it (Gmail in Norwegian wraps the line inside the address).
_ATTRIBUTION = re.compile(
    rf"(?:^.{{0,200}}\b(?:{_WROTE})\s*:?\s*$)|(?:^.{{0,200}}{_ADDRESS}\W{{0,2}}\s*:\s*$)"
    rf"|(?:^.{{0,120}}\b(?:{_WROTE})\b.{{0,80}}{_ADDRESS})", re.IGNORECASE)
# The same at the end of the line the reply was written on ("tile red F7 On Tue, ... wrote:").
_ATTRIBUTION_TAIL = re.compile(rf"^(?P<reply>.*\S)\s+(?P<header>(?:On|Le|Am|Il|El|Op|Em|Den|W dniu)\s.{{4,200}}"
                               rf"\b(?:{_WROTE})\s*:\s*)$", re.IGNORECASE)
# "-----Original Message-----", "---- Bob wrote ----", "-------- Oprindelig besked --------",
# and Outlook's line of underscores: the copy of an email follows, in any language.
_SEPARATOR = re.compile(r"^\s*(?:-{2,}\s*[^-\s](?:.*[^-\s])?\s*-{2,}|_{20,})\s*$")
# An Outlook header block: "From:" in a few languages, then another "Field:" line.
_FROM_FIELD = re.compile(r"^\s*\*?(?:From|De|Von|Da|Van|Fr[åa]n|Fra|Od|От|Lähettäjä|Feladó)\s?:\*?\s", re.IGNORECASE)
_FIELD = re.compile(r"^\s*\*?[^\W\d_][^:]{0,24}\s?:\*?\s")
_WRAPPED_QUOTE_WIDTH = 60  # a quoted line this long was likely wrapped by the mail program
# A last line that signs the reply rather than says anything: "-Bob", "Sent from my
# phone" and the like in a few languages, or a rule of dashes, underscores or "=". (A
# line below "Sent from my ..." is no reply: phones put the answered email there.)
_CLOSING_LINE = re.compile(
    r"^\s*(?:-[^\W\d_][^\W\d_ .'-]*(?:[ .'-][^\W\d_]+){0,2}\.?|(?:Sent|Envoy[ée]|Enviado|Inviato|Gesendet|Verzonden"
    r"|Skickat|Sendt|Wys[łl]ane) (?:from|with|de|à partir de|depuis|desde|da|von|mit|vanaf|met|fr[åa]n|fra|z) .{0,80}"
    r"|[\W_]*)\s*$", re.IGNORECASE)


def _attribution_tails_apart(lines: list[str]) -> list[str]:
    """A reply written on the line of the "On ... wrote:" header, put on a line of its own."""
    apart: list[str] = []
    for line in lines:
        tail = _ATTRIBUTION_TAIL.match(line) if ":" in line else None
        apart.extend([tail.group("reply"), tail.group("header")] if tail else [line])
    return apart


def _rejoined_quote_lines(lines: list[str]) -> list[str]:
    """A line between two `>` lines that lost its `>` when the mail program wrapped a
    long quoted line gets it back."""
    joined = list(lines)
    for i in range(1, len(lines) - 1):
        above, line, below = lines[i - 1].lstrip(), lines[i].strip(), lines[i + 1].lstrip()
        if line and not line.startswith(">") and above.startswith(">") and below.startswith(">") \
                and len(above) >= _WRAPPED_QUOTE_WIDTH:
            joined[i] = "> " + line
    return joined


def _without_quote_headers(lines: list[str]) -> list[str]:
    """The lines without the start of quoted or copied emails in languages the reply
    parser does not know: an "On ... wrote:" header (or one naming an address) above a
    `>` quote is dropped, keeping any text below the quote; one with no `>` quote
    under it, a "-----Original Message-----" line or a "From:" header block starts a
    copy of an email, cut with all that follows."""
    kept, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith(">"):
            kept.append(line)
            index += 1
            continue
        header = _header_span(lines, index)
        if header:
            below = next((row for row in lines[index + header:] if row.strip()), "")
            if not below.lstrip().startswith(">"):
                break  # a copy without `>`: it and all that follows
            index += header
            continue
        if _SEPARATOR.match(line):
            break
        if _FROM_FIELD.match(line) and any(_FIELD.match(row) for row in lines[index + 1:index + 5]):
            while kept and _FIELD.match(kept[-1]):  # a field above "From:" ("Message du : ...") is the block's
                kept.pop()
            break
        kept.append(line)
        index += 1
    return kept


def _header_span(lines: list[str], index: int) -> int:
    """How many lines from `index` make an "On ... wrote:" header (a mail program may
    have wrapped it over up to three lines), 0 if none does."""
    line = lines[index].strip()
    if not line or len(line) > 400:
        return 0
    if _ATTRIBUTION.search(line):
        return 1
    following = lines[index + 1].strip() if index + 1 < len(lines) else ""
    if following == ">:":  # Gmail in Norwegian wraps inside the address: "... <bob@example.org" / ">:"
        return 2 if _ATTRIBUTION.search(line + ":") else 0
    parts = [line]
    for row in lines[index + 1:index + 3]:
        row = row.strip()
        if not row or row.startswith(">") or (len(row.split()) >= 4 and _ATTRIBUTION.search(row)):
            return 0  # the header, if any, starts on a later line (the line above is the reply's)
        parts.append(row)
        if _ATTRIBUTION.search(" ".join(parts)):
            return len(parts)
    return 0


def _without_closing_lines(lines: list[str]) -> list[str]:
    """The lines without blank and signing lines at the end (at most three of the latter)."""
    end, signed = len(lines), 0
    while end and (not lines[end - 1].strip() or (signed < 3 and _CLOSING_LINE.match(lines[end - 1]))):
        signed += 1 if lines[end - 1].strip() else 0
        end -= 1
    return lines[:end]


def own_addresses(mail_from: str, mail_domain: str) -> tuple[str, ...]:
    """What names the service in the header of a quoted copy of its email."""
    return tuple(address for address in (parseaddr(mail_from)[1], "@" + mail_domain) if address.strip("@"))


_DECORATION = re.compile(r"^\s*(?:[-*\u2022>]|\d+[.)])\s+")  # a list bullet or number before a move
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"
# A sentence ends at ".", "!", "?" or ":" before a space: "Thanks! tile red F7" is a
# greeting and a move (no move is written with those marks inside it).
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+")


def commands(text: str) -> list[str]:
    """The pieces of a reply that may each be a command: its lines, cut at `;` and at
    sentence ends; blank ones dropped, as are the list bullets, quotes and end
    punctuation people put around them."""
    found = []
    for line in text.splitlines():
        for part in line.split(";"):
            for sentence in _SENTENCE_END.split(_DECORATION.sub("", part)):
                command = _DECORATION.sub("", sentence).strip().strip(_QUOTES).strip()
                command = command.rstrip(".,!:").strip(_QUOTES).strip()
                if command == "?" or any(char.isalnum() for char in command):  # not a rule such as "* * *"
                    found.append(command)
    return found
