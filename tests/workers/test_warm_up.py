"""A new worker readies itself before its first task: the drawings done, the
connections open; servers that are down at that moment do not stop it."""
import engine
from service import pictures
from service.db import make_engine
from tests.workers.conftest import free_port
from tests.workers.test_mail import sample
from workers.mail import SmtpSender, build_message
from workers.picture_cache import PictureCache
from workers.warm_up import draw_every_game, open_connections


def test_after_the_warm_up_each_game_s_background_is_ready():
    draw_every_game()
    for game_id in pictures.games_with_drawings():
        rules = engine.get_game(game_id)
        view = rules.view(rules.setup(players=rules.max_players, seed=1, options={}), 0)
        picture = pictures.board_picture(game_id, view)
        if picture.background is None:
            continue
        missed = pictures._background_pixels.cache_info().misses
        picture.png()
        assert pictures._background_pixels.cache_info().misses == missed, game_id


def test_a_new_process_opens_its_connections_and_keeps_them(app, smtp_server):
    sender = SmtpSender(smtp_server.url)
    open_connections(app.extensions["turnpost"]["database"], sender, None)
    opened = sender._connection
    assert opened is not None
    sender.send(build_message(sample()))
    assert sender._connection is opened and len(smtp_server.messages) == 1
    sender.close()


def test_servers_down_at_the_start_do_not_stop_the_worker():
    sender = SmtpSender(f"smtp://127.0.0.1:{free_port()}")
    database = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nothing")
    open_connections(database, sender, PictureCache(f"redis://127.0.0.1:{free_port()}/0", "unused:", 60))
    assert sender._connection is None
