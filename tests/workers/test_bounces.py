"""Mail that must never be answered, addresses that stop getting mail, and the marks
on turnpost's own mail that keep vacation responders quiet."""
from __future__ import annotations

import smtplib
import uuid

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from service.db import transaction
from service.models import Notification, User
from service.reply_address import bounce_address
from tests.conftest import start_game
from tests.workers.conftest import Inbox, free_port
from tests.workers.mail_players import mails_to, reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, two_actions, two_player_game  # noqa: F401
from workers import delivery
from workers.delivery import refuses_address
from workers.mail import SmtpSender


def bouncing(mail, email: str) -> bool:
    with transaction(mail.engine) as db:
        return db.exec(select(User).where(User.email == email)).one().bouncing_since is not None


def bounce_address_of_turn_mail(mail, email: str) -> str:
    with transaction(mail.engine) as db:
        row = db.exec(select(Notification).where(Notification.email == email, Notification.kind == "your_turn")).one()
    assert row.id is not None, "a stored row has an id"
    return bounce_address(mail.settings.secret_key, mail.settings.mail_domain, row.id)


def qmail_bounce(to: str, quoted: str) -> bytes:
    """A qmail-style bounce: plain text, no multipart/report, quoting the email it returns."""
    return (f"From: MAILER-DAEMON@mx.example.org\r\nTo: {to}\r\nSubject: failure notice\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@mx.example.org>\r\n\r\n"
            "Hi. This is the qmail-send program at mx.example.org.\r\n"
            "I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
            "This is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n"
            "--- Below this line is a copy of the message.\r\n\r\n" + quoted.replace("\n", "\r\n")).encode()


def test_null_sender_and_mail_system_senders_are_never_answered(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version, answers = game_row(mail, game_id).version, len(mails_to(mail.sink, ann.email))
    first, _ = two_actions(mail, game_id)
    to = reply_address_of(turn_mail)
    mail.send(qmail_bounce(to, f"Reply-To: {to}\n\n{first}\n"), to, "")  # MAIL FROM:<>
    for system in ("MAILER-DAEMON@mx.example.org", "Mail Delivery System <postmaster@mx.example.org>"):
        bounce = reply(turn_mail, first, ann.email)
        bounce.replace_header("From", system)
        mail.send(bounce, to, ann.email)
    rows = mail.inbound_rows(to)
    assert [row.outcome for row in rows] == ["ignored"] * 3, [(r.outcome, r.detail) for r in rows]
    assert rows[0].envelope_from == "<>"
    assert len(mails_to(mail.sink, ann.email)) == answers and game_row(mail, game_id).version == version


def test_a_plain_bounce_quoting_our_addresses_marks_and_applies_nothing(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    bounce_to = bounce_address_of_turn_mail(mail, ann.email)
    quoted = f"Return-Path: <{bounce_to}>\nTo: {ann.email}\nReply-To: {reply_address_of(turn_mail)}\n\n" \
             + text_of(turn_mail)
    mail.send(qmail_bounce(bounce_to, quoted), bounce_to, "")
    assert [r.outcome for r in mail.inbound_rows(bounce_to)] == ["ignored"]
    assert not bouncing(mail, ann.email)


def delivery_report(to: str, original: str, final: str) -> bytes:
    return (f"From: MAILER-DAEMON@mx.forwarder.example\r\nTo: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@mx.forwarder.example>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n"
            "--b1\r\nContent-Type: text/plain\r\n\r\nThe forwarded mail could not be delivered.\r\n"
            "--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.forwarder.example\r\n\r\n"
            f"Final-Recipient: rfc822; {final}\r\nOriginal-Recipient: rfc822;{original}\r\nAction: failed\r\n"
            "Status: 5.1.1\r\n\r\n--b1--\r\n").encode()


def test_a_report_for_a_forwarded_address_marks_ours(make_player, mail):
    """Mail to ann@ was forwarded to another address, which failed: the report names
    that one as Final-Recipient and ours as Original-Recipient."""
    (ann, _), _ = two_player_game(make_player, mail)
    bounce_to = bounce_address_of_turn_mail(mail, ann.email)
    mail.send(delivery_report(bounce_to, ann.email, "ann.gone@elsewhere.example"), bounce_to, "")
    assert [r.outcome for r in mail.inbound_rows(bounce_to)] == ["bounce"]
    assert bouncing(mail, ann.email)


class RefusingInbox(Inbox):
    """An SMTP relay that refuses one address at RCPT, as for an unknown user."""

    def __init__(self, refused: str):
        super().__init__()
        self.refused = refused.lower()
        self.asked: list[str] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        self.asked.append(address.lower())
        if address.lower() == self.refused:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown in local recipient table"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def test_a_synchronous_550_marks_the_address_and_later_mail_is_not_tried(app, make_player):
    engine, settings = app.extensions["turnpost"]["database"], app.extensions["turnpost"]["settings"]
    for _ in range(20):  # the first to move is drawn: a game where an invitee moves first has two emails owed him
        players, _ = start_game(make_player, 3)
        with transaction(engine) as db:
            rows = {p.email: list(db.exec(select(Notification.id).where(
                Notification.email == p.email, Notification.sent_at.is_(None)))) for p in players}
        if any(len(ids) >= 2 for ids in rows.values()):
            break
    email = next(address for address, ids in rows.items() if len(ids) >= 2)
    relay = RefusingInbox(email)
    relay.port = free_port()
    controller = Controller(relay, hostname="127.0.0.1", port=relay.port)
    controller.start()
    sender = SmtpSender(f"smtp://127.0.0.1:{relay.port}")
    try:
        first, *later = rows[email]
        assert delivery.deliver(engine, settings, first, sender) == "dead"
        with transaction(engine) as db:
            assert db.exec(select(User).where(User.email == email)).one().bouncing_since is not None
        assert [delivery.deliver(engine, settings, n, sender) for n in later] == ["skipped"] * len(later)
        assert relay.asked == [email]  # the later emails were never tried
    finally:
        sender.close()
        controller.stop()


@pytest.mark.parametrize("error, blames_address", [
    (smtplib.SMTPRecipientsRefused({"a@x.example": (550, b"5.1.1 User unknown")}), True),
    (smtplib.SMTPRecipientsRefused({"a@x.example": (451, b"4.3.0 try later")}), False),
    (smtplib.SMTPDataError(550, b"5.1.1 <a@x.example>: mailbox unavailable"), True),
    (smtplib.SMTPDataError(550, b"5.2.1 mailbox disabled"), True),
    (smtplib.SMTPDataError(550, b"5.7.1 message refused as spam"), False),
    (smtplib.SMTPDataError(552, b"5.3.4 message too big"), False),
    (smtplib.SMTPSenderRefused(550, b"5.1.8 bad sender domain", "bounce+x@t.example"), False),
])
def test_only_refusals_that_blame_the_address_mark_it(error, blames_address):
    assert refuses_address(error) is blames_address


def test_turnpost_mail_is_marked_auto_submitted_and_answers_auto_replied(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    assert turn_mail["Auto-Submitted"] == "auto-generated"
    mail.send(reply(turn_mail, "board", ann.email), reply_address_of(turn_mail), ann.email)
    assert latest_to(mail, ann)["Auto-Submitted"] == "auto-replied"


def test_a_run_of_replies_that_change_nothing_ends_the_answers_until_a_move_applies(make_player, mail):
    """A vacation responder that ignores Auto-Submitted answers every answer: after five
    answers in a row to replies that changed nothing, it gets none (however slowly it
    writes: unlike the hourly limit, the run has no time window)."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    to = reply_address_of(turn_mail)
    first, _ = two_actions(mail, game_id)
    answers = len(mails_to(mail.sink, ann.email))
    run = mail.settings.unchanged_run_answered
    assert run == 5
    for _ in range(run + 2):
        mail.send(reply(turn_mail, "Thank you for your message, I am away", ann.email), to, ann.email)
    sent = mails_to(mail.sink, ann.email)[answers:]
    assert len(sent) == run
    assert "Your last 5 replies changed nothing" in text_of(sent[-1])
    assert all("not answered: a run of replies" in row.detail for row in mail.inbound_rows(to)[run:])
    mail.send(reply(turn_mail, first, ann.email), to, ann.email)  # a move ends the run
    assert "Applied:" in text_of(latest_to(mail, ann))
    answer = latest_to(mail, ann)
    mail.send(reply(answer, "what now?", ann.email), reply_address_of(answer), ann.email)
    assert len(mails_to(mail.sink, ann.email)) == answers + run + 2


@pytest.mark.parametrize("envelope_from, from_header, kind", [
    ("<>", "ann@example.org", "auto"),  # the null sender: a bounce however it looks
    ("MAILER-DAEMON", "ann@example.org", "auto"),
    ("ann@example.org", "Mail Delivery Subsystem <mailer-daemon@googlemail.com>", "auto"),
    ("ann@example.org", "postmaster@mx.example.org", "auto"),
    ("", "ann@example.org", "person"),  # no envelope sender known (the HTTP endpoint without `sender`)
    ("ann@example.org", "Postmaster Fan <ann@example.org>", "person"),
])
def test_who_counts_as_a_mail_system(envelope_from, from_header, kind):
    from email import message_from_bytes, policy

    from workers.reply_reading import message_kind

    message = message_from_bytes(f"From: {from_header}\r\nSubject: Re: x\r\n\r\ntile red F7\r\n".encode(),
                                 policy=policy.default)
    assert message_kind(message, envelope_from) == kind
