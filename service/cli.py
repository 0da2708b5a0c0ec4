"""The `turnpost` command line."""
from __future__ import annotations

import json

import click

import engine
from engine.simulate import random_playout


@click.group()
def main() -> None:
    """turnpost: a play-by-email turn service for strategy games."""


@main.command()
@click.option("--game", "game_id", default="tigris", show_default=True, help="game id")
@click.option("--players", default=3, show_default=True, type=click.IntRange(2, 4))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--quiet", is_flag=True, help="print only the result")
def simulate(game_id: str, players: int, seed: int, quiet: bool) -> None:
    """Play one seeded random game and print its course and result."""
    game = engine.get_game(game_id)
    steps = 0
    state = None
    for _, seat, move, state, _ in random_playout(game, players, seed):
        steps += 1
        if not quiet:
            click.echo(f"{steps:4d}  seat {seat}: {game.describe(move)}")
    click.echo(f"{game_id}, {players} players, seed {seed}: {steps} decisions")
    click.echo(json.dumps(game.outcome(state), indent=2))
