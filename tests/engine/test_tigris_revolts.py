"""Revolts of every leader: both sides add red temples from hand, whatever the
leader's colour (2nd edition: "traggono la loro forza dai templi ... templi extra")."""
import pytest

import engine
from tests.engine.tigris_positions import GAME, hand, leader_at, play, position, score

NAMES = {0: "Ann", 1: "Bob"}
LEADER_COLORS = {"king": "black", "priest": "red", "farmer": "blue", "trader": "green"}
# H5 stands between the temples G5 and I5; H4 (next to G4 and I4) touches H5, so a
# leader placed there joins the defender's kingdom: 2 temples on each side.
TEMPLES = {"G5": "red", "I5": "red", "G4": "red", "I4": "red", "K11": "red", "O9": "red", "P2": "red"}


def revolt(leader: str, options: dict | None = None):
    color = LEADER_COLORS[leader]
    hands = {0: {"red": 3}, 1: {"red": 2}}
    if color != "red":  # one tile of the leader's own colour, which must not count
        hands[0][color] = hands[1][color] = 1
    s = position(players=2, tiles=TEMPLES, treasures=["K11", "O9", "P2"],
                 leaders={1: {leader: "H5"}}, hands=hands, options=options)
    s, events = play(s, (0, f"leader {leader} H4"))
    started = next(e for e in events if e["type"] == "revolt_started")
    return s, started


def counts(state, seat):
    return [m["count"] for m in GAME.legal_moves(state, seat)]


@pytest.mark.parametrize("leader", LEADER_COLORS)
def test_revolt_is_fought_with_red_temples_from_hand(leader):
    color = LEADER_COLORS[leader]
    s, started = revolt(leader)
    assert GAME.describe_event(started, NAMES) == f"Revolt on H5: Ann attacks Bob's {leader}."
    assert counts(s, 0) == [0, 1, 2, 3]
    assert GAME.prompt(s, 0, NAMES) == (
        f"You attack in a {color} revolt against Bob's {leader}. You have 2 adjacent "
        "temples on the board, they have 2. Commit up to 3 red tiles from your hand; "
        "a tie goes to the defender."
    )
    s, events = play(s, (0, "support 3"))
    assert events[0]["color"] == "red" and hand(s, 0)["red"] == 0
    assert counts(s, 1) == [0, 1, 2]
    assert "Commit up to 2 red tiles" in GAME.prompt(s, 1, NAMES)
    s, events = play(s, (1, "support 2"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (5, 4)
    assert leader_at(s, 1, leader) is None and leader_at(s, 0, leader) == "H4"
    assert hand(s, 1)["red"] == 0
    assert score(s, 0)["red"] == 1
    if color != "red":  # the leader's own colour stayed in both hands
        assert hand(s, 0)[color] == 1 and hand(s, 1)[color] == 1


@pytest.mark.parametrize("leader", LEADER_COLORS)
def test_english_variant_revolt_limits_count_red_temples_in_hand(leader):
    color = LEADER_COLORS[leader]
    s, _ = revolt(leader, {"english_variant": True})
    # 2 temples against 2: the attacker must commit at least 1 to exceed the defender.
    assert counts(s, 0) == [0, 1, 2, 3]
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 1, {"type": "commit_support", "count": 0})
    assert err.value.code == "not_your_turn"
    s, _ = play(s, (0, "support 2"))
    assert counts(s, 1) == [0, 2]  # exactly to the tie: 2 red temples
    assert "Commit 0 or 2 red tiles" in GAME.prompt(s, 1, NAMES)
    s, events = play(s, (1, "support 2"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["winner"], resolved["attacker_strength"], resolved["defender_strength"]) == (1, 4, 4)
    assert GAME.describe_event(resolved, NAMES) == (
        f"Bob won the {color} revolt 4 to 4 (a tie goes to the defender); Ann's {leader} went home."
    )
    assert leader_at(s, 0, leader) is None and leader_at(s, 1, leader) == "H5"
    assert hand(s, 0)["red"] == 1 and hand(s, 1)["red"] == 0 and score(s, 1)["red"] == 1


def test_english_variant_attacker_without_enough_red_may_commit_nothing():
    s = position(players=2, tiles={**TEMPLES, "H3": "red"}, treasures=["K11", "O9", "P2"],
                 leaders={1: {"king": "H4"}}, hands={0: {"red": 1, "black": 5}},
                 options={"english_variant": True})
    s, _ = play(s, (0, "leader king H5"))  # 2 temples against H4's 3
    assert counts(s, 0) == [0]
    assert "You may commit no red tiles now" in GAME.prompt(s, 0, NAMES)


def test_prompt_and_narration_count_one_in_the_singular():
    s = position(players=2, tiles={"G5": "red", "I4": "red", "K11": "red", "O9": "red", "P2": "red"},
                 treasures=["K11", "O9", "P2"], leaders={1: {"trader": "H5"}}, hands={0: {"red": 1}})
    s, _ = play(s, (0, "leader trader H4"))  # H4 touches I4 only, H5 touches G5 only
    assert GAME.prompt(s, 0, NAMES).startswith(
        "You attack in a green revolt against Bob's trader. You have 1 adjacent temple on the "
        "board, they have 1. Commit up to 1 red tile from your hand;"
    )
    s, events = play(s, (0, "support 1"))
    assert GAME.describe_event(events[0], NAMES) == "Ann committed 1 red supporter as attacker."
