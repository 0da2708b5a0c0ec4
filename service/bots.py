"""Bots in service games: which bot stands in for a seat, and its move.

A bot sees what a person in its seat would: the seat's view and legal moves, never
the state itself. Its seed is fixed per game and seat, so a game's bot decisions can
be replayed.
"""
from __future__ import annotations

import hashlib

import engine
from engine.bots import get_bot
from service.config import BOT_SEARCH_ITERATIONS

# Who plays a seat whose player timed out (policy `bot`) or resigned: quick and sound.
STAND_IN = "greedy"
# Who plays a bot's turn when the worker cut its search short (its time limit) or the
# turn was tried before and never finished: a legal move, at once.
CUT_SHORT_STAND_IN = "random"


def bot_seed(game_id: int, seat: int) -> int:
    return int.from_bytes(hashlib.sha256(f"turnpost bot {game_id} {seat}".encode()).digest()[:8], "big")


def bot_inputs(game_rules, state, seat: int) -> tuple[dict, list[dict]]:
    """All a bot is shown: the seat's view and the seat's legal moves."""
    return game_rules.view(state, seat), game_rules.legal_moves(state, seat)


def bot_move(game_type: str, game_id: int, state, seat: int, kind: str) -> dict:
    game_rules = engine.get_game(game_type)
    view, moves = bot_inputs(game_rules, state, seat)
    budget = {"iterations": BOT_SEARCH_ITERATIONS} if kind == "strong" else {}
    return get_bot(game_type, kind, bot_seed(game_id, seat), **budget).choose(view, moves)
