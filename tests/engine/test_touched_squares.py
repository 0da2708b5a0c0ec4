"""The squares a move touched, which the game page marks as the last move: the board
games name them, the card games have none."""
import engine


def test_the_board_games_name_the_squares_a_move_touched():
    tigris, eden = engine.get_game("tigris"), engine.get_game("eden")
    assert tigris.touched_squares(tigris.parse_move("tile red B4")) == ["B4"]
    assert tigris.touched_squares(tigris.parse_move("pass")) == []
    cultivation = {"type": "cultivate", "card": "K3", "squares": ["A1", "B1", "A2"]}
    assert eden.touched_squares(cultivation) == ["A1", "B1", "A2"]
    assert eden.touched_squares({"type": "bid", "amount": 10}) == []


def test_a_game_without_squares_touches_none():
    for game_id in ("euphrat-cards", "civ-cards"):
        game = engine.get_game(game_id)
        state = game.setup(players=2, seed=3, options={})
        seat = next(iter(game.pending(state)))
        assert all(game.touched_squares(move) == [] for move in game.legal_moves(state, seat))
