"""Ratings: each player's skill at each game, from the rankings of rated games.

The Plackett-Luce model of the `openskill` package rates a whole ranking at once, so a
3- or 4-player game and shared places are rated as they ended (not as pairs). A rating
is shown as its ordinal (mu - 3 sigma, rounded): low for a newcomer, rising as the
model grows sure. Only games between people are rated; an abandoned game is not.
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from service.models import Rating, Seat, User
from service.rows import RATING

if TYPE_CHECKING:
    from service.play.records import GameLike

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> int:
    """The figure shown beside a name: the model's cautious estimate, rounded."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def places(result: dict, seats: list[Seat]) -> dict[int, int]:
    """Each seat's place (1 is first; tied seats share one) in the game's final
    ranking. A player who resigned, or forfeited on time, ranks last whatever the
    stand-in playing for him scored; several such share the last place."""
    left = {s.seat for s in seats if s.resigned and s.seat is not None}
    ranking = [[seat for seat in group if seat not in left] for group in result.get("ranking", [])]
    ranking = [group for group in ranking if group]
    ranked = {seat for group in ranking for seat in group}
    last = sorted(left | ({s.seat for s in seats if s.seat is not None} - ranked))
    if last:
        ranking.append(last)
    return {seat: place for place, group in enumerate(ranking, start=1) for seat in group}


def rate_game(db: Session, game: GameLike, seats: list[Seat], now: datetime) -> None:
    """Update the players' ratings for a rated game that just finished, in the
    transaction that ends it (the caller holds the game's row lock, and a game
    finishes once). Rating rows are locked in user order, so two games ending at
    once for the same player queue rather than lose an update."""
    players = [s for s in seats if s.seat is not None and s.status == "accepted"]
    if not game.rated or game.result is None or any(s.user_id is None or s.bot for s in players):
        return
    user_ids = sorted({s.user_id for s in players if s.user_id is not None})
    connection = db.connection()
    _ensure_rows(connection, game.game_type, user_ids, now)
    current = {row.user_id: row for row in connection.execute(
        select(RATING.c.user_id, RATING.c.mu, RATING.c.sigma, RATING.c.games)
        .where(RATING.c.game_type == game.game_type, RATING.c.user_id.in_(user_ids))
        .order_by(RATING.c.user_id).with_for_update())}
    place = places(_int_ranking(game.result), players)
    teams = [[MODEL.rating(mu=current[s.user_id].mu, sigma=current[s.user_id].sigma)] for s in players]
    rated = MODEL.rate(teams, ranks=[place[s.seat] for s in players if s.seat is not None])
    connection.execute(
        update(RATING).where(RATING.c.game_type == game.game_type, RATING.c.user_id == bindparam("of_user")),
        [{"of_user": s.user_id, "mu": team[0].mu, "sigma": team[0].sigma, "games": current[s.user_id].games + 1,
          "updated_at": now} for s, team in zip(players, rated)])


def _int_ranking(result: dict) -> dict:
    """The stored result's ranking with seats as integers (JSON keeps them so, but a
    result read back may hold them as strings)."""
    return {"ranking": [[int(seat) for seat in group] for group in result.get("ranking", [])]}


def _ensure_rows(connection, game_type: str, user_ids: list[int], now: datetime) -> None:
    """A starting rating row for each player who has none (the model's prior), added
    without a race: a row another transaction adds meanwhile is kept."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    prior = MODEL.rating()
    connection.execute(dialect.insert(RATING).values(
        [{"user_id": uid, "game_type": game_type, "mu": prior.mu, "sigma": prior.sigma, "games": 0, "updated_at": now}
         for uid in user_ids]).on_conflict_do_nothing(index_elements=["user_id", "game_type"]))


def leaderboard(db: Session, game_type: str) -> list[dict]:
    """The game's rated players, best ordinal first."""
    rows = db.exec(select(Rating, User).join(User, col(User.id) == Rating.user_id)
                   .where(Rating.game_type == game_type, Rating.games > 0)).all()
    board = [_entry(rating, user) for rating, user in rows]
    board.sort(key=lambda entry: (-entry["exact"], entry["name"]))
    for place, entry in enumerate(board, start=1):
        entry["place"] = place
        del entry["exact"]
    return board


def ratings_of_user(db: Session, user_id: int) -> list[dict]:
    """A player's ratings, one per game he played rated."""
    rows = db.exec(select(Rating, User).join(User, col(User.id) == Rating.user_id)
                   .where(Rating.user_id == user_id, Rating.games > 0).order_by(Rating.game_type)).all()
    return [{key: value for key, value in _entry(rating, user).items() if key != "exact"} for rating, user in rows]


def ordinals_for(db: Session, game_type: str, user_ids: list[int]) -> dict[int, int]:
    """The shown rating of each of these players at this game (those rated)."""
    if not user_ids:
        return {}
    rows = db.exec(select(Rating.user_id, Rating.mu, Rating.sigma)
                   .where(Rating.game_type == game_type, col(Rating.user_id).in_(user_ids), Rating.games > 0)).all()
    return {user_id: ordinal(mu, sigma) for user_id, mu, sigma in rows}


def _entry(rating: Rating, user: User) -> dict:
    exact = MODEL.rating(mu=rating.mu, sigma=rating.sigma).ordinal()
    return {"player": user.id, "name": player_name(user), "game": rating.game_type, "rating": round(exact),
            "exact": exact, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games}


def player_name(user: User) -> str:
    """A player's public name: the one he chose, else his address's local part (as
    the game page shows him); never the whole address."""
    return user.name or user.email.split("@")[0]
