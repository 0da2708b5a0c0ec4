"""Table talk, private notes and talk preferences through the API and the page: who
writes and who reads, the limits on what is written, that a message changes nothing
in the game, and that it is escaped wherever it is shown."""
from __future__ import annotations

from sqlmodel import select

from service.models import TableMessage
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of


def messages(player, game_id: int, after: int = 0) -> dict:
    answer = player.get(f"/api/games/{game_id}/messages?after={after}")
    assert answer.status_code == 200, answer.json
    return answer.json


def test_players_write_and_everyone_at_the_table_reads_without_a_game_version(make_player):
    players, game = start_game(make_player, 3)
    gid, version = game["id"], game["version"]
    said = players[0].post(f"/api/games/{gid}/messages", json={"text": "  Good luck, all!  "})
    assert said.status_code == 201, said.json
    assert said.json["text"] == "Good luck, all!" and said.json["seat"] == 0 and said.json["via"] == "api"
    # A stale version is accepted and ignored: talk changes nothing in the game.
    assert players[1].post(f"/api/games/{gid}/messages", json={"text": "thanks", "version": 1}).status_code == 201
    table = messages(players[2], gid)
    assert [m["text"] for m in table["messages"]] == ["Good luck, all!", "thanks"]
    assert table["can_write"] is True and table["muted"] is False
    assert players[0].get(f"/api/games/{gid}").json["version"] == version
    assert [m["text"] for m in messages(players[2], gid, after=said.json["id"])["messages"]] == ["thanks"]


def test_spectators_read_but_never_write_and_strangers_neither(make_player, db):
    players, game = start_game(make_player, 2, spectators=True)
    private_players, private = start_game(make_player, 2)
    watcher = make_player("watcher")
    players[0].post(f"/api/games/{game['id']}/messages", json={"text": "hello"})
    table = messages(watcher, game["id"])
    assert [m["text"] for m in table["messages"]] == ["hello"] and table["can_write"] is False
    refused = watcher.post(f"/api/games/{game['id']}/messages", json={"text": "let me in"})
    assert refused.status_code == 403 and refused.json["code"] == "not_a_player"
    assert "spectators read" in refused.json["message"]
    assert watcher.get(f"/api/games/{private['id']}/messages").status_code == 403
    assert watcher.post(f"/api/games/{private['id']}/messages", json={"text": "hi"}).status_code == 403
    with db() as session:
        kept = session.exec(select(TableMessage).where(TableMessage.game_id == game["id"]))
        assert [m.text for m in kept] == ["hello"]


def test_bad_messages_are_refused_saying_what_is_allowed_and_nothing_is_kept(make_player, db):
    players, game = start_game(make_player, 2)
    url = f"/api/games/{game['id']}/messages"
    cases = {"   ": ("empty_text", "1 to 1000"), "x" * 1001: ("text_too_long", "at most 1000"),
             "bell\x07": ("bad_text", "control characters")}
    for text, (code, words) in cases.items():
        answer = players[0].post(url, json={"text": text})
        assert answer.status_code == 422 and answer.json["code"] == code and words in answer.json["message"], text
    assert players[0].post(url, json={"text": 5}).status_code == 422  # schema: text is a string
    assert players[0].post(url, json={"text": "hi", "colour": "red"}).status_code == 422  # unknown field
    assert players[0].post(url, json={"text": "x" * 1000}).status_code == 201  # the limit itself is allowed
    with db() as session:
        assert len(list(session.exec(select(TableMessage).where(TableMessage.game_id == game["id"])))) == 1


def test_messages_are_rate_limited_per_player(make_player, app):
    players, game = start_game(make_player, 2)
    limit = int(app.extensions["turnpost"]["settings"].talk_limit.split()[0])
    url = f"/api/games/{game['id']}/messages"
    answers = [players[0].post(url, json={"text": f"message {n}"}).status_code for n in range(limit + 1)]
    assert answers == [201] * limit + [429]
    assert players[1].post(url, json={"text": "my own say"}).status_code == 201  # another player's count


def test_the_page_panel_shows_messages_escaped_and_its_form_posts_with_csrf(app, make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    players[0].post(f"/api/games/{gid}/messages", json={"text": "<script>alert(1)</script> & <b>bold</b>"})
    client = signed_in_client(app, players[1])
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>alert(1)" not in page and 'id="say-form"' in page
    assert client.post(f"/games/{gid}/messages", data={"text": "no token"}).status_code == 400
    answer = client.post(f"/games/{gid}/messages", data={"text": "from the page", "csrf_token": csrf_of(page)})
    assert answer.status_code == 302
    last = messages(players[0], gid)["messages"][-1]
    assert (last["text"], last["via"], last["seat"]) == ("from the page", "page", 1)
    refused = client.post(f"/games/{gid}/messages", data={"text": "", "csrf_token": csrf_of(page)},
                          headers={"Accept": "application/json"})
    assert refused.status_code == 422 and "empty" in refused.json["message"]


def test_a_player_mutes_the_table_for_himself(app, make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    players[0].post(f"/api/games/{gid}/messages", json={"text": "can you hear me"})
    assert players[1].client.put(f"/api/games/{gid}/mute", json={"muted": True},
                                 headers=players[1].headers).json == {"muted": True}
    table = messages(players[1], gid)
    assert table["muted"] is True and [m["text"] for m in table["messages"]] == ["can you hear me"]
    page = signed_in_client(app, players[1]).get(f"/games/{gid}").get_data(as_text=True)
    assert "can you hear me" not in page and "You muted this table" in page and "Unmute the table" in page
    assert messages(players[0], gid)["muted"] is False


def test_private_notes_are_the_seat_own(app, make_player):
    players, game = start_game(make_player, 2, spectators=True)
    gid = game["id"]
    url = f"/api/games/{gid}/notes"
    assert players[0].get(url).json == {"text": "", "updated_at": None}
    saved = players[0].client.put(url, json={"text": "NOTE-SENTINEL: watch the red kingdom"},
                                  headers=players[0].headers)
    assert saved.status_code == 200 and saved.json["text"] == "NOTE-SENTINEL: watch the red kingdom"
    assert players[0].get(url).json["text"] == "NOTE-SENTINEL: watch the red kingdom"
    assert players[1].get(url).json["text"] == ""  # his own notes, empty
    assert make_player("watcher").get(url).status_code == 403
    mine = signed_in_client(app, players[0]).get(f"/games/{gid}").get_data(as_text=True)
    theirs = signed_in_client(app, players[1]).get(f"/games/{gid}").get_data(as_text=True)
    assert "NOTE-SENTINEL" in mine and "NOTE-SENTINEL" not in theirs
    too_long = players[0].client.put(url, json={"text": "n" * 10001}, headers=players[0].headers)
    assert too_long.status_code == 422 and "at most 10000" in too_long.json["message"]
    assert players[0].get(url).json["text"] == "NOTE-SENTINEL: watch the red kingdom"


def test_talk_preferences_through_the_api(make_player):
    player = make_player("prefs")
    assert player.get("/api/me/preferences").json == {"email_mode": "every", "talk_mail": "next"}
    changed = player.client.put("/api/me/preferences", json={"talk_mail": "immediately"}, headers=player.headers)
    assert changed.json == {"email_mode": "every", "talk_mail": "immediately"}
    bad = player.client.put("/api/me/preferences", json={"talk_mail": "sometimes"}, headers=player.headers)
    assert bad.status_code == 422 and "talk_mail" in bad.json["errors"]["json"]
    assert player.get("/api/me/preferences").json["talk_mail"] == "immediately"


def test_the_export_of_an_ended_game_keeps_its_table_talk(make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    players[0].post(f"/api/games/{gid}/messages", json={"text": "gg"})
    players[0].post(f"/api/games/{gid}/resign", json={"version": game["version"]})
    export = players[1].get(f"/api/games/{gid}/export")
    assert export.status_code == 200, export.json
    assert [(m["seat"], m["text"]) for m in export.json["messages"]] == [(0, "gg")]


def test_the_api_document_describes_talk_notes_and_history(app):
    paths = app.test_client().get("/api/openapi.json").json["paths"]
    documented = {"/api/games/{game_id}/messages": {"get", "post"}, "/api/games/{game_id}/notes": {"get", "put"},
                  "/api/games/{game_id}/mute": {"put"}, "/api/me/preferences": {"get", "put"},
                  "/api/games/{game_id}/history/{version}": {"get"}}
    for path, methods in documented.items():
        assert methods <= set(paths[path]), path
    post = paths["/api/games/{game_id}/messages"]["post"]
    assert {"201", "403", "422", "429"} <= set(post["responses"])


def test_a_spectator_reads_the_table_on_the_page_without_a_form(app, make_player):
    players, game = start_game(make_player, 2, spectators=True)
    players[0].post(f"/api/games/{game['id']}/messages", json={"text": "welcome, watchers"})
    page = signed_in_client(app, make_player("watcher")).get(f"/games/{game['id']}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "welcome, watchers" in text
    assert 'id="say-form"' not in text and 'id="notes"' not in text and "only the players write" in text

