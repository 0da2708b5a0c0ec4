"""Ratings: the figures against openskill's own for the same results (ties, four
players, a second game on top of the first), rated games played to the end through
the API (rated once), games that are never rated, and the pages and API that show them."""
from __future__ import annotations

import uuid
from typing import cast

import pytest
from openskill.models import PlackettLuce
from sqlmodel import col, select

from service import ratings
from service.auth import user_for_email
from service.models import Game, Rating, Seat, utcnow
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of

MODEL = PlackettLuce()  # the reference: openskill used directly, as a reader would


def new_users(db, count: int) -> list[int]:
    with db() as session:
        ids = [user_for_email(session, f"rated-{uuid.uuid4().hex[:10]}@example.org").id for _ in range(count)]
    return cast(list[int], ids)  # stored users have ids


def finish_rated(db, user_ids: list[int], ranking: list[list[int]], resigned=()) -> None:
    """A rated tigris game between these users, ended with this ranking of seats."""
    with db() as session:
        game = Game(game_type="tigris", players=len(user_ids), creator_id=user_ids[0], rated=True,
                    status="finished", result={"ranking": ranking})
        seats = [Seat(game_id=0, seat=n, email=f"seat{n}", user_id=uid, status="accepted", resigned=n in resigned)
                 for n, uid in enumerate(user_ids)]
        ratings.rate_game(session, game, seats, utcnow())


def stored(db, user_ids: list[int]) -> list[tuple[float, float, int]]:
    with db() as session:
        rows = {r.user_id: r for r in session.exec(select(Rating).where(col(Rating.user_id).in_(user_ids)))}
    return [(rows[u].mu, rows[u].sigma, rows[u].games) for u in user_ids]


def flat(pairs) -> list[float]:
    return [figure for pair in pairs for figure in pair]


def figures(db, user_ids: list[int]) -> list[float]:
    """The stored mu and sigma of each user, in one flat list (as `pytest.approx` compares)."""
    return flat((mu, sigma) for mu, sigma, _ in stored(db, user_ids))


def expected(before, ranks):
    rated = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


def test_four_players_with_a_shared_place_rate_as_openskill_does_and_ratings_build_on_each_other(db):
    users = new_users(db, 4)
    finish_rated(db, users, [[2], [0, 3], [1]])  # seat 2 first, seats 0 and 3 share second
    first = expected([(25.0, 25 / 3)] * 4, [2, 3, 1, 2])
    assert figures(db, users) == pytest.approx(flat(first))
    assert [games for *_, games in stored(db, users)] == [1, 1, 1, 1]
    assert first[0][0] == pytest.approx(first[3][0]) and first[2][0] > first[0][0] > first[1][0]

    finish_rated(db, users[:3], [[1], [0], [2]])  # a 3-player game among them, from their new ratings
    second = expected(first[:3], [2, 1, 3])
    assert figures(db, users[:3]) == pytest.approx(flat(second))
    assert stored(db, users)[3] == (pytest.approx(first[3][0]), pytest.approx(first[3][1]), 1)


def test_a_two_way_tie_moves_equal_ratings_alike(db):
    users = new_users(db, 2)
    finish_rated(db, users, [[0, 1]])
    tie = expected([(25.0, 25 / 3)] * 2, [1, 1])
    assert figures(db, users) == pytest.approx(flat(tie))


def test_players_who_resigned_share_the_last_place_whatever_their_stand_in_scored(db):
    users = new_users(db, 4)
    # The engine ranked seat 1 (resigned, played by the stand-in) first; it counts last, with seat 3.
    finish_rated(db, users, [[1], [0], [3], [2]], resigned={1, 3})
    assert figures(db, users) == pytest.approx(flat(expected([(25.0, 25 / 3)] * 4, [1, 3, 2, 3])))
    seats = [Seat(game_id=0, seat=n, email="x", resigned=n == 0) for n in range(3)]
    assert ratings.places({"ranking": [[0], [1, 2]]}, seats) == {1: 1, 2: 1, 0: 2}


def test_a_rated_game_played_to_the_end_through_the_api_is_rated_once(make_player, db):
    players, game = start_game(make_player, 3, rated=True)
    gid = game["id"]
    assert game["rated"] is True
    game = players[2].post(f"/api/games/{gid}/resign", json={"version": game["version"]}).json
    ending = game["version"]
    game = players[1].post(f"/api/games/{gid}/resign", json={"version": ending}).json
    assert game["status"] == "finished"
    ids = [p["player"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    after = stored(db, ids)
    reference = expected([(25.0, 25 / 3)] * 3, [1, 2, 2])
    assert flat((mu, sigma) for mu, sigma, _ in after) == pytest.approx(flat(reference))
    assert [games for *_, games in after] == [1, 1, 1]
    # The end sent again (the same request, or any later one) changes nothing.
    again = players[1].post(f"/api/games/{gid}/resign", json={"version": ending})
    assert again.status_code == 409
    late = players[0].post(f"/api/games/{gid}/resign", json={"version": game["version"]})
    assert late.status_code == 409 and late.json["code"] == "game_not_active"
    assert stored(db, ids) == after
    shown = players[0].get(f"/api/games/{gid}").json["players"]
    assert [p["rating"] for p in sorted(shown, key=lambda p: p["seat"])] == [
        round(MODEL.rating(mu=mu, sigma=sigma).ordinal()) for mu, sigma in reference]


def test_an_abandoned_or_unrated_game_changes_no_rating(make_player, db):
    players, game = start_game(make_player, 2, rated=True)
    gid = game["id"]
    game = players[0].post(f"/api/games/{gid}/abandon", json={"version": game["version"]}).json
    game = players[1].post(f"/api/games/{gid}/abandon", json={"version": game["version"]}).json
    assert game["status"] == "abandoned"
    unrated_players, unrated = start_game(make_player, 2)
    assert unrated["rated"] is False
    unrated_players[1].post(f"/api/games/{unrated['id']}/resign", json={"version": unrated["version"]})
    ids = [p["player"] for p in game["players"]] + [p["player"] for p in unrated["players"]]
    with db() as session:
        assert session.exec(select(Rating).where(Rating.user_id.in_(ids))).all() == []


def test_a_game_with_a_bot_seat_cannot_be_rated(make_player, db, app):
    player = make_player("botfan")
    answer = player.post("/api/games", json={"game": "tigris", "players": 2, "invite": [{"bot": "greedy"}],
                                             "rated": True})
    assert answer.status_code == 422 and answer.json["code"] == "rated_with_bots"
    assert "people only" in answer.json["message"]
    client = signed_in_client(app, player)
    form = client.get("/games/new").get_data(as_text=True)
    assert 'name="rated"' in form
    refused = client.post("/games/new", data={"csrf_token": csrf_of(form), "game": "tigris", "players": "2",
                                              "bots": "1", "rated": "on"})
    assert refused.status_code == 422 and "people only" in refused.get_data(as_text=True)
    with db() as session:
        user = user_for_email(session, player.email)
        assert session.exec(select(Game).where(Game.creator_id == user.id)).all() == []


def test_the_pages_and_the_api_show_the_figures(make_player, db, app):
    players, game = start_game(make_player, 2, rated=True, title="Rated at Ur")
    gid = game["id"]
    game = players[1].post(f"/api/games/{gid}/resign", json={"version": game["version"]}).json
    winner, loser = sorted(game["players"], key=lambda p: p["seat"])
    (won_mu, won_sigma), (lost_mu, lost_sigma) = expected([(25.0, 25 / 3)] * 2, [1, 2])
    won, lost = (round(MODEL.rating(mu=m, sigma=s).ordinal()) for m, s in ((won_mu, won_sigma), (lost_mu, lost_sigma)))

    board = players[0].get("/api/ratings/tigris").json
    mine = {r["player"]: r for r in board["ratings"]}
    assert mine[winner["player"]]["rating"] == won and mine[loser["player"]]["rating"] == lost
    assert mine[winner["player"]]["place"] < mine[loser["player"]]["place"]
    assert mine[winner["player"]]["mu"] == pytest.approx(won_mu) and mine[winner["player"]]["games"] == 1
    assert players[0].get("/api/ratings/chess").status_code == 404
    theirs = players[0].get(f"/api/players/{loser['player']}/ratings").json
    assert [(r["game"], r["rating"]) for r in theirs["ratings"]] == [("tigris", lost)]

    client = signed_in_client(app, players[0])
    page = client.get("/ratings/tigris").get_data(as_text=True)
    assert f'>{winner["name"]}</a>' in page and f'<td class="rating">{won}</td>' in page
    game_page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'title="rating at this game">({lost})</span>' in game_page
    player_page = client.get(f"/players/{loser['player']}").get_data(as_text=True)
    assert f'<td class="rating">{lost}</td>' in player_page and "Rated at Ur" in player_page
    assert all("@example.org" not in shown.split("</header>")[1] for shown in (page, player_page))
    assert app.test_client().get("/ratings/tigris").status_code == 302  # signed out: to the sign-in page


def test_the_player_page_lists_games_in_play_and_ended_that_the_reader_may_open(make_player, app):
    players, watchable = start_game(make_player, 2, title="Open to watch", spectators=True)
    subject, other = players
    closed = subject.post("/api/games", json={"game": "tigris", "players": 2, "invite": [other.email],
                                              "title": "Behind closed doors"}).json
    other.post(f"/api/games/{closed['id']}/accept", json={"version": closed["version"]})
    ended = subject.post("/api/games", json={"game": "tigris", "players": 2, "invite": [other.email],
                                             "title": "Done and watchable", "spectators": True}).json
    ended = other.post(f"/api/games/{ended['id']}/accept", json={"version": ended["version"]}).json
    other.post(f"/api/games/{ended['id']}/resign", json={"version": ended["version"]})
    player_id = next(p["player"] for p in watchable["players"] if p["seat"] == 0)

    page = signed_in_client(app, make_player("watcher")).get(f"/players/{player_id}").get_data(as_text=True)
    in_play, ended_part = page.split("Games in play")[1].split("Games ended")
    assert "Open to watch" in in_play and "Done and watchable" in ended_part
    assert "Behind closed doors" not in page and "and 1 game without spectators, not listed." in page
    own = signed_in_client(app, other).get(f"/players/{player_id}").get_data(as_text=True)
    assert "Behind closed doors" in own.split("Games in play")[1].split("Games ended")[0]
    assert signed_in_client(app, other).get("/players/999999999").status_code == 404


def test_the_api_document_describes_ratings(app):
    document = app.test_client().get("/api/openapi.json").json
    assert "/api/ratings/{game_type}" in document["paths"] and "/api/players/{user_id}/ratings" in document["paths"]
    assert "rated" in document["components"]["schemas"]["CreateGame"]["properties"]


def test_a_moves_answer_shows_the_ratings_read_with_the_locked_game(make_player):
    players, game = start_game(make_player, 2, rated=True)
    game = players[1].post(f"/api/games/{game['id']}/resign", json={"version": game["version"]}).json
    rated = {p["player"]: p["rating"] for p in players[0].get(f"/api/games/{game['id']}").json["players"]}
    assert None not in rated.values()

    again = players[0].post("/api/games", json={"game": "tigris", "players": 2, "rated": True,
                                                "invite": [players[1].email]}).json
    again = players[1].post(f"/api/games/{again['id']}/accept", json={"version": again["version"]}).json
    seat = int(next(iter(again["pending"])))
    mover = next(p for p in players if p.get(f"/api/games/{again['id']}").json["your_seat"] == seat)
    move = mover.get(f"/api/games/{again['id']}/moves/legal").json["moves"][0]["move"]
    answer = mover.post(f"/api/games/{again['id']}/moves", json={"move": move, "version": again["version"]})
    assert answer.status_code == 200, answer.json
    assert {p["player"]: p["rating"] for p in answer.json["game"]["players"]} == rated
