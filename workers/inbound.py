"""A received reply becomes moves and an answer, in one transaction.

The reply address says which game, seat, player and version the answered email was
about. Only mail from that seat's own address is taken; automatic answers and bounces
are never answered; every other reply gets an answer in its thread (to the seat's
address, never to a forged sender): what was applied, or exactly why nothing was.
A message is processed once, whatever the redelivery.
"""
from __future__ import annotations

import logging
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlmodel import Session, col, select

import engine
from engine.grammar import all_forms
from service import play, rows, table_talk
from service.db import transaction
from service.errors import Invalid, ServiceError
from service.inbound_store import raw_of
from service.models import InboundMail, Notification, Seat, User, utcnow
from service.reply_address import ReplyToken, read_bounce_address, read_reply_address
from workers import mime_budget
from workers.compose import names_of
from workers.delivery import mark_bouncing
from workers.reply_authentication import authentication_failure
from workers.reply_reading import (
    MAX_COMMANDS,
    body_text,
    commands,
    failed_recipients,
    message_kind,
    newest_reply,
    own_addresses,
    sender,
)
from workers.reply_talk import MAX_SAID_LINES, said_lines

log = logging.getLogger(__name__)
_PROGRESS = {"applied", "resigned"}  # outcomes that moved a game on
# Outcomes that break a run of unchanged replies: a player talking at the table is no responder.
_HEARD = _PROGRESS | {"said"}
_PROSE_NAMED = 8  # pieces of text passed over that an answer quotes
HELP, BOARD, RESIGN, CONFIRM = {"help", "?"}, {"board", "status"}, {"resign"}, {"resign", "yes", "confirm"}


def process(database, settings, inbound_id: int) -> play.Work:
    """Process one stored message if not done yet; returns the work to hand on."""
    try:
        with transaction(database) as db:
            row = db.exec(select(InboundMail).where(InboundMail.id == inbound_id).with_for_update()).first()
            if row is None or row.processed_at is not None:
                return play.Work()
            work = play.Work()
            outcome, detail = _handle(db, settings, row, work)
            row.processed_at, row.outcome, row.detail = utcnow(), outcome, detail[:2000]
            return work
    except _DATABASE_AWAY:
        raise  # the message stays unprocessed: the task's retry or the inbound sweep takes it again
    except Exception as err:  # noqa: BLE001 - whatever else a message can make the reading code do
        failure = err
    # Whatever the message did was rolled back; it is marked, never retried in a loop.
    log.error("inbound message %s could not be processed: %r", inbound_id, failure)
    with transaction(database) as db:
        row = db.get(InboundMail, inbound_id)
        assert row is not None, "the message being processed"
        detail = failure.message if isinstance(failure, ServiceError) else f"{type(failure).__name__}: {failure}"
        row.processed_at, row.outcome, row.detail = utcnow(), "failed", detail[:2000]
    return play.Work()


# The database away, busy or deadlocked: the same message may well go through later.
# Any other failure (a message nested past the parser's recursion, malformed past what
# the reading code expects, a use case refusing in a way no answer foresaw) would come
# again each time, so the message is marked failed.
_DATABASE_AWAY = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)


def _handle(db: Session, settings, row: InboundMail, work: play.Work) -> tuple[str, str]:
    message, too_much = _readable(raw_of(db, row))
    bounced = read_bounce_address(settings.secret_key, settings.mail_domain, row.recipient)
    if bounced is not None:
        return ("failed", f"not read: {too_much}") if too_much else _bounce(db, message, bounced)
    kind = message_kind(message, row.envelope_from)
    if kind != "person":
        return "ignored", f"an automatic message ({kind}); never answered"
    token = read_reply_address(settings.secret_key, settings.mail_domain, row.recipient)
    if token is None:
        return "refused", f"{row.recipient} is not a reply address of ours (unsigned or altered)"
    # Locked from this first look until the answer is written: a move on the web, a
    # deadline or another reply waits, so what the answer says is what happened.
    game = rows.read_locked(db, token.game_id)
    seat = next((s for s in play.seats_of(db, game) if s.seat == token.seat and s.user_id == token.user_id), None) \
        if game else None
    if game is None or seat is None:
        return "refused", "the reply address names no seat of a game"
    return _Conversation(db, settings, message, game, seat, token, work, too_much).answer_reply()


def _readable(raw: bytes) -> tuple[EmailMessage, str | None]:
    """The message as read (its attachments' bodies left out), or, when it is more
    than the service reads, its headers alone and the reason."""
    try:
        return message_from_bytes(mime_budget.reduce(raw), policy=policy.default), None
    except mime_budget.OverBudget as err:
        return message_from_bytes(mime_budget.header_block(raw) + b"\r\n\r\n", policy=policy.default), err.reason


def _bounce(db: Session, message: EmailMessage, notification_id: int) -> tuple[str, str]:
    """A delivery status notification for one of our emails: its address stops
    getting mail until the player says it works again (preferences page)."""
    notification = db.get(Notification, notification_id)
    if notification is None or message_kind(message) != "bounce":
        return "ignored", "mail to a bounce address that is no delivery failure report"
    if notification.email.lower() not in failed_recipients(message):
        return "ignored", "a delivery report that names no permanent failure"
    mark_bouncing(db, notification.email)
    return "bounce", f"mail to {notification.email} failed for good; no more is sent to it"


class _Conversation:
    """One reply from a seat, and the answer it gets."""

    def __init__(self, db: Session, settings, message: EmailMessage, game: rows.GameRow, seat: Seat, token: ReplyToken,
                 work: play.Work, too_much: str | None = None):
        self.db, self.settings, self.message, self.game, self.seat = db, settings, message, game, seat
        self.token, self.work = token, work
        self.too_much = too_much  # why the message was not read (more than the service reads), if it was not
        self.rules = play.rules(game)
        self.prose: list[str] = []  # lines around the moves not read as moves (a greeting, say)
        self.talk: list[str] = []  # what became of the reply's `say` lines

    def answer_reply(self) -> tuple[str, str]:
        seat_address = self.seat.email.lower()
        if sender(self.message) != seat_address:
            return self.answer("refused", [
                f"A reply to your {self.game.title} email came from {sender(self.message) or 'no address'}, "
                f"not from {self.seat.email}, so it was refused and nothing changed. "
                "Only replies sent from your own address are taken."])
        if self.seat.resigned:
            return self.answer("refused", [f"You have resigned from {self.game.title}; nothing changed."])
        failed = authentication_failure(self.message, seat_address, self.settings.authserv_ids)
        if failed:
            return self.answer("refused", [
                f"A reply from your address failed the {failed.upper()} check of the receiving mail server, so "
                "it may not be from you. It was refused and nothing changed."])
        if self.too_much:
            return self.answer("unreadable", [
                f"Nothing was applied: your email was not read, since {self.too_much}. "
                "Reply with your moves in a plain email."], forms=True, decision=True)
        written = newest_reply(body_text(self.message),
                               own_addresses(self.settings.mail_from, self.settings.mail_domain))
        said, written = said_lines(written)
        self.say(said)
        lines, prose = _moves_and_prose(commands(written), self.rules)
        if said and not lines:
            return self.answer("said", [])
        if prose is None:
            return self.answer("unreadable", [
                "Nothing was applied: your reply mixes moves with other text (a move inside a sentence, or text "
                "between two moves), so it could not be read safely. Write each move on its own line or as a "
                "sentence of its own, and nothing between them."], forms=True, decision=True)
        if not lines:
            return self.answer("unreadable", ["No move was found in your reply, so nothing changed."],
                               forms=True, decision=True)
        if len(lines) > MAX_COMMANDS:
            return self.answer("unreadable", [f"A reply may hold at most {MAX_COMMANDS} moves; nothing changed."],
                               forms=True, decision=True)
        word = lines[0].lower() if len(lines) == 1 else ""
        if self.token.purpose == "confirm_resign" and word in CONFIRM:
            return self.resign()
        if word in RESIGN:
            return self.answer("resign_asked", [f"You asked to resign from {self.game.title}."], confirm_resign=True)
        if word in HELP:
            return self.answer("help", [
                "To play by email, reply to a turn email with your moves: one per line, or separated by \";\". "
                "Several moves go in one reply as long as the decision stays yours (the two actions of a turn, say)."],
                forms=True, decision=True)
        if word in BOARD:
            return self.answer("board", ["The game as it stands:"], decision=True)
        self.prose = prose
        return self.play(lines)

    def say(self, said: list[str]) -> None:
        """Post the reply's messages to the table (they need no version: they change
        nothing in the game, so they are posted whatever becomes of the moves)."""
        if not said:
            return
        user = self.db.get(User, self.seat.user_id)
        assert user is not None, "the seat the reply address names has its user"
        for text in said[:MAX_SAID_LINES]:
            try:
                _, work = table_talk.say(self.db, self.game.id, user, text, "email", game=self.game)
            except ServiceError as err:
                self.talk.append(f"Not said at the table: \"{_shortened(text)}\" ({err.message}).")
                continue
            self.work.notifications.extend(work.notifications)
            self.talk.append(f"Said at the table: \"{_shortened(text)}\".")
        if len(said) > MAX_SAID_LINES:
            self.talk.append(f"One reply may say {MAX_SAID_LINES} things at the table; the other "
                             f"{len(said) - MAX_SAID_LINES} were not said.")

    def play(self, texts: list[str]) -> tuple[str, str]:
        stale = self.stale_lines()
        if stale:
            return self.answer("stale", stale, decision=True)
        moves = []
        for text in texts:
            try:
                moves.append(self.rules.parse_move(text))
            except engine.MoveParseError as err:
                return self.answer("unreadable",
                                   [f"Nothing was applied: \"{text}\" could not be read ({err.message})."],
                                   forms=True, decision=True)
        try:
            if len(moves) == 1:  # an illegal move writes nothing: no savepoint needed
                applied, left = self.apply_in_order(texts, moves)
            else:
                with self.db.begin_nested():
                    applied, left = self.apply_in_order(texts, moves)
        except Invalid as err:
            if len(moves) > 1:
                self.read_again()
            return self.answer("illegal",
                               [f"Nothing was applied: \"{err.extra['text']}\" is not allowed: {err.message}."],
                               decision=True)
        if not applied:
            return self.answer("not_yours", ["Nothing was applied: the decision is not yours now."], decision=True)
        return self.answer("applied", applied + left, decision=True, seen_all=True)

    def stale_lines(self) -> list[str]:
        if self.game.status != "active":
            return [f"Nothing was applied: the game is {self.game.status}."]
        assert self.seat.seat is not None, "the seat the reply address names"
        if not play.decision_is_current(self.db, self.game, self.seat.seat, self.token.version):
            return ["Nothing was applied: the game has moved on since the email you answered, and your decision "
                    "with it (a move changed what is open to you, or you already answered it). "
                    "Here is the game as it is now."]
        return []

    def apply_in_order(self, texts: list[str], moves: list[dict]) -> tuple[list[str], list[str]]:
        """Apply the moves while the decision stays the seat's; Invalid (with the move's
        text) at the first illegal one. Returns the lines saying what was applied and
        what was left."""
        applied, left, names, done = [], [], names_of(self.db, self.game), play.Work()
        for index, (text, move) in enumerate(zip(texts, moves)):
            if self.game.status != "active" or self.seat.seat not in self.rules.pending(play.game_state(self.game)):
                left = ["Not applied, since the decision was no longer yours: "
                        + ", ".join(f"\"{t}\"" for t in texts[index:]) + "."]
                break
            try:
                self.game, events, work = play.submit_move_to_locked(
                    self.db, self.game, self.seat.seat, move, self.game.version, email_mover=False)
            except Invalid as err:
                raise Invalid(err.message, code=err.code, text=text) from None
            done.notifications.extend(work.notifications)
            done.deadlines.extend(work.deadlines)
            applied.append(f"Applied: {self.rules.describe(move)}.")
            applied += [f"  {line}" for event in engine.events_for(events, self.seat.seat)
                        if event.get("seat") != self.seat.seat or event.get("type") not in _OWN_MOVE_EVENTS
                        if (line := self.rules.describe_event(event, names))]
        # Handed on only now: the rows of moves that a later illegal one rolls back are never sent.
        self.work.notifications.extend(done.notifications)
        self.work.deadlines.extend(done.deadlines)
        return applied, left

    def read_again(self) -> None:
        """The game and seat as the database has them after a rolled-back savepoint (the
        records in hand still hold the moves it undid)."""
        game = rows.read_locked(self.db, self.game.id)
        assert game is not None, "games are never deleted"
        self.game = game
        self.seat = next(s for s in play.seats_of(self.db, self.game) if s.id == self.seat.id)

    def resign(self) -> tuple[str, str]:
        if self.game.status != "active" or self.game.version != self.token.version:
            return self.answer("resign_asked", [
                "The game has moved on since you asked to resign, so you have not resigned yet."], confirm_resign=True)
        user = self.db.get(User, self.seat.user_id)
        assert user is not None, "the seat the reply address names has its user"
        self.game, work = play.resign(self.db, self.game.id, user, self.game.version)
        self.work.notifications.extend(work.notifications)
        self.work.deadlines.extend(work.deadlines)
        return self.answer("resigned", [f"You have resigned from {self.game.title}."])

    def answer(self, outcome: str, lines: list[str], forms: bool = False, decision: bool = False,
               confirm_resign: bool = False, seen_all: bool = False) -> tuple[str, str]:
        """Write the answer (unless this address had too many this hour); returns the outcome."""
        lines = [*self.talk, *lines]
        if self.prose:
            named = ", ".join(f"\"{_shortened(text)}\"" for text in self.prose[:_PROSE_NAMED])
            more = len(self.prose) - _PROSE_NAMED
            lines = [*lines, f"Not read as moves: {named}" + (f" and {more} more." if more > 0 else ".")]
        detail = " ".join(lines)[:1000]
        if outcome not in _HEARD:
            if self._refusals_this_hour() >= self.settings.refusals_per_hour:
                return outcome, detail + " (not answered: too many replies that changed nothing this hour)"
            run = self._answers_since_progress()
            if run >= self.settings.unchanged_run_answered:
                return outcome, detail + " (not answered: a run of replies that changed nothing)"
            if run == self.settings.unchanged_run_answered - 1:
                lines = [*lines, f"Your last {run + 1} replies changed nothing: further replies that change "
                                 "nothing get no answer until one applies a move."]
        last_seq = play.last_move_seq(self.db, self.game)
        payload = {
            "outcome": outcome, "lines": lines,
            "forms": all_forms(self.rules, self.game.options or {}) if forms else [],
            "decision": decision, "confirm_resign": confirm_resign, "version": self.game.version,
            "since_seq": last_seq if seen_all else self.seat.last_seen_seq,
            "in_reply_to": _header(self.message, "Message-ID"), "references": _header(self.message, "References"),
            "subject": _re_subject(_header(self.message, "Subject") or self.game.title),
        }
        play.notify(self.db, self.work, "reply_answer", self.seat.email, self.seat.user_id, self.game,
                     self.seat.seat, payload)
        if decision:
            self.seat.last_seen_seq = last_seq
        return outcome, detail

    def _refusals_this_hour(self) -> int:
        """Answers to this address in the last hour to replies that changed nothing:
        what a mail loop (a robot answering our answers) would pile up. Replies that
        move the game on are never limited, so a quick player is never cut short."""
        since = utcnow() - timedelta(hours=1)
        payloads = self.db.exec(select(Notification.payload).where(
            Notification.email == self.seat.email, Notification.kind == "reply_answer",
            col(Notification.created_at) > since).order_by(col(Notification.id).desc()).limit(500))
        return sum(1 for payload in payloads if payload.get("outcome") not in _HEARD)

    def _answers_since_progress(self) -> int:
        """How many answers in a row, the latest first, went to this address for
        replies that changed nothing: a vacation responder that ignores
        `Auto-Submitted` answers each of ours, so after a run of them it gets none
        until a reply applies a move (with no time limit, unlike the hourly count)."""
        limit = self.settings.unchanged_run_answered
        payloads = list(self.db.exec(select(Notification.payload).where(
            Notification.email == self.seat.email, Notification.kind == "reply_answer",
        ).order_by(col(Notification.id).desc()).limit(limit)))
        return next((index for index, payload in enumerate(payloads) if payload.get("outcome") in _HEARD),
                    len(payloads))


def _moves_and_prose(pieces: list[str], game) -> tuple[list[str], list[str] | None]:
    """The pieces (lines, sentences) that are moves: those that start with a word of
    the game's notation or a reply word (one that then does not parse is reported as
    unreadable), and the other pieces (a greeting, a sign-off) before the first and
    after the last of them. None for the others when a piece of text stands between
    two moves, or holds a move inside other words ("I think tile red F7 is best"):
    guessing what was meant could play a move the player did not choose."""
    verbs = {form.split()[0].lower() for form in all_forms(game)} | HELP | BOARD | CONFIRM
    is_move = [piece.split()[0].lower() in verbs for piece in pieces]
    if any(not move and _holds_a_move(piece, verbs, game) for piece, move in zip(pieces, is_move)):
        return pieces, None
    if not any(is_move):
        return [], pieces
    first, last = is_move.index(True), len(is_move) - 1 - is_move[::-1].index(True)
    if not all(is_move[first:last + 1]):
        return pieces, None
    return pieces[first:last + 1], pieces[:first] + pieces[last + 1:]


_LONGEST_MOVE_WORDS = 8  # a move inside prose is looked for up to this many words from its verb
_WORD_PUNCTUATION = ",.!?:;()\"'"


def _holds_a_move(piece: str, verbs: set[str], game) -> bool:
    """Whether words inside `piece`, from a move word on, read as a move of two words or
    more (a lone "pass" or "done" in a sentence is a word, not a move)."""
    words = [word.strip(_WORD_PUNCTUATION) for word in piece.split()]
    for start in range(1, len(words)):
        if words[start].lower() not in verbs:
            continue
        for end in range(start + 2, min(len(words), start + _LONGEST_MOVE_WORDS) + 1):
            try:
                game.parse_move(" ".join(words[start:end]))
                return True
            except engine.MoveParseError:
                continue
    return False


# The mover's own move is already told in its "Applied:" line.
_OWN_MOVE_EVENTS = {
    "tile_placed", "leader_placed", "leader_withdrawn", "catastrophe_placed", "tiles_swapped", "support_committed",
    "war_chosen", "monument_built", "monument_declined", "treasure_taken", "card_played", "catastrophe_played",
    "conflict_chosen", "ship_built", "treasure_swapped", "turn_passed",
}


def _header(message: EmailMessage, name: str) -> str | None:
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError):  # a header the parser cannot read
        return None
    if value is None:
        return None
    return " ".join(str(value).split())[:900] or None


def _shortened(text: str, length: int = 80) -> str:
    return text if len(text) <= length else text[:length - 1] + "\u2026"


def _re_subject(subject: str) -> str:
    subject = subject[:200]
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"
