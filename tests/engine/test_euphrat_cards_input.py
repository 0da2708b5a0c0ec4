"""Bad input is refused with a code and a message naming the problem; the text
notation round-trips; views hide what they must; default moves are legal."""
import pytest

import engine
from tests.engine.euphrat_cards_positions import GAME, as_json, play, playout, position

BAD_MOVES = [
    ("not a dict", "bad_move", "JSON object"),
    ({"place": "C"}, "unknown_move_type", "types:"),
    ({"type": "fly", "place": "C"}, "unknown_move_type", "'fly'"),
    ({"type": "play_card", "color": "red"}, "bad_move", "missing place"),
    ({"type": "play_card", "color": "red", "place": "C", "why": 1}, "bad_move", "unexpected why"),
    ({"type": "play_card", "color": "purple", "place": "C"}, "bad_color", "colours: red"),
    ({"type": "play_card", "color": "red", "place": "I"}, "bad_place", "column (A-H)"),
    ({"type": "play_card", "color": "red", "place": "AC"}, "bad_place", "gap (AB"),
    ({"type": "play_card", "color": "red", "place": 3}, "bad_place", "column (A-H)"),
    ({"type": "play_card", "color": ["red"], "place": "C"}, "bad_color", "colours: red"),
    ({"type": "place_leader", "leader": "queen", "card": "A0"}, "bad_leader", "king, priest"),
    ({"type": "place_leader", "leader": {"king": 1}, "card": "A0"}, "bad_leader", "king, priest"),
    ({"type": "place_leader", "leader": "king", "card": "Z0"}, "bad_place", "column letter A-H"),
    ({"type": "play_catastrophe", "card": None}, "bad_place", "names no card"),
    ({"type": "commit_support", "count": 1}, "wrong_decision", "is not open now; moves open now: `"),
    ({"type": "decline"}, "wrong_decision", "is not open now; moves open now: `"),
]


@pytest.mark.parametrize("move,code,words", BAD_MOVES)
def test_bad_moves_are_refused_with_a_clear_code_and_nothing_changes(move, code, words):
    s = position(hands={0: {"red": 6}})
    before = as_json(s)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, move)
    assert err.value.code == code and words in err.value.message, err.value.message
    assert as_json(s) == before


def test_wrong_seat_gets_not_your_turn():
    s = position(hands={1: {"red": 6}})
    with pytest.raises(engine.NotYourTurn) as err:
        GAME.apply(s, 1, {"type": "play_card", "color": "red", "place": "C"})
    assert err.value.code == "not_your_turn" and "the game waits for another player" in err.value.message
    assert GAME.legal_moves(s, 1) == [] and GAME.legal_moves(s, 7) == []


def test_bad_support_counts_are_refused():
    s = position(columns=["tb"] + ["t"] * 7, leaders={1: {"king": "A1"}}, hands={0: {"red": 1}})
    s, _ = play(s, (0, "leader king A0"))
    for count in (-1, 2, True, "1"):
        with pytest.raises(engine.IllegalMove) as err:
            GAME.apply(s, 0, {"type": "commit_support", "count": count})
        assert err.value.code == "bad_support" and "0 to 1 red" in err.value.message


@pytest.mark.parametrize("text",
                         ["", "play red", "fly C", "support many", "leader king", "ship", "treasure", "pass now"])
def test_text_that_does_not_parse_says_what_was_expected(text):
    with pytest.raises(engine.MoveParseError) as err:
        GAME.parse_move(text)
    assert err.value.code == "parse_error" and "expected" in err.value.message


@pytest.mark.parametrize("text,move", [
    ("play red C", {"type": "play_card", "color": "red", "place": "C"}),
    ("  Play GREEN cd ", {"type": "play_card", "color": "green", "place": "CD"}),
    ("leader king c2", {"type": "place_leader", "leader": "king", "card": "C2"}),
    ("withdraw trader", {"type": "withdraw_leader", "leader": "trader"}),
    ("catastrophe AB", {"type": "play_catastrophe", "card": "AB"}),
    ("pass", {"type": "pass"}),
    ("support 3", {"type": "commit_support", "count": 3}),
    ("conflict black", {"type": "choose_conflict", "color": "black"}),
    ("score", {"type": "score"}),
    ("ship blue-green", {"type": "build_ship", "ship": "blue-green"}),
    ("treasure b", {"type": "swap_treasure", "column": "B"}),
    ("no", {"type": "decline"}),
])
def test_text_notation_parses_and_formats_back(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.describe(move)


def test_every_legal_move_of_a_game_round_trips_through_text():
    for state, seat, move, *_ in playout(3, 5):
        for legal in GAME.legal_moves(state, seat):
            assert GAME.parse_move(GAME.format_move(legal)) == legal


def test_default_move_is_legal_and_least_committal():
    for state, seat, *_ in playout(4, 11):
        for owing in GAME.pending(state):
            default = GAME.default_move(state, owing)
            assert default in GAME.legal_moves(state, owing)
            assert default.get("type") in ("pass", "commit_support", "choose_conflict", "decline")
    assert GAME.default_move(position(), 1) is None


def test_view_hides_hands_piles_deck_and_rng():
    s = position(hands={0: {"red": 3}, 1: {"blue": 2}}, vp={0: "rk", 1: "gg"})
    view = GAME.view(s, 0)
    assert view["players"][0]["hand"] == {"red": 3, "blue": 0, "green": 0, "black": 0}
    assert view["players"][0]["vp_top"] == "k" and view["players"][0]["vp_count"] == 2
    assert "hand" not in view["players"][1] and view["players"][1]["hand_size"] == 2
    assert "vp" not in view["players"][1] and "vp_top" not in view["players"][1]
    assert "deck" not in view and view["deck_size"] == 40 and "rng" not in view
    assert view["seat"] == 0 and view["pending"] == {"0": "action"}
    spectator = GAME.view(s, None)
    assert all("hand" not in p and "vp_top" not in p for p in spectator["players"])
    opened = GAME.view(position(vp={1: "gg"}, options={"open_scoring": True}), 0)
    assert opened["players"][1]["vp"] == "gg"


def test_state_json_rejects_nonsense_with_bad_state():
    data = as_json(position())
    for change in (
        {"columns": ["t"] * 7},
        {"columns": ["x"] + ["t"] * 7},
        {"gaps": "t......"},
        {"players": [{"leaders": {"king": "A4"}}, {}, {}]},
    ):
        with pytest.raises(engine.IllegalMove) as err:
            GAME.from_json({**data, **change})
        assert err.value.code == "bad_state"


def refused_state(data: dict) -> str:
    with pytest.raises(engine.IllegalMove) as err:
        GAME.from_json(data)
    assert err.value.code == "bad_state"
    return err.value.message


def test_state_json_with_a_leader_on_a_card_of_its_colour_is_refused():
    data = as_json(position(columns=["tkb", "t", "t", "t", "t", "t", "t", "t"]))
    data["players"][1]["leaders"]["king"] = "A1"
    assert "seat 1's king stands on a black card (A1)" in refused_state(data)
    data["players"][1]["leaders"] = {"priest": "B0"}
    assert "priest stands on the treasure B0" in refused_state(data)
    data["players"][1]["leaders"] = {"farmer": "A1", "king": "A2"}
    assert GAME.from_json(data)


def test_state_json_must_conserve_every_card():
    data = as_json(position(hands={0: {"red": 2}}))
    data["players"][0]["hand"]["red"] = 3  # one red card too many
    message = refused_state(data)
    assert "66 red cards" in message and "hands 3" in message and "where the game has 65" in message
    data = as_json(position())
    data["deck"] = data["deck"][1:]  # a red card lost
    assert "64 red cards" in refused_state(data)
    data = as_json(position())
    data["columns"][0] = "tG"  # a ship on the table that is also free
    assert "blue-green ship is there twice" in refused_state(data)
    data = as_json(position())
    data["ships"] = ["blue-red"]
    assert "blue-green ship is missing" in refused_state(data)
    data = as_json(position())
    data["unused_catastrophes"] += 1
    assert "5 catastrophe cards" in refused_state(data)
    data = as_json(position())
    data["players"][0]["vp"] = "t"  # a ninth treasure
    assert "9 treasure cards (table 8, vp piles 1)" in refused_state(data)


def test_state_json_counts_cards_committed_to_a_running_conflict():
    data = as_json(position(hands={0: {"red": 3}}))
    data["conflict"] = {
        "kind": "internal", "color": "black", "attacker": 0, "defender": 1, "attacker_leader": "A0",
        "defender_leader": "B0", "attacker_commit": 2, "defender_commit": None,
    }
    data["players"][0]["leaders"]["king"] = "A0"
    data["players"][1]["leaders"]["king"] = "B0"
    assert "67 red cards" in refused_state(data)  # the two committed cards also left the hand
    data["players"][0]["hand"]["red"] = 1
    assert GAME.from_json(data)


def test_standing_answers_in_state_json_and_text():
    data = as_json(position())
    assert data["players"][0]["answers"] == {"score": "ask", "treasure": "ask"}
    data["players"][0]["answers"] = {"score": "maybe"}
    assert "standing answer to score offers is 'maybe'; one of: ask, decline" in refused_state(data)
    data["players"][0]["answers"] = {"ship": "decline"}
    assert "standing answers for ['ship']" in refused_state(data)
    data["players"][0]["answers"] = {"treasure": "decline"}
    assert as_json(GAME.from_json(data))["players"][0]["answers"] == {"score": "ask", "treasure": "decline"}
    move = GAME.parse_move("Answer  SCORE ask")
    assert move == {"type": "set_answer", "offer": "score", "answer": "ask"}
    assert GAME.format_move(move) == "answer score ask"
    assert GAME.describe(move) == "from now on, ask me about every score offer"
    with pytest.raises(engine.MoveParseError) as err:
        GAME.parse_move("answer score")
    assert "answer OFFER ANSWER" in err.value.message
