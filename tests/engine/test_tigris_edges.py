"""Rule edges the rulebook's words name, from hand-written positions: every leader
colour where a rule speaks of leaders, wars of every colour, the order of events."""
import pytest

from engine.tigris.scoring import ranking
from tests.engine.tigris_positions import GAME, cell, leader_at, play, position, score

FAR = {"K11": "red", "O9": "red", "P2": "red"}  # three treasures keep the game going
COLORS = ("red", "blue", "green", "black")
LEADER_OF = {"black": "king", "red": "priest", "blue": "farmer", "green": "trader"}


def events_of(events, kind):
    return [e for e in events if e["type"] == kind]


# --- Tile points: the leader of the tile's colour, else the king, else nobody ----

# A kingdom around the temple E4: D4 is a river square next to it, D5 land next to E5.
def _tile_kingdom(color, leaders):
    return position(tiles={"E4": "red", **FAR}, treasures=list(FAR), leaders=leaders,
                    hands={0: {color: 1}})


def _tile_square(color):
    return "D4" if color == "blue" else "D5"


@pytest.mark.parametrize("color", COLORS)
def test_a_tile_scores_its_colour_for_that_colours_leader_before_the_king(color):
    # Seat 1's leader of the tile's colour on F4; on E5 seat 2's king (for a black
    # tile the king is that leader: seat 2 has a priest there instead).
    leaders = {1: {LEADER_OF[color]: "F4"}, 2: {"priest" if color == "black" else "king": "E5"}}
    s, events = play(_tile_kingdom(color, leaders), (0, f"tile {color} {_tile_square(color)}"))
    scored = [(e["seat"], e["color"], e["points"]) for e in events_of(events, "points_scored")]
    assert scored == [(1, color, 1)]


@pytest.mark.parametrize("color", ("red", "blue", "green"))
def test_without_that_colours_leader_the_king_takes_the_tiles_colour(color):
    others = [c for c in ("red", "blue", "green") if c != color]
    leaders = {1: {"king": "F4"}, 2: {LEADER_OF[others[0]]: "E5"}}
    s, events = play(_tile_kingdom(color, leaders), (0, f"tile {color} {_tile_square(color)}"))
    scored = [(e["seat"], e["color"], e["points"]) for e in events_of(events, "points_scored")]
    assert scored == [(1, color, 1)]  # a point of the tile's colour, not a black one


@pytest.mark.parametrize("color", COLORS)
def test_without_that_colours_leader_or_a_king_nobody_scores(color):
    other = "blue" if color != "blue" else "green"
    leaders = {1: {LEADER_OF[other]: "F4"}}
    s, events = play(_tile_kingdom(color, leaders), (0, f"tile {color} {_tile_square(color)}"))
    assert not events_of(events, "points_scored")


def test_a_tile_joining_two_kingdoms_without_a_conflict_scores_nothing():
    # Left: seat 1's king (D5 next to C5); right: seat 2's trader (H5 next to H4).
    s = position(tiles={"C5": "red", "E5": "black", "G5": "black", "H4": "red", **FAR},
                 treasures=list(FAR), leaders={1: {"king": "D5"}, 2: {"trader": "H5"}},
                 hands={0: {"black": 1}})
    s, events = play(s, (0, "tile black F5"))
    assert not events_of(events, "points_scored")
    assert not events_of(events, "kingdoms_united") and GAME.to_json(s)["wars"] is None
    assert GAME.pending(s) == {0: "action"}


# --- Wars of every colour ------------------------------------------------------

def test_a_blue_war_counts_and_removes_farms_on_the_river():
    # River E1..I1 and E2. Left: seat 1's farmer C1 (temple D1), farms E1 F1 E2;
    # right: seat 2's farmer K1 (temple J1), farms H1 I1. Seat 0 joins them on G1.
    s = position(tiles={"D1": "red", "E1": "blue", "F1": "blue", "E2": "blue",
                        "H1": "blue", "I1": "blue", "J1": "red", **FAR},
                 treasures=list(FAR), leaders={1: {"farmer": "C1"}, 2: {"farmer": "K1"}},
                 hands={0: {"blue": 1}})
    s, events = play(s, (0, "tile blue G1"), (1, "support 0"), (2, "support 0"))
    resolved = events_of(events, "conflict_resolved")[0]
    assert resolved["winner"] == 1  # seat 1 attacks: first involved clockwise from seat 0
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (3, 2)
    assert sorted(resolved["removed"]) == ["H1", "I1"]
    assert score(s, 1)["blue"] == 3 and leader_at(s, 2, "farmer") is None
    assert cell(s, "G1") == "b" and cell(s, "J1") == "r"


@pytest.mark.parametrize("color", ("green", "black"))
def test_outside_a_priest_war_supporters_next_to_other_leaders_are_removed(color):
    # Only the priests' war spares tiles next to another leader: the loser's one
    # supporter G5 stands next to seat 0's priest on G4 and still goes.
    s = position(tiles={"C5": "red", "D5": color, "E5": color, "E4": color, "G5": color, "H4": "red", **FAR},
                 treasures=list(FAR),
                 leaders={1: {LEADER_OF[color]: "C6"}, 2: {LEADER_OF[color]: "H5"}, 0: {"priest": "G4"}},
                 hands={0: {"red": 1}})
    s, events = play(s, (0, "tile red F5"), (1, "support 0"), (2, "support 0"))
    resolved = events_of(events, "conflict_resolved")[0]
    assert resolved["winner"] == 1 and resolved["removed"] == ["G5"]
    assert score(s, 1)[color] == 2


def test_the_attacker_is_the_next_involved_seat_clockwise_past_the_last_seat():
    # Active seat 1 is not involved; kings of seats 0 and 2: seat 2 comes first.
    s = position(active=1, tiles={"C5": "red", "D5": "black", "E5": "black", "G5": "black", "H5": "red", **FAR},
                 treasures=list(FAR), leaders={0: {"king": "C6"}, 2: {"king": "H6"}},
                 hands={1: {"red": 1}})
    s, events = play(s, (1, "tile red F5"))
    assert GAME.pending(s) == {2: "support"}
    started = events_of(events, "war_started")[0]
    assert (started["attacker"], started["defender"]) == (2, 0)


def test_english_variant_limits_a_wars_commitments_by_supporters():
    # Seat 1 (attacker) has 1 settlement, seat 2 has 3: to commit, seat 1 must pass 3.
    s = position(tiles={"C5": "red", "D5": "black", "E5": "red", "G5": "black", "G4": "black", "G6": "black",
                        "H5": "red", **FAR}, treasures=list(FAR),
                 leaders={1: {"king": "C6"}, 2: {"king": "H6"}},
                 hands={0: {"red": 1}, 1: {"black": 4, "red": 2}, 2: {"black": 3}},
                 options={"english_variant": True}, bag={"red": 30, "blue": 20, "green": 20, "black": 10})
    s, _ = play(s, (0, "tile red F5"))
    assert GAME.pending(s) == {1: "support"}
    assert {m["count"] for m in GAME.legal_moves(s, 1)} == {0, 3, 4}
    s, _ = play(s, (1, "support 3"))  # 4 against 3
    assert {m["count"] for m in GAME.legal_moves(s, 2)} == {0, 1}


# --- Monuments after wars --------------------------------------------------------

def _block_war(attacker_commit):
    # Left: seat 1's king D5 (temple C5), settlements E5 E4 D6. Right: seat 2's king H5
    # (temple H4), settlements G5 G6 F6. Seat 0's settlement on F5 joins them and
    # completes the block F5 G5 F6 G6, which stands only if the right side wins.
    s = position(tiles={"C5": "red", "E5": "black", "E4": "black", "D6": "black",
                        "G5": "black", "G6": "black", "F6": "black", "H4": "red", **FAR},
                 treasures=list(FAR), leaders={1: {"king": "D5"}, 2: {"king": "H5"}},
                 hands={0: {"black": 1}, 1: {"black": 1}})
    return play(s, (0, "tile black F5"), (1, f"support {attacker_commit}"), (2, "support 0"))


def test_the_block_a_joining_tile_completes_is_offered_once_the_wars_leave_it():
    s, events = _block_war(0)
    assert events_of(events, "conflict_resolved")[0]["winner"] == 2
    assert GAME.pending(s) == {0: "monument"}
    assert not [e for e in events_of(events, "points_scored") if e["seat"] == 0]


def test_no_monument_when_the_war_removed_part_of_the_block():
    s, events = _block_war(1)
    assert events_of(events, "conflict_resolved")[0]["winner"] == 1
    assert cell(s, "G5") == "." and GAME.pending(s) == {0: "action"}


# --- Monument points at the end of the turn, every leader colour ------------------

MONUMENT_PAIRS = (("red", "black"), ("red", "green"), ("blue", "black"), ("blue", "red"),
                  ("green", "black"), ("green", "blue"))


def _monument_kingdom(pair, leaders):
    # The monument's block G5 H5 G6 H6 joins the temples F5 and E6; leaders stand on
    # F4, E5, F6 and D6 (each next to a face-up temple), all in one kingdom.
    land = pair[0] if pair[0] != "blue" else pair[1]  # farms stand on the river only
    face_down = {"red": "R", "green": "G", "black": "K"}[land]
    return position(tiles={"F5": "red", "E6": "red", **FAR,
                           **{sq: face_down for sq in ("G5", "H5", "G6", "H6")}},
                    treasures=list(FAR), monuments=[{"colors": list(pair), "square": "G5"}],
                    leaders=leaders)


@pytest.mark.parametrize("pair", MONUMENT_PAIRS, ids=lambda p: "-".join(p))
def test_each_own_leader_of_a_monuments_colour_scores_it_at_the_end_of_the_turn(pair):
    squares = ("F4", "E5", "F6", "D6")
    s = _monument_kingdom(pair, {0: dict(zip(("king", "priest", "farmer", "trader"), squares))})
    s, events = play(s, (0, "pass"))
    monument_points = {e["color"]: e["points"] for e in events_of(events, "points_scored")
                       if e["reason"] == "monument"}
    assert monument_points == {pair[0]: 1, pair[1]: 1}


@pytest.mark.parametrize("pair", MONUMENT_PAIRS, ids=lambda p: "-".join(p))
def test_a_lone_king_scores_only_from_a_black_monument(pair):
    s = _monument_kingdom(pair, {0: {"king": "F4"}})
    s, events = play(s, (0, "pass"))
    points = {e["color"]: e["points"] for e in events_of(events, "points_scored") if e["reason"] == "monument"}
    assert points == ({"black": 1} if "black" in pair else {})


def test_monument_points_go_to_the_active_player_only():
    s = _monument_kingdom(("red", "black"), {0: {"farmer": "F4"}, 1: {"king": "E5", "priest": "F6"}})
    s, events = play(s, (0, "pass"))
    assert not events_of(events, "points_scored")
    s, events = play(s, (1, "pass"))
    points = {e["color"]: e["seat"] for e in events_of(events, "points_scored")}
    assert points == {"red": 1, "black": 1}


# --- Catastrophes strand leaders of every colour -----------------------------------

@pytest.mark.parametrize("leader", ("king", "priest", "farmer", "trader"))
def test_a_catastrophe_on_the_last_temple_sends_any_leader_home(leader):
    s = position(tiles={"E5": "red", "G6": "red", **FAR}, treasures=list(FAR),
                 leaders={1: {leader: "F5"}, 2: {leader: "G7"}})
    s, events = play(s, (0, "catastrophe E5"))
    returned = [(e["seat"], e["leader"]) for e in events_of(events, "leader_returned")]
    assert returned == [(1, leader)] and leader_at(s, 2, leader) == "G7"  # G6 still there


def test_a_catastrophe_splitting_a_kingdom_starts_no_conflict():
    s = position(tiles={"E5": "red", "F5": "black", "G5": "red", **FAR}, treasures=list(FAR),
                 leaders={1: {"king": "E6"}, 2: {"priest": "G6"}})
    s, events = play(s, (0, "catastrophe F5"))
    assert GAME.pending(s) == {0: "action"} and leader_at(s, 1, "king") == "E6"


# --- Treasures ----------------------------------------------------------------------

def test_placing_a_trader_takes_treasures_too():
    s = position(tiles={"E5": "red", "F5": "black", "G5": "red", **FAR},
                 treasures=["E5", "G5", *FAR])
    s, events = play(s, (0, "leader trader E6"))
    assert GAME.pending(s) == {0: "treasure"}
    s, events = play(s, (0, "treasure E5"))
    assert GAME.to_json(s)["players"][0]["treasures"] == 1 and GAME.pending(s) == {0: "action"}


def test_two_corner_treasures_of_three_are_both_taken_without_asking():
    # Row 2 from B2 (corner) to P2 (corner), with H3's temple and treasure.
    row = {"B2": "red", "C2": "black", "D2": "black", "E2": "blue", "F2": "black",
           "H2": "black", "I2": "black", "J2": "black", "K2": "black", "L2": "black",
           "M2": "blue", "N2": "black", "O2": "black", "P2": "red", "H3": "red"}
    s = position(tiles={**row, "K11": "red", "O9": "red"}, treasures=["B2", "P2", "H3", "K11", "O9"],
                 leaders={1: {"trader": "A2"}}, hands={0: {"black": 1}},
                 bag={"red": 30, "blue": 20, "green": 20, "black": 5})
    s, events = play(s, (0, "tile black G2"))
    taken = sorted((e["seat"], e["square"]) for e in events_of(events, "treasure_taken"))
    assert taken == [(1, "B2"), (1, "P2")] and GAME.pending(s) == {0: "action"}


def test_advanced_board_an_outer_treasure_goes_before_an_inner_one():
    # Advanced board: J11 lies outside the rivers, H8 inside; H9 and H10 are river.
    s = position(tiles={"H8": "red", "H9": "blue", "H10": "blue", "H11": "black", "J11": "red",
                        "E10": "red", "O11": "red", "B3": "red"},
                 treasures=["H8", "J11", "E10", "O11", "B3"],
                 leaders={1: {"trader": "G8"}}, hands={0: {"black": 1}}, options={"board": "advanced"})
    s, events = play(s, (0, "tile black I11"))
    assert [(e["seat"], e["square"]) for e in events_of(events, "treasure_taken")] == [(1, "J11")]
    assert GAME.pending(s) == {0: "action"}


@pytest.mark.parametrize("attacker_commit,attacker_wins", [(0, False), (1, True)])
def test_the_treasures_a_revolt_brings_together_go_to_its_winner(attacker_commit, attacker_wins):
    # Seat 0's trader on F5 joins seat 1's kingdom (trader E4, treasure E5) with the
    # leaderless temple G5 (treasure): 2 adjacent temples against 1. Seat 1 commits a
    # temple to tie when seat 0 commits none, and nothing when seat 0 commits one.
    s = position(tiles={"E5": "red", "G5": "red", **FAR}, treasures=["E5", "G5", *FAR],
                 leaders={1: {"trader": "E4"}}, hands={0: {"red": 1}, 1: {"red": 1}})
    s, events = play(s, (0, "leader trader F5"), (0, f"support {attacker_commit}"))
    s, events = play(s, (1, f"support {1 - attacker_commit}"))
    winner = events_of(events, "conflict_resolved")[0]["winner"]
    if attacker_wins:
        assert winner == 0 and GAME.pending(s) == {0: "treasure"}
    else:  # F5 empties: G5 is apart again, one treasure each side
        assert winner == 1 and GAME.pending(s) == {0: "action"}


# --- The end of the game -----------------------------------------------------------

def test_the_game_goes_on_to_the_end_of_the_turn_once_two_treasures_are_left():
    s = position(tiles={"E5": "red", "F5": "black", "G5": "red", "K11": "red"},
                 treasures=["E5", "G5", "K11"], hands={0: {"red": 1}})
    s, events = play(s, (0, "leader trader E6"), (0, "treasure E5"))
    assert GAME.pending(s) == {0: "action"} and GAME.outcome(s) is None  # 2 left, mid-turn
    s, events = play(s, (0, "tile red A11"))
    assert GAME.outcome(s)["reason"] == "treasures"


def test_a_swap_the_bag_cannot_cover_ends_the_game_at_once():
    s = position(tiles=FAR, treasures=list(FAR), hands={0: {"red": 3}},
                 bag={"red": 1, "blue": 0, "green": 0, "black": 0})
    s, events = play(s, (0, "swap red red"))
    assert GAME.outcome(s)["reason"] == "bag" and GAME.pending(s) == {}


def test_treasures_are_wild_points_in_the_final_ranking():
    s = position(scores={0: {"red": 2, "blue": 5, "green": 5, "black": 9},
                         1: {"red": 4, "blue": 4, "green": 4, "black": 4}},
                 treasure_counts={0: 3, 1: 1}, players=2)
    result = ranking(s)
    assert result["scores"][0]["sorted"] == [5, 5, 5, 9]
    assert result["ranking"] == [[0], [1]]
