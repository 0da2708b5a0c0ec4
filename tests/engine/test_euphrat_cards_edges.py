"""Edges of the card game's rules the one-test-per-rule file leaves open: each leader
colour where a rule speaks of leaders, several conflicts of one union, the end by a
treasure swap."""
import pytest

from tests.engine.euphrat_cards_positions import GAME, as_json, column, leader_at, play, position, vp


def legal_texts(state, seat):
    return {GAME.format_move(m) for m in GAME.legal_moves(state, seat) if m["type"] != "set_answer"}


def resolved(events):
    return next(e for e in events if e["type"] == "conflict_resolved")


# A card of each colour on a card of another colour, so that any leader may stand there.
UNDER = {"red": "b", "blue": "r", "green": "r", "black": "r"}
LEADER_OF = {"red": "priest", "blue": "farmer", "green": "trader", "black": "king"}
CHAR = {"red": "r", "blue": "b", "green": "g", "black": "k"}


@pytest.mark.parametrize("color", ["red", "blue", "green", "black"])
def test_a_card_scores_for_its_own_leader_of_every_colour_and_else_for_the_king(color):
    s = position(columns=["t" + UNDER[color], "tg"] + ["t"] * 6,
                 leaders={1: {LEADER_OF[color]: "A1"}, 2: {"king": "B1"} if color != "black" else {}},
                 hands={0: {color: 2}, 1: {color: 1}})
    s2, _ = play(s, (0, f"play {color} A"))
    assert GAME.pending(s2) == {1: "score"} and legal_texts(s2, 1) == {"score", "decline"}
    s2, _ = play(s2, (1, "score"))
    assert vp(s2, 1) == CHAR[color]
    if color != "black":  # no leader of the colour in B: the king's owner is asked, holding none
        s3, _ = play(s, (0, f"play {color} B"))
        assert GAME.pending(s3) == {2: "score"} and legal_texts(s3, 2) == {"decline"}


@pytest.mark.parametrize("leader,card,bonus", [
    ("priest", "b", (0, 0)),  # a priest never stands on a red card
    ("farmer", "t", (1, 0)),  # the treasure is red
    ("trader", "r", (1, 0)),
    ("king", "r", (1, 0)),
])
def test_an_internal_conflict_of_every_colour_counts_red_cards_and_red_under_the_leader(leader, card, bonus):
    s = position(columns=["t" + ("b" if card == "t" else card) + "kg", "t"] + ["t"] * 6,
                 leaders={1: {leader: "A3" if leader != "trader" else "A2"}}, hands={0: {"red": 2}, 1: {"red": 1}})
    place = "A0" if card == "t" else "A1"
    s, events = play(s, (0, f"leader {leader} {place}"))
    assert GAME.pending(s) == {0: "support"}
    s, events = play(s, (0, "support 1"), (1, "support 1"))
    result = resolved(events)
    assert (result["attacker_strength"], result["defender_strength"]) == (1 + bonus[0], 1 + bonus[1])
    winner = 0 if bonus[0] else 1  # a tie goes to the defender
    assert result["winner"] == winner and vp(s, winner) == "r"
    assert leader_at(s, 1 - winner, leader) is None


def test_the_defender_on_a_treasure_has_the_red_bonus_too():
    s = position(columns=["tb", "t"] + ["t"] * 6, leaders={1: {"king": "A0"}}, hands={0: {"red": 1}})
    s, events = play(s, (0, "leader king A1"), (0, "support 1"), (1, "support 0"))
    assert (resolved(events)["attacker_strength"], resolved(events)["defender_strength"]) == (1, 1)
    assert resolved(events)["winner"] == 1 and leader_at(s, 1, "king") == "A0" and vp(s, 1) == "r"


@pytest.mark.parametrize("leader,ship,scores", [
    ("farmer", "R", True), ("farmer", "G", True), ("farmer", "K", True),
    ("priest", "R", True), ("priest", "G", False),
    ("trader", "G", True), ("trader", "K", False),
    ("king", "K", True), ("king", "R", False),
])
def test_ship_points_for_every_leader_colour_only_with_a_ship_of_its_colour(leader, ship, scores):
    color = next(c for c, name in LEADER_OF.items() if name == leader)
    stand = "D2" if leader == "king" else "D1"
    s = position(columns=["t", "t", "t", "tkr" + ship, "t", "t", "t", "t"], leaders={0: {leader: stand}},
                 hands={0: {color: 1, "red" if color != "red" else "blue": 1}}, deck="g" * 20)
    s, _ = play(s, (0, "pass"))
    assert vp(s, 0) == CHAR[color] * scores


def test_two_conflicts_of_one_union_in_the_order_chosen_each_from_the_original_kingdoms():
    s = position(
        columns=["tkgbr", "tggrb", "t", "t", "t", "t", "t", "t"],
        leaders={0: {"trader": "A1", "king": "A3"}, 1: {"trader": "B3", "king": "B1"}},
        hands={0: {"blue": 1, "green": 1, "black": 1}, 1: {"green": 2, "black": 2}}, players=2,
    )
    s, _ = play(s, (0, "play blue AB"))
    assert GAME.pending(s) == {0: "conflict_order"} and legal_texts(s, 0) == {"conflict green", "conflict black"}
    s, events = play(s, (0, "conflict green"), (0, "support 1"), (1, "support 0"))
    green = resolved(events)
    assert (green["attacker_strength"], green["defender_strength"], green["winner"]) == (2, 2, 1)
    assert green["cards_taken"] == ["A2"] and column(s, "A") == "tkbr"
    assert as_json(s)["conflict"]["color"] == "black" and GAME.pending(s) == {0: "support"}
    assert leader_at(s, 0, "king") == "A2"  # moved up with its card
    s, events = play(s, (0, "support 1"), (1, "support 2"))
    black = resolved(events)
    assert (black["attacker_strength"], black["defender_strength"], black["winner"]) == (2, 2, 1)
    assert vp(s, 1) == "ggkk" and vp(s, 0) == ""
    assert GAME.pending(s) == {1: "treasure"}  # the winning trader, after both conflicts


def test_a_treasure_swap_that_leaves_one_treasure_ends_the_game_at_the_end_of_the_turn():
    s = position(columns=["tkkk", "tbbb"] + ["k"] * 6, leaders={1: {"trader": "A1"}},
                 hands={0: {"black": 2}, 1: {"red": 1}}, players=2)
    s, _ = play(s, (0, "play black AB"), (1, "treasure A"))
    assert column(s, "A") == "rkkk" and vp(s, 1) == "t" and GAME.outcome(s) is None
    s, events = play(s, (0, "pass"))
    assert GAME.outcome(s)["reason"] == "treasures" and events[-1]["type"] == "game_ended"
