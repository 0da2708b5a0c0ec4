"""The card table (every count of the rulebook, provisional, replaceable without code
changes) and the set-up: two plots dealt, the draft clockwise then counter-clockwise,
the free population, the displays, the 6/7/8/9 deal and the discards in order."""
import json

import pytest

import engine
from engine.civ_cards import CivCards, load_table
from engine.civ_cards.table import DEFAULT_TABLE, TableError
from engine.simulate import random_playout
from tests.engine.civ_cards_positions import GAME, TABLE, cards_accounted, table_counts


def test_the_table_keeps_every_count_of_the_rulebook():
    assert TABLE.kind_total("plot") == 30
    assert TABLE.kind_total("resource") == 84
    assert TABLE.kind_total("population") == 48
    assert TABLE.kind_total("technology") == 15 and len(TABLE.of_kind("technology")) == 15
    assert len(TABLE.deck_cards()) == 90
    assert TABLE.kind_total("unit") == 34
    assert TABLE.kind_total("building") == 21
    assert TABLE.kind_total("wonder") == 5 and len(TABLE.of_kind("wonder")) == 5
    assert TABLE.kind_total("bonus") == 30
    assert sorted(TABLE.awards) == ["highest-culture", "highest-happiness"]


def test_the_cards_the_rulebook_names_do_what_it_says():
    effects = TABLE.effects
    assert effects("catapult")["removes_walls"] and effects("walls")["walls"] and effects("great-wall")["walls"]
    assert "swordsman" in effects("axeman")["counters"]
    assert effects("pottery")["extra_draw"] == 1 and effects("astronomy")["extra_draw"] == 1
    assert effects("engineering")["building_slot"] == 1
    assert [effects(c)["plot_bonus"] for c in ("granary", "forge", "market")] == ["food", "production", "commerce"]
    wild = [c for c in TABLE.of_kind("bonus") if effects(c)["bonus"]["resource"] == "wild"]
    assert wild and all(kind in ("food", "production", "commerce", "wild") for kind in
                        (effects(c)["bonus"]["resource"] for c in TABLE.of_kind("bonus")))
    for plot in TABLE.of_kind("plot"):
        assert 1 <= len(effects(plot)["yield"]) <= 2


def test_the_table_is_marked_provisional_in_its_metadata_and_the_description():
    assert TABLE.metadata["provisional"] is True
    assert "provisional" in GAME.description
    assert GAME.view(GAME.setup(2, 1), 0)["provisional_table"] is True


def _other_table(tmp_path):
    """A different table: other ids, names, yields and counts; no effect type is new."""
    data = json.load(open(DEFAULT_TABLE))
    data["metadata"] = {**data["metadata"], "id": "printed-test", "provisional": False, "title": "Test cards"}
    cards = []
    for row in data["cards"]:
        row = dict(row, id="x-" + row["id"], name="X " + row["name"])
        if row["kind"] == "technology":
            row["cost"] = row["cost"] + 1
        if row["kind"] == "plot":
            row["effects"] = {"yield": {"commerce": 2, "food": 1}}
        if "counters" in row["effects"]:
            row["effects"] = {**row["effects"], "counters": [
                c if c in ("melee", "mounted", "siege", "archery") else "x-" + c for c in row["effects"]["counters"]]}
        cards.append(row)
    removed = ("x-swordsman", "x-archer")
    cards = [r for r in cards if r["id"] not in removed]
    for row in cards:
        if "counters" in row["effects"]:
            row["effects"]["counters"] = [c for c in row["effects"]["counters"] if c not in removed]
    cards = [r if r["id"] != "x-axeman" else {**r,
                                              "effects": {"steal_population": 2, "counters": ["melee"]}} for r in cards]
    data["cards"] = cards
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(data))
    return path


def test_a_second_different_table_plays_with_no_code_change(tmp_path):
    game = CivCards(load_table(str(_other_table(tmp_path))))
    assert "provisional" not in game.description
    ends = 0
    for seed in range(4):
        state = None
        for _state, _seat, _move, state, _events in random_playout(game, 3, seed):
            pass
        assert game.outcome(state) is not None
        ends += 1
        seen = {plot["plot"] for p in state["players"] for plot in p["plots"]}
        assert seen and all(card.startswith("x-") for card in seen)
        assert cards_accounted(state, game.table) == table_counts(game.table)
    assert ends == 4
    with pytest.raises(engine.IllegalMove) as err:  # a state of one table is refused by the other
        game.from_json(GAME.to_json(GAME.setup(2, 1)))
    assert err.value.code == "bad_state"


def test_a_table_with_an_unknown_effect_is_refused(tmp_path):
    data = json.load(open(DEFAULT_TABLE))
    data["cards"][0]["effects"] = {"teleport": 1}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(TableError) as err:
        load_table(str(path))
    assert "teleport" in err.value.message and "flat_yield" in err.value.message


def test_two_plots_are_dealt_then_drafted_clockwise_then_counter_clockwise():
    s = GAME.setup(4, 3)
    assert s["dealer"] == 3
    assert all(len(p["plots"]) == 2 for p in s["players"])
    assert s["draft"]["round"] == 1 and s["draft"]["order"] == [0, 1, 2, 3] and len(s["draft"]["display"]) == 4
    picks = []
    for _ in range(3):
        seat = next(iter(GAME.pending(s)))
        picks.append(seat)
        s, _ = GAME.apply(s, seat, {"type": "pick_plot", "slot": 1})
    # the fourth player takes the last plot without a choice; round 2 starts with the dealer
    assert picks == [0, 1, 2] and len(s["players"][3]["plots"]) == 3
    assert s["draft"]["round"] == 2 and s["draft"]["order"] == [3, 2, 1, 0]
    for expected in (3, 2, 1):
        assert GAME.pending(s) == {expected: "draft"}
        s, _ = GAME.apply(s, expected, {"type": "pick_plot", "slot": 2 if len(s["draft"]["display"]) > 1 else 1})
    assert all(len(p["plots"]) == 4 for p in s["players"])
    assert GAME.pending(s) == {0: "settle", 1: "settle", 2: "settle", 3: "settle"}


def test_free_population_then_displays_the_6_7_8_9_deal_and_discards_in_order():
    s = GAME.setup(4, 5)
    while GAME.pending(s) and next(iter(GAME.pending(s).values())) == "draft":
        seat = next(iter(GAME.pending(s)))
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    for seat in range(4):
        s, _ = GAME.apply(s, seat, {"type": "settle", "plot": seat + 1})
    assert [sum(p["population"] for p in pl["plots"]) for pl in s["players"]] == [1, 1, 1, 1]
    assert s["players"][2]["plots"][2]["population"] == 1 and s["population"] == 44
    assert len(s["plot_display"]) == 3 and len(s["tech_display"]) == 3 and len(s["tech_deck"]) == 12
    assert [sum(p["hand"].values()) for p in s["players"]] == [6, 7, 8, 9]
    order = []
    while s["turn"]["phase"] == "opening_discard":
        (seat, kind), = GAME.pending(s).items()
        assert kind == "discard"
        order.append(seat)
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    assert order == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [sum(p["hand"].values()) for p in s["players"]] == [4, 5, 6, 7]
    assert s["turn"]["active"] == 0 and s["turn"]["number"] == 1
    assert s["turn"]["phase"] in ("collect", "buy")
    assert cards_accounted(s) == table_counts()


def test_two_and_three_players_draw_6_7_and_6_7_8():
    for players, hands in ((2, [6, 7]), (3, [6, 7, 8])):
        s = GAME.setup(players, 1)
        while GAME.pending(s) and "settle" not in GAME.pending(s).values():
            seat = next(iter(GAME.pending(s)))
            s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
        for seat in range(players):
            s, _ = GAME.apply(s, seat, {"type": "settle", "plot": 1})
        assert [sum(p["hand"].values()) for p in s["players"]] == hands


def test_same_seed_same_game_and_setup_shuffles_every_deck():
    a, b, c = GAME.setup(3, 9), GAME.setup(3, 9), GAME.setup(3, 10)
    assert a == b and a != c
    assert sorted(a["deck"]) == sorted(TABLE.deck_cards())
