"""Eden's text notation and bad input: parse errors say the expected form, illegal and
malformed moves say what was wrong, and nothing changes."""
import pytest

import engine
from tests.engine.eden_positions import GAME, as_json, position


@pytest.mark.parametrize("text,move", [
    ("irrigate b4", {"type": "irrigate", "square": "B4"}),
    ("  Cultivate k3  B2 b3 C3 ", {"type": "cultivate", "card": "K3", "squares": ["B2", "B3", "C3"]}),
    ("sell K3", {"type": "sell", "card": "K3"}),
    ("buy k12", {"type": "buy", "card": "K12"}),
    ("pass", {"type": "pass"}),
    ("contest C4", {"type": "contest", "square": "C4"}),
    ("with B3", {"type": "attack_with", "square": "B3"}),
    ("bid 25", {"type": "bid", "amount": 25}),
    ("accept", {"type": "accept"}),
    ("decline", {"type": "decline"}),
    ("no", {"type": "decline"}),
])
def test_notation_parses_and_formats_back(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.describe(move)


@pytest.mark.parametrize("text,card", [
    ("sell card 3", "K3"), ("sell card3", "K3"), ("sell Cultivation Card 13", "K13"), ("sell k13", "K13"),
])
def test_a_card_is_written_by_its_number_or_its_id(text, card):
    assert GAME.parse_move(text) == {"type": "sell", "card": card}


def test_moves_and_their_descriptions_name_cards_so_they_cannot_be_read_as_squares():
    cultivate = {"type": "cultivate", "card": "K9", "squares": ["A1", "A2", "A3", "B3"]}
    assert GAME.format_move(cultivate) == "cultivate card 9 A1 A2 A3 B3"
    assert GAME.describe(cultivate) == "cultivate A1, A2, A3, B3 with card 9 (L tetromino)"
    assert GAME.describe({"type": "sell", "card": "K13"}) == "sell card 13 (L tromino) to the bank for 30 mana"
    assert GAME.describe({"type": "buy", "card": "K1"}) == "buy card 1 (domino) from the market for 30 mana"
    assert GAME.card_label("K9") == "cultivation card 9 (L tetromino)"
    assert GAME.card_label("B4") == "irrigation card B4"


@pytest.mark.parametrize("text,expected", [
    ("", "expected one of"),
    ("plant B4", "unknown move 'plant'"),
    ("bid lots", "bid N"),
    ("cultivate K3", "cultivate card N SQUARE"),
    ("cultivate card 3", "cultivate card N SQUARE"),
    ("sell card", "sell card N"),
    ("sell card 18", "'card 18' is not a cultivation card"),
    ("buy K3 B4", "buy card N"),
    ("irrigate", "irrigate SQUARE"),
    ("accept now", "accept"),
])
def test_bad_notation_says_the_expected_form(text, expected):
    with pytest.raises(engine.MoveParseError, match=expected):
        GAME.parse_move(text)


@pytest.mark.parametrize("move,code", [
    ({"type": "irrigate", "square": "H1"}, "bad_square"),
    ({"type": "irrigate", "square": 3}, "bad_square"),
    ({"type": "irrigate"}, "bad_move"),
    ({"type": "irrigate", "square": "A1", "extra": 1}, "bad_move"),
    ({"type": "cultivate", "card": "A1", "squares": ["A1", "B1"]}, "bad_card"),
    ({"type": "cultivate", "card": "K1", "squares": "A1 B1"}, "bad_move"),
    ({"type": "cultivate", "card": "K1", "squares": ["A1", "A1"]}, "bad_cultivation"),
    ({"type": "sell", "card": "K2"}, "bad_sale"),
    ({"type": "buy", "card": "K2"}, "bad_purchase"),
    ({"type": "accept"}, "wrong_decision"),
    ({"type": "fly"}, "unknown_move_type"),
    ("pass", "bad_move"),
])
def test_bad_moves_are_refused_with_a_code_and_change_nothing(move, code):
    s = position({"A1": "r1", "B1": "r1"}, hands={0: ["K1"]})
    before = as_json(s)
    with pytest.raises(engine.IllegalMove) as error:
        GAME.apply(s, 0, move)
    assert error.value.code == code and error.value.message
    assert as_json(s) == before


def test_a_bid_of_the_wrong_size_says_what_is_allowed():
    s = position({"C4": "y1"}, hands={0: ["B4"]})
    s, _ = GAME.apply(s, 0, {"type": "irrigate", "square": "B4"})
    s, _ = GAME.apply(s, 0, {"type": "contest", "square": "C4"})
    for amount in (5, 12, True, "10"):
        with pytest.raises(engine.IllegalMove, match="multiples of 5: open with at least 10"):
            GAME.apply(s, 0, {"type": "bid", "amount": amount})


@pytest.mark.parametrize("change,message", [
    (lambda d: d["board"].pop(), "7 strings"),
    (lambda d: d["board"].__setitem__(0, "x1 .. .. .. .. .. .."), "cell 'x1'"),
    (lambda d: d["players"][0].__setitem__("hand", ["K1", "Q9"]), "unknown cards"),
    (lambda d: d["players"][0].__setitem__("supply", {"1/2": 3, "3/4": 8}), "must make 16 tiles"),
    (lambda d: d["market"].append(d["deck"][0]), "two places"),
])
def test_bad_state_json_is_refused_with_the_reason(change, message):
    data = as_json(GAME.setup(3, 5))
    change(data)
    with pytest.raises(engine.IllegalMove, match=message) as error:
        GAME.from_json(data)
    assert error.value.code == "bad_state"


ACQUISITION = {"attacker": 0, "placed": "B4", "attack": ["B4", "A4"], "defender": 1, "defend": ["C4", "D4"],
               "bids": [10, 15]}


@pytest.mark.parametrize("change,message", [
    ({"attacker": 7}, "attacker must be the active seat"),
    ({"placed": "G7", "attack": ["G7"]}, "placed must hold one of the attacker's tiles"),
    ({"attack": ["A4"]}, "attack must start with the placed tile"),
    ({"attack": ["B4", "E4"]}, "at most one more of the attacker's tiles beside it"),
    ({"defender": 0}, "defender must be another seat"),
    ({"defender": None}, "defender is null exactly while nothing is contested"),
    ({"defend": ["D4", "C4"]}, "a chain of the defender's tiles"),
    ({"defend": [], "defender": None}, "bids need a contested tile"),
    ({"bids": [5]}, "bids are multiples of 5"),
    ({"bids": [10, 10]}, "each raise at least 5"),
])
def test_a_hand_written_acquisition_is_checked(change, message):
    tiles = {"B4": "r1", "A4": "r2", "E4": "r1", "C4": "y1", "D4": "y3"}
    data = as_json(position(tiles, acquisition=ACQUISITION))
    assert GAME.pending(GAME.from_json(data)) == {0: "bid"}
    data["acquisition"].update(change)
    with pytest.raises(engine.IllegalMove, match=message) as error:
        GAME.from_json(data)
    assert error.value.code == "bad_state"


def test_a_finished_game_names_a_seat_as_its_winner():
    data = as_json(position({"A1": "r1"}))
    data["finished"] = {"reason": "twenty_points", "winner": 9}
    with pytest.raises(engine.IllegalMove, match="winner must be a seat") as error:
        GAME.from_json(data)
    assert error.value.code == "bad_state"


def test_default_moves_are_the_least_committal():
    s = position({"C4": "y1"}, hands={0: ["B4"]})
    assert GAME.default_move(s, 0) == {"type": "pass"}
    s, _ = GAME.apply(s, 0, {"type": "irrigate", "square": "B4"})
    assert GAME.default_move(s, 0) == {"type": "decline"}
    s, _ = GAME.apply(s, 0, {"type": "contest", "square": "C4"})
    s, _ = GAME.apply(s, 0, {"type": "bid", "amount": 10})
    assert GAME.default_move(s, 1) == {"type": "accept"} and GAME.default_move(s, 0) is None


@pytest.mark.parametrize("text,words", [
    ("sell K2", "you hold no cultivation card 2 to sell"),
    ("buy K2", "card 2 is not in the market; market: card 4 (I tetromino)"),
    ("buy K4", "card 4 costs 50 mana and you have 10"),
    ("cultivate K2 A1 B1 C1", "you hold no cultivation card 2"),
])
def test_refusals_name_a_card_as_players_write_it(text, words):
    s = position({"A1": "r1", "B1": "r1"}, hands={0: ["K1"]}, market=["K4"], mana={0: 10})
    with pytest.raises(engine.IllegalMove) as error:
        GAME.apply(s, 0, GAME.parse_move(text))
    assert error.value.message == words
