"""Open seats: games waiting for players, listed and joined by anyone signed in; two
joiners for the last seat on PostgreSQL, exactly one seated."""
import threading

from sqlmodel import select

from service.models import Game, Seat
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of


def _create(creator, players=3, invite=(), open_seats=1, **more):
    answer = creator.post("/api/games", json={"game": "tigris", "players": players, "invite": list(invite),
                                              "open_seats": open_seats, **more})
    assert answer.status_code == 201, answer.json
    return answer.json


def _listed(player, game_id):
    games = player.get("/api/open-games").json["games"]
    return next((g for g in games if g["id"] == game_id), None)


def test_a_game_with_open_seats_is_listed_joined_and_starts_when_every_seat_is_filled(make_player, outbox):
    creator, invitee, stranger = make_player("creator"), make_player("invitee"), make_player("stranger")
    game = _create(creator, 3, [invitee.email], open_seats=1, time_control={"initial_seconds": 2 * 86400})
    assert game["open_seats"] == 1 and game["status"] == "open"

    listed = _listed(stranger, game["id"])
    assert listed["open_seats"] == 1 and listed["seats"] == 3 and listed["you_are_in"] is False
    assert listed["game"] == "tigris" and listed["time_control"] == {"initial_seconds": 2 * 86400}
    assert [(p["name"], p["status"]) for p in listed["players"]] == [
        (creator.email.split("@")[0], "accepted"), (invitee.email.split("@")[0], "invited")]
    assert all(p["email"] is None for p in listed["players"])  # a stranger sees names, not addresses
    assert _listed(creator, game["id"])["you_are_in"] is True

    joined = stranger.post(f"/api/games/{game['id']}/join", json={"version": listed["version"]})
    assert joined.status_code == 200, joined.json
    assert joined.json["open_seats"] == 0 and joined.json["status"] == "open"
    assert joined.json["version"] == listed["version"] + 1
    assert _listed(stranger, game["id"]) is None  # no open seat left: off the list

    started = invitee.post(f"/api/games/{game['id']}/accept", json={"version": joined.json["version"]}).json
    assert started["status"] == "active"
    assert sorted(p["seat"] for p in started["players"]) == [0, 1, 2]
    assert stranger.get(f"/api/games/{game['id']}").json["your_seat"] is not None


def test_joining_the_last_seat_starts_the_game(make_player, outbox):
    creator, joiner = make_player("creator"), make_player("joiner")
    game = _create(creator, 2, open_seats=1)
    started = joiner.post(f"/api/games/{game['id']}/join", json={"version": game["version"]}).json
    assert started["status"] == "active" and started["your_seat"] is not None
    first = next(p for p in started["players"] if str(p["seat"]) in started["pending"])
    owed_to = creator.email if first["name"] == creator.email.split("@")[0] else joiner.email
    assert len(outbox(owed_to, "your_turn")) == 1


def test_open_seats_beyond_the_room_left_are_refused_and_nothing_is_created(make_player, db):
    creator, invitee = make_player("creator"), make_player("invitee")
    cases = [({"players": 2, "invite": [invitee.email], "open_seats": 1}, "too_many_open_seats"),
             ({"players": 3, "invite": [{"bot": "greedy"}], "open_seats": 2}, "too_many_open_seats"),
             ({"players": 3, "open_seats": -1}, "invalid"),
             ({"players": 3, "open_seats": "1"}, "invalid"),
             ({"players": 3, "open_seats": 1.5}, "invalid")]
    for body, code in cases:
        answer = creator.post("/api/games", json={"game": "tigris", **body})
        assert answer.status_code == 422 and answer.json["code"] == code, (body, answer.json)
    refused = creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [invitee.email],
                                               "open_seats": 1}).json
    assert "room for 0 to 0 open seats" in refused["message"]
    with db() as session:
        me = select(Seat.game_id).where(Seat.email == creator.email)
        assert session.exec(me).first() is None


def test_joining_twice_stale_full_or_cancelled_is_refused_and_changes_nothing(make_player, db):
    creator, invitee, joiner, late = make_player("c"), make_player("i"), make_player("j"), make_player("l")
    game = _create(creator, 4, [invitee.email], open_seats=2)
    version = game["version"]
    for who, code in ((creator, "already_in_game"), (invitee, "already_in_game")):
        answer = who.post(f"/api/games/{game['id']}/join", json={"version": version})
        assert answer.status_code == 409 and answer.json["code"] == code
    stale = joiner.post(f"/api/games/{game['id']}/join", json={"version": version - 1})
    assert stale.status_code == 409 and stale.json == {
        "code": "stale_version", "current_version": version,
        "message": f"the game has changed: it is at version {version}, not {version - 1}"}
    version = joiner.post(f"/api/games/{game['id']}/join", json={"version": version}).json["version"]
    again = joiner.post(f"/api/games/{game['id']}/join", json={"version": version})
    assert again.status_code == 409 and again.json["code"] == "already_in_game"
    assert joiner.post(f"/api/games/{game['id']}/join", json={}).status_code == 422  # the version is required
    # The creator still cancels; nobody joins a cancelled game.
    cancelled = creator.post(f"/api/games/{game['id']}/cancel", json={"version": version}).json
    assert cancelled["status"] == "abandoned" and _listed(late, game["id"]) is None
    answer = late.post(f"/api/games/{game['id']}/join", json={"version": cancelled["version"]})
    assert answer.status_code == 409 and answer.json["code"] == "game_not_open"
    with db() as session:
        seats = session.exec(select(Seat.email).where(Seat.game_id == game["id"])).all()
        assert sorted(seats) == sorted([creator.email, invitee.email, joiner.email])
    full = _create(creator, 2, open_seats=0)
    answer = late.post(f"/api/games/{full['id']}/join", json={"version": full["version"]})
    assert answer.status_code == 409 and answer.json["code"] == "no_open_seat"


def test_a_player_who_declined_an_invitation_may_join_an_open_seat(make_player):
    creator, invitee = make_player("creator"), make_player("invitee")
    game = _create(creator, 3, [invitee.email], open_seats=1)
    declined = invitee.post(f"/api/games/{game['id']}/decline", json={"version": game["version"]}).json
    joined = invitee.post(f"/api/games/{game['id']}/join", json={"version": declined["version"]})
    assert joined.status_code == 200, joined.json
    assert [p["status"] for p in joined.json["players"]] == ["accepted", "accepted"]


def test_open_seats_leave_no_room_for_more_invitations(make_player):
    creator, invitee = make_player("creator"), make_player("invitee")
    game = _create(creator, 2, open_seats=1)
    answer = creator.post(f"/api/games/{game['id']}/invitations", json={"email": invitee.email,
                                                                         "version": game["version"]})
    assert answer.status_code == 409 and answer.json["code"] == "game_full"


def test_the_spectator_setting_holds_for_a_listed_game(make_player):
    creator, stranger = make_player("creator"), make_player("stranger")
    private, watched = _create(creator, 3, open_seats=2), _create(creator, 3, open_seats=2, spectators=True)
    assert _listed(stranger, private["id"])["spectators"] is False
    refused = stranger.get(f"/api/games/{private['id']}")
    assert refused.status_code == 403 and refused.json["code"] == "no_spectators"
    assert stranger.get(f"/api/games/{watched['id']}").status_code == 200
    stranger.post(f"/api/games/{private['id']}/join", json={"version": private["version"]})
    assert stranger.get(f"/api/games/{private['id']}").status_code == 200  # a player now


def test_the_open_games_list_needs_a_signed_in_caller(app):
    answer = app.test_client().get("/api/open-games")
    assert answer.status_code == 401
    page = app.test_client().get("/open-games")
    assert page.status_code == 302 and "/sign-in" in page.headers["Location"]


def test_two_joiners_racing_for_the_last_seat_one_is_seated_the_other_gets_409(make_player, db):
    creator = make_player("creator")
    for _round in range(3):
        game = _create(creator, 3, open_seats=2)
        first = make_player("first")
        version = first.post(f"/api/games/{game['id']}/join", json={"version": game["version"]}).json["version"]
        joiners = [make_player(f"racer{i}") for i in range(2)]
        barrier = threading.Barrier(len(joiners))
        answers = []

        def join(joiner, game=game, version=version, barrier=barrier, answers=answers):
            client = joiner.client.application.test_client()  # a client of its own per thread
            barrier.wait()
            answers.append(client.post(f"/api/games/{game['id']}/join", json={"version": version},
                                       headers=joiner.headers))

        threads = [threading.Thread(target=join, args=(j,)) for j in joiners]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status_code for a in answers) == [200, 409]
        lost = next(a for a in answers if a.status_code == 409).json
        assert lost["code"] == "stale_version" and lost["current_version"] == version + 1
        with db() as session:
            row = session.get(Game, game["id"])
            seats = session.exec(select(Seat).where(Seat.game_id == game["id"])).all()
            assert row.status == "active" and row.open_seats == 0 and len(seats) == 3
            assert sorted(s.seat for s in seats) == [0, 1, 2]


def test_the_open_games_page_lists_a_game_and_its_join_button_posts_with_csrf(app, make_player):
    creator, joiner = make_player("creator"), make_player("joiner")
    game = _create(creator, 2, open_seats=1, title="Looking for a partner",
                   time_control={"initial_seconds": 2 * 86400}, options={"board": "advanced"})
    client = signed_in_client(app, joiner)
    page = client.get("/open-games").get_data(as_text=True)
    assert "Looking for a partner" in page and f'action="/games/{game["id"]}/join"' in page
    row = page[page.index("Looking for a partner"):page.index(f'action="/games/{game["id"]}/join"')]
    assert "2 players" in row and "board: advanced" in row and "2 days each decision" in row
    assert creator.email.split("@")[0] in row and creator.email not in row
    assert client.post(f"/games/{game['id']}/join", data={"version": game["version"]}).status_code == 400
    stale = client.post(f"/games/{game['id']}/join", data={"version": game["version"] - 1,
                                                           "csrf_token": csrf_of(page)})
    assert stale.status_code == 302 and stale.headers["Location"].endswith("/open-games")
    assert "Nothing was changed" in client.get("/open-games").get_data(as_text=True)
    joined = client.post(f"/games/{game['id']}/join", data={"version": game["version"], "csrf_token": csrf_of(page)})
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/games/{game['id']}")
    assert joiner.get(f"/api/games/{game['id']}").json["status"] == "active"
    assert f'action="/games/{game["id"]}/join"' not in client.get("/open-games").get_data(as_text=True)


def test_the_new_game_form_leaves_open_seats(app, make_player, db):
    creator = make_player("creator")
    client = signed_in_client(app, creator)
    form = client.get("/games/new").get_data(as_text=True)
    assert 'name="open_seats"' in form
    answer = client.post("/games/new", data={"game": "tigris", "players": "3", "open_seats": "2",
                                             "csrf_token": csrf_of(form)})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    with db() as session:
        assert session.get(Game, game_id).open_seats == 2
    too_many = client.post("/games/new", data={"game": "tigris", "players": "3", "open_seats": "3",
                                               "csrf_token": csrf_of(form)})
    assert too_many.status_code == 422 and "open seats" in too_many.get_data(as_text=True)
    with db() as session:  # the refused form created nothing
        assert len(session.exec(select(Seat).where(Seat.email == creator.email)).all()) == 1


def test_open_seats_joining_and_rematch_are_in_the_openapi_document(app):
    spec = app.test_client().get("/api/openapi.json").json
    for path, method in (("/api/open-games", "get"), ("/api/games/{game_id}/join", "post"),
                         ("/api/games/{game_id}/rematch", "post"), ("/api/games/{game_id}/cancel", "post")):
        assert method in spec["paths"][path], path
    schemas = spec["components"]["schemas"]
    assert "open_seats" in schemas["CreateGame"]["properties"]
    assert {"open_seats", "rematch_id"} <= set(schemas["Game"]["properties"])
    assert {"you_are_in", "seats"} <= set(schemas["OpenGame"]["properties"])
