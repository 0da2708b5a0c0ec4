"""The worked examples of the two Tigris rulebooks, set up as hand-written positions."""
import pytest

from engine.tigris.scoring import ranking
from tests.engine.tigris_positions import GAME, cell, discarded, hand, leader_at, play, position, score

FAR_TREASURES = {"K11": "red", "O9": "red", "P2": "red"}  # keep the game from ending


@pytest.mark.parametrize("attacker_temples,defender_temples", [
    (["G4", "I4", "H3"], ["G5", "I5"]),  # 2nd edition: 3 against 2, both add: 5-5
    (["G4", "I4"], ["G5"]),  # older edition: 2 against 1, both add: 4-4
])
def test_revolt_examples_tie_goes_to_the_defender(attacker_temples, defender_temples):
    # The attacker adds 2 temples, the defender 3: a tie, which the defender wins.
    s = position(
        tiles={sq: "red" for sq in attacker_temples + defender_temples},
        leaders={1: {"priest": "H5"}},
        hands={0: {"red": 3}, 1: {"red": 3}},
    )
    before = discarded(s)
    s, events = play(s, (0, "leader priest H4"))
    assert GAME.pending(s) == {0: "support"}
    s, _ = play(s, (0, "support 2"))
    assert GAME.pending(s) == {1: "support"}
    assert GAME.view(s, 1)["conflict"]["attacker_commit"] == 2  # defender sees it
    s, events = play(s, (1, "support 3"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    total = len(attacker_temples) + 2
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (total, total)
    assert resolved["winner"] == 1
    assert leader_at(s, 0, "priest") is None and leader_at(s, 1, "priest") == "H5"
    assert score(s, 1)["red"] == 1 and score(s, 0)["red"] == 0
    assert hand(s, 0)["red"] == 1 and hand(s, 1)["red"] == 0
    assert discarded(s) == before + 5
    assert GAME.pending(s) == {0: "action"}  # the attacker's second action


def test_two_war_example_traders_first_split_kingdom_avoids_king_war():
    lion, pot = 3, 2
    s = position(
        players=4,
        active=lion,
        tiles={"C5": "red", "E5": "green", "G5": "green", "H5": "green", "I5": "red", **FAR_TREASURES},
        treasures=list(FAR_TREASURES),
        leaders={lion: {"king": "B5", "trader": "D5"}, pot: {"trader": "I4", "king": "I6"}},
        hands={lion: {"red": 1, "green": 4}, pot: {"green": 1}},
    )
    before = discarded(s)
    s, events = play(s, (lion, "tile red F5"))
    united = next(e for e in events if e["type"] == "kingdoms_united")
    assert united["colors"] == ["green", "black"]
    assert not [e for e in events if e["type"] == "points_scored"]  # joining tile scores nothing
    assert GAME.pending(s) == {lion: "war_order"}
    s, events = play(s, (lion, "war green"))
    assert GAME.pending(s) == {lion: "support"}  # the active player attacks
    s, _ = play(s, (lion, "support 4"))
    s, events = play(s, (pot, "support 1"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (5, 3)
    assert resolved["winner"] == lion and sorted(resolved["removed"]) == ["G5", "H5"]
    assert score(s, lion)["green"] == 3
    assert cell(s, "G5") == "." and cell(s, "H5") == "."
    assert leader_at(s, pot, "trader") is None and leader_at(s, pot, "king") == "I6"
    assert any(e["type"] == "wars_ended" for e in events)
    assert not any(e["type"] == "war_started" and e["color"] == "black" for e in events)
    assert GAME.to_json(s)["wars"] is None and GAME.pending(s) == {lion: "action"}
    assert discarded(s) == before + 7  # 5 committed + 2 removed


def test_monument_example_flip_orphan_and_end_of_turn_points():
    bull, lion = 1, 3
    s = position(
        players=4,
        active=bull,
        actions_left=1,
        tiles={"E5": "red", "F5": "red", "E6": "red", "H5": "red", "C6": "red", **FAR_TREASURES},
        treasures=list(FAR_TREASURES),
        leaders={lion: {"trader": "D5", "priest": "D6"}, bull: {"farmer": "G5"}},
        hands={bull: {"red": 1}},
    )
    s, events = play(s, (bull, "tile red F6"))
    assert score(s, lion)["red"] == 1  # the completing tile still scores (lion's priest)
    assert GAME.pending(s) == {bull: "monument"}
    options = {(m["monument"], m["square"]) for m in GAME.legal_moves(s, bull) if m["type"] == "build_monument"}
    assert options == {("red-black", "E5"), ("red-green", "E5"), ("blue-red", "E5")}
    s, events = play(s, (bull, "monument blue-red E5"))
    assert [cell(s, sq) for sq in ("E5", "F5", "E6", "F6")] == ["R"] * 4
    returned = [e for e in events if e["type"] == "leader_returned"]
    assert [(e["seat"], e["leader"]) for e in returned] == [(lion, "trader")]
    assert score(s, bull)["blue"] == 1  # end of the bull's turn: farmer + blue-red
    assert GAME.to_json(s)["turn"]["active"] == 2
    s, _ = play(s, (2, "swap red"), (2, "swap red"), (3, "swap red"))
    before = score(s, lion)["red"]
    s, _ = play(s, (3, "swap red"))
    assert score(s, lion)["red"] == before + 1  # end of the lion's turn: priest + blue-red


def test_treasure_example_corner_treasure_taken_first():
    bull, lion = 1, 3
    s = position(
        players=4,
        active=lion,
        tiles={"B2": "red", "C2": "black", "D2": "black", "F3": "red", **FAR_TREASURES},
        treasures=["B2", "F3", *FAR_TREASURES],
        leaders={lion: {"trader": "F2"}, bull: {"farmer": "G3"}},
        hands={lion: {"blue": 1}},
    )
    s, events = play(s, (lion, "tile blue E2"))
    scored = [e for e in events if e["type"] == "points_scored"]
    assert [(e["seat"], e["color"]) for e in scored] == [(bull, "blue")]
    assert [e["square"] for e in events if e["type"] == "treasure_taken"] == ["B2"]
    state = GAME.to_json(s)
    assert state["players"][lion]["treasures"] == 1
    assert "F3" in state["treasures"] and "B2" not in state["treasures"]


def test_final_scoring_example_pot_wins_lion_beats_bull_on_third_colour():
    archer, bull, pot, lion = range(4)
    s = position(
        players=4,
        scores={
            pot: {"red": 11, "blue": 12, "green": 11, "black": 8},
            lion: {"red": 10, "blue": 7, "green": 13, "black": 12},
            bull: {"red": 10, "blue": 11, "green": 14, "black": 10},
            archer: {"red": 6, "blue": 12, "green": 12, "black": 22},
        },
        treasure_counts={pot: 3, lion: 3, archer: 3},
    )
    result = ranking(s)
    assert result["ranking"] == [[pot], [lion], [bull], [archer]]
    assert result["scores"][pot]["sorted"][0] == 11
    assert result["scores"][lion]["with_treasures"]["blue"] == 10
    assert result["scores"][archer]["sorted"][0] == 9


def test_first_round_example_turns_one_to_four():
    paul, olivia, ben, karen = range(4)
    s = position(
        players=4,
        active=paul,
        tiles={"I7": "red", "F10": "red", "K11": "red", "B2": "red", "P2": "red", "O9": "red"},
        treasures=["I7", "F10", "K11", "B2", "P2", "O9"],
        hands={
            paul: {"green": 6},
            olivia: {"blue": 1, "green": 5},
            ben: {"red": 1, "green": 5},
            karen: {"red": 4, "green": 2},
        },
        bag={"red": 0, "blue": 0, "green": 12, "black": 0},
    )
    # Turn 1: Paul's king and priest found two kingdoms.
    s, _ = play(s, (paul, "leader king H7"), (paul, "leader priest F9"))
    # Turn 2: Olivia's farmer joins Paul's priest; her farm on the river scores blue.
    s, events = play(s, (olivia, "leader farmer E10"), (olivia, "tile blue G9"))
    assert score(s, olivia)["blue"] == 1
    assert sum(hand(s, olivia).values()) == 6
    # Turn 3: Ben's king founds a kingdom; his temple scores red through the king.
    s, _ = play(s, (ben, "leader king K10"), (ben, "tile red J10"))
    assert score(s, ben)["red"] == 1
    # Turn 4: Karen's priest revolts against Paul's: 1 temple each, she adds 3.
    s, _ = play(s, (karen, "leader priest G10"), (karen, "support 3"))
    s, events = play(s, (paul, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"], resolved["winner"]) == (4, 1, karen)
    assert leader_at(s, paul, "priest") is None
    s, _ = play(s, (karen, "tile red G11"))
    assert score(s, karen)["red"] == 2
    assert sum(hand(s, karen).values()) == 6
    assert GAME.pending(s) == {paul: "action"}
