"""Board pictures drawn once for all the emails that show them: shared between the
recipients of one position and between mailer processes (through the real Redis), and
drawn anew, the email still going, when Redis cannot be reached."""
import dataclasses

import pytest
from sqlmodel import select

import engine
from service.models import Notification, Seat
from service.pictures import board_picture
from tests.conftest import start_game
from tests.workers.conftest import REDIS_URL, free_port
from workers.delivery import deliver
from workers.mail import SmtpSender
from workers.picture_cache import PictureCache, cache_for

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def board_of(message) -> bytes:
    [picture] = [part for part in message.walk() if part.get_content_type() == "image/png"]
    return picture.get_content()


def mail_settings(app, smtp_server, redis_url, queue):
    return dataclasses.replace(app.extensions["turnpost"]["settings"], smtp_url=smtp_server.url,
                               redis_url=redis_url, queue=queue)


def decision_rows_for_every_seat(db, game_id: int) -> list[int]:
    """The decision email the game wrote for the seat it waits for, and the same one
    for every other seat at the same version (as when several seats owe at once)."""
    with db() as session:
        [owed] = session.exec(select(Notification).where(
            Notification.game_id == game_id, Notification.kind == "your_turn")).all()
        rows = [owed]
        for seat in session.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat != owed.seat)):
            rows.append(Notification(kind="your_turn", email=seat.email, user_id=seat.user_id, game_id=game_id,
                                     seat=seat.seat, payload=dict(owed.payload),
                                     message_id=f"<copy-{game_id}-{seat.seat}@turnpost.test>"))
            session.add(rows[-1])
        session.flush()
        return [row.id for row in rows]


@pytest.mark.parametrize("game_id", ["euphrat-cards", "tigris", "eden"])
def test_the_recipients_of_one_position_share_one_render(app, make_player, db, smtp_server, key_prefix, game_id):
    # The card game's table looks the same from every seat (hands are text in the email);
    # Tigris and Eden emails draw the spectators' board (the reader's marks are in the text).
    players, game = start_game(make_player, 3, game=game_id)
    ids = decision_rows_for_every_seat(db, game["id"])
    settings = mail_settings(app, smtp_server, REDIS_URL, key_prefix)
    sender = SmtpSender(settings.smtp_url)
    renders = cache_for(settings).renders
    for notification_id in ids:
        assert deliver(app.extensions["turnpost"]["database"], settings, notification_id, sender) == "sent"
    sender.close()
    assert len(smtp_server.messages) == 3
    assert {message["To"] for message in smtp_server.messages} == {p.email for p in players}
    pictures = {board_of(message) for message in smtp_server.messages}
    assert len(pictures) == 1 and next(iter(pictures)).startswith(PNG_SIGNATURE)
    assert cache_for(settings).renders == renders + 1


def test_a_picture_is_kept_under_what_it_shows():
    game = engine.get_game("tigris")
    state = game.setup(2, 5, {})
    # A Tigris picture marks the reader's own dynasty "(you)": each seat has its own.
    seats = [board_picture("tigris", game.view(state, seat)) for seat in (0, 1)]
    assert seats[0].key() != seats[1].key()
    assert board_picture("tigris", game.view(state, 0)).key() == seats[0].key()
    cache = PictureCache(None, "unused:", 60)
    first = cache.png(seats[0])
    assert cache.png(board_picture("tigris", game.view(state, 0))) == first
    assert cache.png(seats[1]) != first
    assert cache.renders == 2


def test_a_second_process_takes_the_picture_from_redis(redis_client, key_prefix):
    game = engine.get_game("euphrat-cards")
    picture = board_picture("euphrat-cards", game.view(game.setup(2, 9, {}), 0))
    first, second = PictureCache(REDIS_URL, key_prefix, 120), PictureCache(REDIS_URL, key_prefix, 120)
    png = first.png(picture)
    assert second.png(picture) == png and png.startswith(PNG_SIGNATURE)
    assert (first.renders, second.renders) == (1, 0)
    assert 0 < redis_client.ttl(key_prefix + picture.key()) <= 120  # kept a while, not for ever


def test_without_redis_the_picture_is_drawn_anew_and_the_email_goes(app, make_player, db, smtp_server):
    players, game = start_game(make_player, 2)
    ids = decision_rows_for_every_seat(db, game["id"])
    nothing_listens = f"redis://127.0.0.1:{free_port()}/0"
    settings = mail_settings(app, smtp_server, nothing_listens, f"no-redis-{game['id']}")
    sender = SmtpSender(settings.smtp_url)
    for notification_id in ids:
        assert deliver(app.extensions["turnpost"]["database"], settings, notification_id, sender) == "sent"
    sender.close()
    assert len(smtp_server.messages) == 2
    assert all(board_of(message).startswith(PNG_SIGNATURE) for message in smtp_server.messages)
    assert cache_for(settings).renders == 1  # the process keeps what it drew
