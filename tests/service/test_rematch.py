"""Rematch: a new game like an ended one, the same players (bots too) each one seat
on, asked for once by a player of it; the others invited as to any game."""
from sqlmodel import select

from service.models import Game, Seat
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of


def _ended_game_with_a_bot(make_player):
    """A finished 3-player game: two people and a bot, both people resigned."""
    first, second = make_player("first"), make_player("second")
    created = first.post("/api/games", json={"game": "tigris", "players": 3, "title": "Friday game",
                                             "invite": [second.email, {"bot": "greedy"}],
                                             "time_control": {"initial_seconds": 86400}, "timeout_policy": "skip"})
    assert created.status_code == 201, created.json
    game = second.post(f"/api/games/{created.json['id']}/accept", json={"version": created.json["version"]}).json
    assert game["status"] == "active"
    game = first.post(f"/api/games/{game['id']}/resign", json={"version": game["version"]}).json
    game = second.post(f"/api/games/{game['id']}/resign", json={"version": game["version"]}).json
    assert game["status"] == "finished"
    return first, second, game


def _seat_of(game: dict, name: str):
    return next(p["seat"] for p in game["players"] if p["name"] == name)


def test_a_player_of_an_ended_game_starts_a_rematch_with_everyone_one_seat_on(make_player, outbox):
    first, second, ended = _ended_game_with_a_bot(make_player)
    old_seats = {p["name"]: p["seat"] for p in ended["players"]}
    answer = second.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]})
    assert answer.status_code == 201, answer.json
    new = answer.json
    assert (new["game"], new["title"], new["options"], new["time_control"], new["timeout_policy"]) == (
        "tigris", "Friday game", ended["options"], {"initial_seconds": 86400}, "skip")
    assert new["status"] == "open" and new["id"] != ended["id"]
    assert sorted((p["name"], p["status"], p["bot"]) for p in new["players"]) == sorted(
        (p["name"], "invited" if p["name"] == first.email.split("@")[0] else "accepted", p["bot"])
        for p in ended["players"])
    invitations = lambda who: [n for n in outbox(who.email, "invitation") if n.game_id == new["id"]]  # noqa: E731
    assert len(invitations(first)) == 1  # the others get the normal invitation
    assert invitations(second) == []  # the one who asked is seated

    after = first.get(f"/api/games/{ended['id']}").json
    assert after["rematch_id"] == new["id"] and after["version"] == ended["version"] + 1
    started = first.post(f"/api/games/{new['id']}/accept", json={"version": new["version"]}).json
    assert started["status"] == "active"
    new_seats = {p["name"]: p["seat"] for p in started["players"]}
    assert new_seats == {name: (seat + 1) % 3 for name, seat in old_seats.items()}


def test_a_rematch_is_asked_for_once_by_a_player_of_an_ended_game(make_player, db):
    first, second, ended = _ended_game_with_a_bot(make_player)
    stranger = make_player("stranger")
    refused = stranger.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]})
    assert refused.status_code == 403 and refused.json["code"] == "forbidden"
    stale = first.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"] - 1})
    assert stale.status_code == 409 and stale.json["code"] == "stale_version"
    made = first.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]}).json
    again = second.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"] + 1})
    assert again.status_code == 409 and again.json["code"] == "rematch_started"
    assert f"game {made['id']}" in again.json["message"]
    with db() as session:  # the refused requests made no game
        first_id = session.exec(select(Seat.user_id).where(Seat.email == first.email)).first()
        made_since = select(Game.id).where(Game.creator_id == first_id, Game.id > ended["id"])
        assert session.exec(made_since).all() == [made["id"]]

    players, active = start_game(make_player, 2)
    answer = players[0].post(f"/api/games/{active['id']}/rematch", json={"version": active["version"]})
    assert answer.status_code == 409 and answer.json["code"] == "game_not_ended"
    creator = make_player("canceller")
    unplayed = creator.post("/api/games", json={"game": "tigris", "players": 2}).json
    cancelled = creator.post(f"/api/games/{unplayed['id']}/cancel", json={"version": unplayed["version"]}).json
    answer = creator.post(f"/api/games/{unplayed['id']}/rematch", json={"version": cancelled["version"]})
    assert answer.status_code == 409 and answer.json["code"] == "never_started"


def test_a_rematch_of_people_and_bots_only_starts_at_once(make_player):
    player = make_player("solo")
    game = player.post("/api/games", json={"game": "tigris", "players": 2, "invite": [{"bot": "greedy"}]}).json
    assert game["status"] == "active"
    ended = player.post(f"/api/games/{game['id']}/resign", json={"version": game["version"]}).json
    new = player.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]}).json
    assert new["status"] == "active"
    name = player.email.split("@")[0]
    assert _seat_of(new, name) == (_seat_of(ended, name) + 1) % 2


def test_the_rematch_button_on_an_ended_game_page(app, make_player):
    first, second, ended = _ended_game_with_a_bot(make_player)
    client = signed_in_client(app, second)
    page = client.get(f"/games/{ended['id']}").get_data(as_text=True)
    assert 'id="rematch-form"' in page
    assert client.post(f"/games/{ended['id']}/rematch", data={"version": ended["version"]}).status_code == 400
    answer = client.post(f"/games/{ended['id']}/rematch", data={"version": ended["version"],
                                                                "csrf_token": csrf_of(page)})
    assert answer.status_code == 302
    new_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert second.get(f"/api/games/{new_id}").json["your_seat"] is None  # seats are numbered at the start
    page = client.get(f"/games/{ended['id']}").get_data(as_text=True)
    assert 'id="rematch-link"' in page and 'id="rematch-form"' not in page
    assert f'href="/games/{new_id}"' in page


def test_the_invitations_of_a_rematch_count_against_the_invitation_limits(make_player, app):
    first, second, ended = _ended_game_with_a_bot(make_player)  # `second` had one invitation to it
    per_recipient = app.extensions["turnpost"]["settings"].invitations_per_recipient
    for n in range(per_recipient - 1):
        other = make_player(f"other{n}")
        invited = other.post("/api/games", json={"game": "tigris", "players": 2, "invite": [second.email]})
        assert invited.status_code == 201
    refused = first.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]})
    assert refused.status_code == 429 and refused.json["code"] == "invitation_limit"
    after = first.get(f"/api/games/{ended['id']}").json
    assert after["rematch_id"] is None and after["version"] == ended["version"]  # nothing changed
    # Asked by `second`, the rematch invites `first`, who is under the limit.
    assert second.post(f"/api/games/{ended['id']}/rematch", json={"version": ended["version"]}).status_code == 201
