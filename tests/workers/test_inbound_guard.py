"""The inbound SMTP server and processing against amplification: addresses checked at
RCPT, a recipient limit, a message stored once, a parse budget, big replies whose
attachments are never read, and a sweep that hands on only what was lost."""
from __future__ import annotations

import base64
import json
import os
import smtplib
import time
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func
from sqlmodel import col, select, update

from service.db import transaction
from service.inbound_store import claim_lost, store, store_message
from service.models import InboundMail, InboundMessage, utcnow
from service.reply_address import ReplyToken, bounce_address, reply_address
from tests.workers.conftest import REDIS_URL, free_port
from tests.workers.mail_players import mails_to, reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, two_actions, two_player_game  # noqa: F401
from workers import inbound, mime_budget
from workers.inbound_smtp import MAX_RECIPIENTS, start_inbound_smtp


@pytest.fixture
def receiver(app):
    """The inbound SMTP server alone; the ids it hands on are collected, not processed."""
    settings = app.extensions["turnpost"]["settings"]
    handed_on: list[int] = []
    port = free_port()
    server = start_inbound_smtp(settings, app.extensions["turnpost"]["database"], handed_on.append, "127.0.0.1", port)
    server.handed_on, server.port, server.settings = handed_on, port, settings
    yield server
    server.stop()


def signed(settings, game_id: int, version: int = 1) -> str:
    return reply_address(settings.secret_key, settings.mail_domain, ReplyToken(game_id, 0, 1, version))


def rows_for(db, recipients, after_id: int = 0) -> list[InboundMail]:
    """The stored mail for `recipients` (past row `after_id`: the test database is shared
    by the tests of a process, and others may have written to such an address)."""
    with db() as session:
        return list(session.exec(select(InboundMail).where(col(InboundMail.recipient).in_(list(recipients)),
                                                           col(InboundMail.id) > after_id)))


def last_inbound_id(db) -> int:
    with db() as session:
        return session.exec(select(func.max(InboundMail.id))).one() or 0


def test_unsigned_or_altered_addresses_are_refused_at_rcpt_before_any_data(receiver, db):
    settings = receiver.settings
    before = last_inbound_id(db)
    good = signed(settings, 900_001)
    local, domain = good.split("@")
    altered = f"{local[:-1]}{'a' if local[-1] != 'a' else 'b'}@{domain}"
    refused = [f"play+anything@{domain}", altered, f"bounce+1.aaaa@{domain}", f"postmaster@{domain}",
               good.replace("play+", "bounce+")]
    with smtplib.SMTP("127.0.0.1", receiver.port) as client:
        client.ehlo()
        client.mail("ann@example.org")
        for address in refused:
            code, text = client.rcpt(address)
            assert code == 550 and b"no such mailbox" in text, (address, code, text)
        assert client.docmd("DATA")[0] == 503  # no recipient was taken: no data
        client.rset()
        client.mail("<>")
        assert client.rcpt(bounce_address(settings.secret_key, domain, 77))[0] == 250
        assert client.rcpt(good)[0] == 250
    assert rows_for(db, refused, before) == []


def test_a_transaction_takes_at_most_100_recipients_and_stores_the_message_once(receiver, db):
    settings = receiver.settings
    addresses = [signed(settings, 910_000 + n) for n in range(MAX_RECIPIENTS + 1)]
    raw = (f"From: ann@example.org\r\nMessage-ID: <{uuid.uuid4().hex}@client.example>\r\nSubject: Re: turn\r\n\r\n"
           + "tile red F7\r\n" + "padding to make the copies count\r\n" * 3000).encode()
    with smtplib.SMTP("127.0.0.1", receiver.port) as client:
        client.ehlo()
        client.mail("ann@example.org")
        codes = [client.rcpt(address)[0] for address in addresses]
        assert client.data(raw)[0] == 250
    assert codes == [250] * MAX_RECIPIENTS + [452]
    rows = rows_for(db, addresses)
    assert sorted(row.id for row in rows) == sorted(receiver.handed_on) and len(rows) == MAX_RECIPIENTS
    assert addresses[-1] not in {row.recipient for row in rows}
    [message_id] = {row.inbound_message_id for row in rows}
    with db() as session:
        assert session.get(InboundMessage, message_id).raw == raw
    # The same message again (a sending server retrying) stores nothing more.
    with smtplib.SMTP("127.0.0.1", receiver.port) as client:
        client.sendmail("ann@example.org", addresses[:3], raw)
    assert len(rows_for(db, addresses)) == MAX_RECIPIENTS and len(receiver.handed_on) == MAX_RECIPIENTS


def many_parts(parts: int, sender: str) -> bytes:
    body = b"".join(b"--p\r\nContent-Type: text/plain\r\n\r\nboard\r\n" for _ in range(parts))
    return (f"From: {sender}\r\nSubject: Re: your turn\r\nMessage-ID: <{uuid.uuid4().hex}@x>\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="p"\r\n\r\n').encode() + body + b"--p--\r\n"


def nested(depth: int, sender: str) -> bytes:
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return (f"From: {sender}\r\nSubject: Re: your turn\r\nMessage-ID: <{uuid.uuid4().hex}@x>\r\nMIME-Version: 1.0\r\n"
            .encode() + opening + b"Content-Type: text/plain\r\n\r\nboard\r\n" + closing)


def test_the_parse_budget_is_checked_before_any_full_parse():
    sender = "ann@example.org"
    too_long = f"From: {sender}\r\n\r\n".encode() + b"x" * (mime_budget.MAX_READ_BYTES + 1)
    for message, reason in ((many_parts(20_000, sender), "more than 100 parts"),
                            (nested(mime_budget.MAX_DEPTH + 1, sender), "nested more than 10 deep"),
                            (too_long, "text is more")):
        with pytest.raises(mime_budget.OverBudget, match=reason):
            mime_budget.reduce(message)
    within = mime_budget.reduce(many_parts(mime_budget.MAX_PARTS - 1, sender))
    assert within.count(b"board") == mime_budget.MAX_PARTS - 1
    nested_within = mime_budget.reduce(nested(mime_budget.MAX_DEPTH, sender))
    assert b"board" in nested_within


def test_a_message_past_the_parse_budget_is_answered_with_the_reason_and_changes_nothing(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    to = reply_address_of(turn_mail)
    started = time.process_time()
    mail.send(many_parts(20_000, ann.email), to, ann.email)  # 780 KB; read whole, seconds of CPU
    cpu = time.process_time() - started
    mail.send(nested(40, ann.email), to, ann.email)
    rows = mail.inbound_rows(to)
    assert [row.outcome for row in rows] == ["unreadable", "unreadable"]
    assert "more than 100 parts" in rows[0].detail and "nested more than 10 deep" in rows[1].detail
    answers = [text_of(m) for m in mails_to(mail.sink, ann.email)[-2:]]
    assert "was not read, since it has more than 100 parts" in answers[0]
    assert "was not read, since its parts are nested more than 10 deep" in answers[1]
    assert game_row(mail, game_id).version == version
    print(f"a 20,000-part message cost the receiving and processing process {cpu:.2f} s of CPU")


def test_a_reply_with_a_3_mb_photo_and_a_text_attachment_is_applied(make_player, mail):
    """Messages up to 25 MiB are taken, as ordinary mail servers take them (above it:
    552, test_inbound.py); the attachments, a text file among them, are never read,
    so they cost nothing of the budget."""
    assert mail.settings.inbound_max_bytes == 25 * 1024 * 1024
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    message = reply(turn_mail, first, ann.email)
    message.add_attachment(os.urandom(3 * 1024 * 1024), maintype="image", subtype="jpeg", filename="IMG_0001.jpg")
    message.add_attachment("tile red A1\n" * 200_000, subtype="plain", filename="notes.txt")
    assert len(message.as_bytes()) > 6 * 1024 * 1024
    mail.send(message, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1
    assert text_of(latest_to(mail, ann)).count("Applied:") == 1
    [row] = mail.inbound_rows(reply_address_of(turn_mail))
    assert row.outcome == "applied"


def queued_ids(redis_client, queue: str) -> list[int]:
    """The reply ids of the process_inbound tasks waiting in `queue` (kombu's JSON)."""
    ids = []
    for entry in redis_client.lrange(queue, 0, -1):
        body = json.loads(base64.b64decode(json.loads(entry)["body"]))
        ids.append(body[0][0])
    return ids


@pytest.fixture
def celery_on_test_queue(app, database_url, redis_client, monkeypatch, tmp_path):
    """The Celery tasks of this process pointed at the test database and a queue of
    their own in the local Redis."""
    from workers import tasks
    from workers.app import celery, inbound_queue

    queue = f"turnpost-test-{uuid.uuid4().hex[:12]}"
    for name, value in (("DATABASE_URL", database_url), ("REDIS_URL", REDIS_URL), ("TURNPOST_QUEUE", queue),
                        ("SECRET_KEY", "test-secret-key"), ("TURNPOST_MAILDIR", str(tmp_path))):
        monkeypatch.setenv(name, value)
    default_queue, broker = celery.conf.task_default_queue, celery.conf.broker_url
    tasks._runtime.cache_clear()
    tasks._dispatcher.cache_clear()
    yield inbound_queue(queue)
    tasks._runtime.cache_clear()
    tasks._dispatcher.cache_clear()
    celery.conf.task_default_queue, celery.conf.broker_url = default_queue, broker
    for key in redis_client.scan_iter(queue + "*"):
        redis_client.delete(key)


def test_the_inbound_sweep_enqueues_only_lost_replies_and_each_once(app, db, redis_client, celery_on_test_queue):
    from workers.tasks import sweep_inbound

    engine = app.extensions["turnpost"]["database"]
    settings = app.extensions["turnpost"]["settings"]
    raw = f"From: a@example.org\r\nMessage-ID: <{uuid.uuid4().hex}@x>\r\n\r\nboard\r\n".encode()
    ours = store_message(engine, raw, [signed(settings, 930_000 + n) for n in range(30)])
    with db() as session:  # stored two minutes ago, and their tasks lost
        session.exec(update(InboundMail).where(InboundMail.id.in_(ours)).values(
            queued_at=utcnow() - timedelta(minutes=2)))
    assert sweep_inbound.run() >= len(ours)
    first = queued_ids(redis_client, celery_on_test_queue)
    assert set(ours) <= set(first) and len(first) == len(set(first))
    # While they wait in the queue, no sweep adds them again.
    assert sweep_inbound.run() == 0
    redis_client.delete(celery_on_test_queue)  # taken by a worker that died: the queue is empty, the rows unprocessed
    assert sweep_inbound.run() == 0  # handed on a moment ago: not yet lost
    assert not set(ours) & set(claim_lost(engine, older_than_seconds=60))
    assert set(ours) <= set(claim_lost(engine, older_than_seconds=0))  # a minute on, they count as lost again


def test_a_stored_reply_is_handed_on_by_the_sweep_only_if_its_hand_over_failed(app):
    engine = app.extensions["turnpost"]["database"]
    settings = app.extensions["turnpost"]["settings"]
    raw = f"Message-ID: <{uuid.uuid4().hex}@x>\r\n\r\nboard\r\n".encode()
    inbound_id = store(engine, raw, signed(settings, 940_001))
    assert inbound_id not in claim_lost(engine, older_than_seconds=60)  # just handed on
    inbound.process(engine, settings, inbound_id)
    assert inbound_id not in claim_lost(engine, older_than_seconds=0)  # processed


def test_a_report_past_the_parse_budget_is_marked_failed_and_marks_nothing(app):
    engine, settings = app.extensions["turnpost"]["database"], app.extensions["turnpost"]["settings"]
    report = many_parts(mime_budget.MAX_PARTS + 1, "MAILER-DAEMON@mx.example.org").replace(
        b"multipart/mixed", b"multipart/report; report-type=delivery-status", 1)
    inbound_id = store(engine, report, bounce_address(settings.secret_key, settings.mail_domain, 123_456), "<>")
    inbound.process(engine, settings, inbound_id)
    with transaction(engine) as db:
        row = db.get(InboundMail, inbound_id)
    assert (row.outcome, row.detail) == ("failed", "not read: it has more than 100 parts (attachments, pictures, "
                                                   "alternatives)")
