"""The outbox sweep finds every row still owed, however many are waiting."""
from datetime import timedelta

from sqlmodel import select

from service.db import transaction
from service.models import Notification, utcnow
from workers.delivery import unsent_ids


def test_sweep_finds_every_unsent_row_past_any_batch(app):
    engine = app.extensions["turnpost"]["engine"]
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
    with transaction(engine) as db:
        unsent = set(db.exec(select(Notification.id).where(Notification.sent_at.is_(None), Notification.created_at < old + timedelta(seconds=1))))
    assert unsent <= set(found)
