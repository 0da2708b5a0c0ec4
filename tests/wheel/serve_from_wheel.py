"""Run by tests/test_wheel.py with the python of a virtual environment that has the
wheel installed (not the checkout): set up a SQLite database with the packaged
migrations, start a game, serve its page and a static file, and compose the decision
email with its board picture. Prints what it checked as JSON."""
import json
import sys
from pathlib import Path


def main(work: Path) -> dict:
    from sqlmodel import select

    import engine
    import service
    import workers
    from service.app import create_app
    from service.auth import start_session, user_for_email
    from service.config import Settings
    from service.db import transaction
    from service.migrate import upgrade
    from service.models import Notification
    from service.play import create_game, respond
    from workers.compose import compose

    url = f"sqlite:///{work / 'turnpost.db'}"
    upgrade(url)
    settings = Settings(database_url=url, redis_url=None, smtp_url=None, base_url="http://turnpost.test",
                        secret_key="wheel-test", maildir=work / "mail")
    app = create_app(settings)
    database = app.extensions["turnpost"]["database"]
    with transaction(database) as db:
        ann = user_for_email(db, "ann@example.org")
        game, _ = create_game(db, ann, "tigris", 2, invite=["bob@example.org"], title="Wheel")
        game_id = game.id
    assert game_id is not None, "a stored game has an id"
    with transaction(database) as db:  # the game starts; whoever moves first gets the decision email
        respond(db, game_id, user_for_email(db, "bob@example.org"), True, 1)
    with transaction(database) as db:
        ann = user_for_email(db, "ann@example.org")
        session_secret = start_session(db, ann)  # a game page is for signed-in readers
    client = app.test_client()
    with client.session_transaction() as session:
        session["sid"] = session_secret
    page = client.get(f"/games/{game_id}")
    script = client.get("/static/game.js")
    with transaction(database) as db:
        row = db.exec(select(Notification).where(Notification.game_id == game_id,
                                                 Notification.kind == "your_turn")).first()
        assert row is not None, "the first mover is owed a decision email"
        mail = compose(db, settings, row)
    return {
        "modules": [m.__file__ for m in (engine, service, workers)],
        "page_status": page.status_code, "page": page.get_data(as_text=True),
        "script_status": script.status_code,
        "subject": mail.subject, "text": mail.text, "html": mail.html,
        "pictures": [len(image.data) for image in mail.images],
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
