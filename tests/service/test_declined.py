"""Who declines an invitation becomes a stranger to the game: no view, no players'
addresses, no log or export (the game has no spectators), and a clear page."""
from __future__ import annotations


def test_a_declined_invitee_loses_access_and_gets_a_page_not_a_crash(app, make_player):
    creator, leaver, stayer = make_player("creator"), make_player("leaver"), make_player("stayer")
    game = creator.post("/api/games", json={"game": "tigris", "players": 3,
                                            "invite": [leaver.email, stayer.email]}).json
    assert leaver.get(f"/api/games/{game['id']}").status_code == 200  # invited: he may look
    game = leaver.post(f"/api/games/{game['id']}/decline", json={"version": game["version"]}).json
    for path in ("", "/log", "/export", "/moves/legal"):
        answer = leaver.get(f"/api/games/{game['id']}{path}")
        assert answer.status_code == 403, (path, answer.json)
        assert stayer.email not in answer.get_data(as_text=True)
    assert leaver.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).status_code == 403
    assert all(g["id"] != game["id"] for g in leaver.get("/api/me/games").json["games"])
    page = signed_in_page(app, leaver, f"/games/{game['id']}")
    assert page.status_code == 403 and "no spectators" in page.get_data(as_text=True)
    assert stayer.email not in page.get_data(as_text=True)


def signed_in_page(app, player, path):
    from tests.service.test_hostile_input import signed_in_client

    return signed_in_client(app, player).get(path)


def test_a_declined_invitee_cannot_follow_the_game_version(app, make_player):
    from tests.service.test_hostile_input import signed_in_client

    creator, leaver, stayer = make_player("creator"), make_player("leaver"), make_player("stayer")
    game = creator.post("/api/games", json={"game": "tigris", "players": 3,
                                            "invite": [leaver.email, stayer.email]}).json
    client = signed_in_client(app, leaver)
    assert client.get(f"/games/{game['id']}/version").status_code == 200  # invited: he may follow it
    leaver.post(f"/api/games/{game['id']}/decline", json={"version": game["version"]})
    answer = client.get(f"/games/{game['id']}/version")
    assert answer.status_code == 403 and answer.json["error"] == "forbidden"
    assert signed_in_client(app, stayer).get(f"/games/{game['id']}/version").status_code == 200
