"""One conformance suite for every registered game (OpenSpiel runs one over all its
games): on seeded random games with every option set, each part of the contract in
docs/engine.md holds. Each game's own invariants (pieces conserved, hidden parts kept
hidden) are in its tests/engine/test_<game>_random.py."""
import json
import random

import pytest

import engine
from engine.bots.base import decisions
from engine.core import BaseGame
from engine.simulate import random_playout

# Per player count: with the defaults, seeds are played until a game ends; with another
# option set, one game (it may run to MAX_STEPS: a four-player team game often does).
SEEDS = (1, 2, 3)
MAX_STEPS = 2000  # decisions; most games that end here take 200 to 1800
DEFAULT_SHARE = 0.3  # how often a seat makes its default move: uniform play alone may never end a game
DEEP_EVERY = 10  # steps between full checks of a position (every step is checked lightly)
NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}


def option_sets(game) -> list[dict]:
    """The defaults, and each option at each of its other values."""
    sets: list[dict] = [{}]
    for name, choices in game.option_choices.items():
        sets += [{name: value} for value in choices[1:]]
    return sets


def player_counts(game, options: dict) -> list[int]:
    """The player counts the game takes with `options`."""
    counts = []
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.validate_options(options, players)
        except engine.EngineError:
            continue
        counts.append(players)
    return counts


CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{json.dumps(options, sort_keys=True) if options else 'defaults'}")
    for game_id in engine.game_ids()
    for options in option_sets(engine.get_game(game_id))
]


def check_position(game, state) -> None:
    """A position: JSON round trip, who owes what, the views, the words."""
    data = game.to_json(state)
    assert json.loads(json.dumps(data)) == data, "the state is not plain JSON"
    assert game.to_json(game.from_json(data)) == data, "the JSON round trip is not exact"
    pending = game.pending(state)
    assert pending and not game.is_over(state) and game.outcome(state) is None
    seats = range(len(game.view(state, None)["players"]))
    for seat in [None, *seats]:
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view and "rng" not in view
        assert view["seat"] == seat and view["pending"] == {str(s): k for s, k in pending.items()}
        assert isinstance(game.board_text(view), str)
    for seat in seats:
        kind = pending.get(seat)
        legal = game.legal_moves(state, seat)
        if kind is None:
            assert legal == [] and game.default_move(state, seat) is None and game.prompt(state, seat, NAMES) == ""
            continue
        assert legal, f"seat {seat} owes a {kind} decision and has no legal move"
        assert all(game.answers(state, seat, kind, m["type"]) for m in legal), "a legal move answers no decision"
        assert game.prompt(state, seat, NAMES)
        assert game.default_move(state, seat) in legal
        named = game.link_moves(state, seat)
        assert named is None or all(m in legal for m in named)
        for move in legal[:: max(1, len(legal) // 5)]:
            assert set(move) == {"type", *game.move_fields[move["type"]]}
            assert game.parse_move(game.format_move(move)) == move
            assert game.describe(move)


def check_apply(game, state, seat: int, move: dict, rng: random.Random) -> None:
    """Applying: listed moves apply without changing their input; the guard refuses
    what is not the seat's to play, with its stable codes."""
    before = game.to_json(state)
    pending = game.pending(state)
    legal = game.legal_moves(state, seat)
    assert move in legal
    for other in rng.sample(legal, min(2, len(legal))):
        after, events = game.apply(state, seat, other)
        json.dumps(events)  # plain JSON
        assert all(isinstance(game.describe_event(e, NAMES), (str, type(None))) for e in events)
        assert game.to_json(game.from_json(game.to_json(after))) == game.to_json(after)
    with pytest.raises(engine.IllegalMove) as refused:
        game.apply(state, seat, {"type": "no_such_move"})
    assert refused.value.code == "unknown_move_type"
    with pytest.raises(engine.IllegalMove) as refused:
        game.apply(state, seat, [move])
    assert refused.value.code == "bad_move"
    other_kinds = [t for t in game.move_fields if not game.answers(state, seat, pending[seat], t)]
    if other_kinds:
        wrong = {"type": other_kinds[0], **{f: None for f in game.move_fields[other_kinds[0]]}}
        with pytest.raises(engine.IllegalMove,
                           match=r"is not open now; moves open now: `") as refused:
            game.apply(state, seat, wrong)
        assert refused.value.code == "wrong_decision"
    idle = [s for s in range(len(before["players"])) if s not in pending]
    if idle:
        with pytest.raises(engine.NotYourTurn, match="it is not your decision now; the game waits for another player"):
            game.apply(state, idle[0], move)
    assert game.to_json(state) == before, "apply changed its input"


def check_end(game, state) -> None:
    outcome = game.outcome(state)
    assert outcome is not None and game.is_over(state) and game.pending(state) == {}
    json.dumps(outcome)  # stored with the game: plain JSON (its seat keys become strings)
    players = len(game.to_json(state)["players"])
    assert sorted(s for group in outcome["ranking"] for s in group) == list(range(players))
    assert outcome["reason"] in game.narration.ENDINGS, "the game-over email says why in the game's words"
    for seat in range(players):
        assert game.legal_moves(state, seat) == [] and game.default_move(state, seat) is None
    some_move = {"type": next(iter(game.move_fields)), **{f: None for f in next(iter(game.move_fields.values()))}}
    with pytest.raises(engine.IllegalMove) as refused:
        game.apply(state, 0, some_move)
    assert refused.value.code == "game_over"


def playout(game, players: int, seed: int, options: dict):
    """Yield (state, seat, move, new_state, events) of one seeded game to its end: each
    decision is the seat's default move or a uniform choice among the moves that answer
    it (a setting move answers none)."""
    chooser = random.Random(seed)
    state = game.setup(players, seed, options)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return
        seat = chooser.choice(sorted(game.pending(state)))
        if chooser.random() < DEFAULT_SHARE:
            move = game.default_move(state, seat)
        else:
            move = chooser.choice(decisions(game, game.legal_moves(state, seat)))
        new_state, events = game.apply(state, seat, move)
        yield state, seat, move, new_state, events
        state = new_state


@pytest.mark.parametrize("game_id,options", CASES)
def test_random_games_keep_the_contract(game_id, options):
    game = engine.get_game(game_id)
    counts = player_counts(game, options)
    assert counts, f"{game_id} takes no player count with {options}"
    ended = 0
    for players in counts:
        for seed in SEEDS if not options else SEEDS[:1]:
            rng = random.Random(seed)
            history = []
            try:
                final = None
                for step, (state, seat, move, final, events) in enumerate(playout(game, players, seed, options)):
                    history.append((seat, move))
                    assert all(isinstance(event["type"], str) for event in events)
                    if step % DEEP_EVERY == 0:
                        check_position(game, state)
                        check_apply(game, state, seat, move, rng)
                assert final is not None
                if game.is_over(final):  # a card game may reach a dead table, where no rule ends it
                    check_end(game, final)
                    ended += 1
                    break
            except Exception:
                print(f"{game_id} players={players} seed={seed} options={options} moves to reproduce:")
                print(json.dumps(history))
                raise
    if not options:
        assert ended, f"no {game_id} game with the default options ended within {MAX_STEPS} decisions"


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_the_same_seed_and_moves_give_the_same_game(game_id):
    game = engine.get_game(game_id)
    players = player_counts(game, {})[0]
    first = [game.to_json(s) for s, *_ in random_playout(game, players, 99)]
    second = [game.to_json(s) for s, *_ in random_playout(game, players, 99)]
    assert first == second and len(first) > 20
    assert game.to_json(game.setup(players, 100)) != first[0]


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_a_game_declares_its_facts_and_capabilities(game_id):
    game = engine.get_game(game_id)
    assert isinstance(game, BaseGame) and game.id == game_id and engine.game_name(game_id) == game.name
    assert 1 <= game.min_players <= game.max_players and isinstance(game.description, str)
    assert set(game.setting_moves) <= set(game.move_fields)
    for kind, types in game.moves_by_decision.items():
        assert types and set(types) <= set(game.move_fields), kind
    assert game.move_forms and all(isinstance(form, str) for form in game.move_forms)
    assert game.default_options() == {name: choices[0] for name, choices in game.option_choices.items()}
    if game.drawing is not None:
        assert callable(game.drawing.board_svg) and callable(game.drawing.picture_layers)


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_options_outside_the_choices_are_refused(game_id):
    game = engine.get_game(game_id)
    players = player_counts(game, {})[0]
    assert game.validate_options(None, players) == game.default_options()
    with pytest.raises(engine.EngineError, match="unknown option 'no_such_option'; options: ") as refused:
        game.validate_options({"no_such_option": True}, players)
    assert refused.value.code == "bad_option"
    for name, _choices in game.option_choices.items():
        with pytest.raises(engine.EngineError, match=f"option {name} takes one of ") as refused:
            game.validate_options({name: "no such value"}, players)
        assert refused.value.code == "bad_option"
    for players in (game.min_players - 1, game.max_players + 1, True, "3"):
        with pytest.raises(engine.EngineError) as refused:
            game.setup(players, 1, {})
        assert refused.value.code == "bad_players"


def test_the_registry_is_the_one_table_of_games():
    assert engine.game_ids() == ["tigris", "euphrat-cards", "eden", "civ-cards"]
    with pytest.raises(engine.EngineError, match="unknown game 'chess'; known games: civ-cards, eden, ") as refused:
        engine.get_game("chess")
    assert refused.value.code == "unknown_game"
    assert engine.game_name("chess") == "chess"


def test_a_game_gets_every_optional_hook_from_the_base():
    """A game that writes only the required parts still answers every call the
    service, the workers and the bots make, with the documented defaults."""

    class Bare(BaseGame):
        id, name, min_players, max_players = "bare", "Bare", 1, 1

    bare = Bare()
    assert bare.description == "" and bare.option_choices == {} and bare.default_options() == {}
    assert bare.setting_moves == () and bare.shared_board_picture is False and bare.drawing is None
    assert bare.link_moves(None, 0) is None and bare.board_text({}) == ""
    assert bare.card_label("x7") == "x7" and bare.card_picture("x7") is None
    assert bare.determinise({}, 0, random.Random(1)) is None and bare.bot_knowledge() is None
    assert bare.validate_options(None, 1) == {}
