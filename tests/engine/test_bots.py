"""Bots: legal moves only, the same choices for the same seed, and nothing but the
seat's view behind a choice (determinisations agree with the view)."""
import random

import pytest

import engine
from engine.bots import bot_kinds, get_bot
from engine.bots.greedy import GreedyBot
from engine.bots.knowledge import GenericKnowledge, public_score
from engine.euphrat_cards.bot_knowledge import determinise as determinise_cards
from engine.tigris.bot_knowledge import determinise as determinise_tigris
from tests.engine.euphrat_cards_positions import purposeful_choice

GAMES = ("tigris", "euphrat-cards")
DETERMINISE = {"tigris": determinise_tigris, "euphrat-cards": determinise_cards}
CHEAP = {"strong": {"iterations": 12}}


def random_positions(game_id, players, seed, count):
    """`count` positions along a random game, each with its pending seat."""
    game = engine.get_game(game_id)
    rng = random.Random(seed)
    state = game.setup(players, seed, {})
    found = []
    while game.outcome(state) is None and len(found) < count:
        seat = rng.choice(sorted(game.pending(state)))
        if rng.random() < 0.3:
            found.append((state, seat))
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_greedy_and_random_play_whole_games_with_legal_moves_only(game_id):
    """Bots against purposeful players: card players who never move toward the end can
    reach a table the rules never end (docs/games/euphrat-cards.md, "A dead table")."""
    game = engine.get_game(game_id)
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        kinds = ["greedy", "random", "greedy", "random"][:players]
        bots = [get_bot(game_id, kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
        rng = random.Random(seed)
        state = game.setup(players, seed, {})
        steps = 0
        while game.outcome(state) is None:
            seat = min(game.pending(state))
            moves = game.legal_moves(state, seat)
            move = bots[seat].choose(game.view(state, seat), moves)
            assert move in moves
            if game_id == "euphrat-cards" and steps % 2:
                move = purposeful_choice(rng, state, moves)
            state, _ = game.apply(state, seat, move)
            steps += 1
            assert steps < 5000, "the game did not end"
        assert steps > 20 and game.outcome(state)["ranking"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_chooses_a_legal_move_and_the_same_one_for_the_same_seed(game_id):
    game = engine.get_game(game_id)
    for state, seat in random_positions(game_id, 3, 5, 6):
        view, moves = game.view(state, seat), game.legal_moves(state, seat)
        for kind in bot_kinds(game_id):
            first = get_bot(game_id, kind, 11, **CHEAP.get(kind, {})).choose(view, moves)
            again = get_bot(game_id, kind, 11, **CHEAP.get(kind, {})).choose(view, moves)
            assert first in moves and first == again, kind


@pytest.mark.parametrize("game_id", GAMES)
def test_determinisations_agree_with_the_view_and_hidden_facts_change_no_choice(game_id):
    """A determinised state shows the seat exactly its view, and the same legal
    moves; so a bot, shown only these, chooses the same in the real position and in
    any other it cannot tell from it."""
    game = engine.get_game(game_id)
    rng = random.Random(3)
    for players in (2, 3, 4):
        for state, seat in random_positions(game_id, players, players, 8):
            view, moves = game.view(state, seat), game.legal_moves(state, seat)
            other_world = DETERMINISE[game_id](view, seat, rng)
            assert game.view(other_world, seat) == view
            assert game.legal_moves(other_world, seat) == moves
            bot = get_bot(game_id, "greedy", 4)
            assert bot.choose(game.view(other_world, seat), game.legal_moves(other_world, seat)) == bot.choose(view,
                                                                                                               moves)


def test_a_game_without_knowledge_of_its_own_gets_random_and_greedy():
    """The generic knowledge: a view that hides something does not read back as a
    state, so greedy falls back to a random legal move; the public score is read
    from a view that shows one."""
    game = engine.get_game("tigris")
    generic = GenericKnowledge(game)
    bot = GreedyBot(game, 3, generic)
    for state, seat in random_positions("tigris", 2, 9, 4):
        view, moves = game.view(state, seat), game.legal_moves(state, seat)
        assert generic.determinise(view, seat, random.Random(1)) is None
        assert bot.choose(view, moves) in moves
    state = game.setup(2, 1, {"open_scoring": True})
    state.scores[1] = [1, 2, 3, 4]
    assert public_score(game.view(state, 0), 1) == 10.0
    assert public_score({"players": [{"hand": {}}]}, 0) is None


def test_unknown_bot_kinds_are_refused():
    with pytest.raises(engine.EngineError) as err:
        get_bot("tigris", "clever")
    assert err.value.code == "unknown_bot" and "greedy" in err.value.message


@pytest.mark.parametrize("kind", ["random", "greedy", "strong"])
def test_no_bot_chooses_a_standing_answer_which_would_leave_the_decision_its_own(kind):
    """The card game lists `set_answer` among every decision's moves; it costs no
    action, so a bot that chose it would owe the same decision for ever."""
    game = engine.get_game("euphrat-cards")
    chosen = set()
    for seed in range(3):
        for state, seat in random_positions("euphrat-cards", 2, seed, 12):
            moves = game.legal_moves(state, seat)
            assert any(m["type"] == "set_answer" for m in moves)
            bot = get_bot("euphrat-cards", kind, seed, **CHEAP.get(kind, {}))
            chosen.add(bot.choose(game.view(state, seat), moves)["type"])
    assert "set_answer" not in chosen and chosen


def test_bots_play_card_games_to_their_end_among_themselves():
    """Greedy against random ends its games (a bot looping on a standing answer
    would not): the match benchmark's first seeds, seats swapped."""
    game = engine.get_game("euphrat-cards")
    for seed, kinds in ((1000, ["greedy", "random"]), (1000, ["random", "greedy"]), (1001, ["greedy", "random"])):
        bots = [get_bot("euphrat-cards", kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
        state = game.setup(2, seed, {})
        for _ in range(5000):
            if game.outcome(state) is not None:
                break
            seat = min(game.pending(state))
            state, _ = game.apply(state, seat, bots[seat].choose(game.view(state, seat), game.legal_moves(state, seat)))
        assert game.outcome(state) is not None, (seed, kinds)
