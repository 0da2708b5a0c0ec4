"""The outbox sweep finds every row still owed, however many are waiting."""
from datetime import timedelta

from sqlalchemy import or_
from sqlmodel import select, update

from service.db import transaction
from service.models import Deadline, Notification, utcnow
from workers.delivery import unsent_ids


def test_sweep_finds_every_unsent_row_past_any_batch(app):
    engine = app.extensions["turnpost"]["database"]
    old = utcnow() - timedelta(minutes=5)
    with transaction(engine) as db:
        rows = [Notification(kind="sign_in", email=f"sweep{n}@example.org", payload={}, message_id=f"<sweep{n}@t>",
                             created_at=old) for n in range(25)]
        rows.append(Notification(kind="sign_in", email="sent@example.org", payload={}, message_id="<sent@t>",
                                 created_at=old, sent_at=old))
        rows.append(Notification(kind="sign_in", email="new@example.org", payload={}, message_id="<new@t>"))
        db.add_all(rows)
        db.flush()
        ours = [r.id for r in rows]
    found = list(unsent_ids(engine, older_than_seconds=60, batch=4))
    assert set(ours) & set(found) == set(ours[:25])  # not the sent one, not the new one
    assert len(found) == len(set(found)) and found == sorted(found)
    with transaction(engine) as db:  # other tests' rows too: owed, never tried, held by no delivery
        unsent = set(db.exec(select(Notification.id).where(
            Notification.sent_at.is_(None), Notification.dead_at.is_(None), Notification.next_attempt_at.is_(None),
            or_(Notification.claimed_until.is_(None), Notification.claimed_until < utcnow()),
            Notification.created_at < old + timedelta(seconds=1))))
    assert unsent <= set(found)


def test_the_embedded_sweep_waits_while_deliveries_are_queued(app, tmp_path):
    import dataclasses
    import threading

    from workers.dispatch import InProcessDispatcher

    engine = app.extensions["turnpost"]["database"]
    settings = dataclasses.replace(app.extensions["turnpost"]["settings"], maildir=tmp_path / "mail")
    old = utcnow() - timedelta(minutes=5)
    with transaction(engine) as db:
        rows = [Notification(kind="sign_in", email=f"queued{n}@example.org",
                             message_id=f"<queued{n}-{tmp_path.name}@t>",
                             payload={"sign_in_url": "http://turnpost.test/s", "valid_minutes": 15}, created_at=old)
                for n in range(3)]
        db.add_all(rows)
        db.flush()
        ours = [r.id for r in rows]
    with transaction(engine) as db:  # deadlines other tests' games left due would fire here, with their emails
        db.exec(update(Deadline).where(Deadline.done_at.is_(None), Deadline.due_at <= utcnow())
                .values(done_at=utcnow(), outcome="cancelled"))
    dispatcher = InProcessDispatcher(settings, engine)
    gate = threading.Event()
    dispatcher.pool.submit(gate.wait)  # the mail thread is busy
    try:
        dispatcher.dispatch(ours, [])
        assert dispatcher.mail_backlog() == 3
        dispatcher.sweep_once()
        dispatcher.sweep_once()
        assert dispatcher.mail_backlog() == 3  # the waiting rows were not queued again
    finally:
        gate.set()
        dispatcher.stop()
    assert dispatcher.mail_backlog() == 0
    with transaction(engine) as db:
        assert all(db.get(Notification, i).sent_at is not None for i in ours)
