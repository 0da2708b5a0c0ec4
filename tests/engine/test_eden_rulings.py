"""One test per ruling of the Eden rules digest (rulings 1-9), plus the bidding as a
decision between two seats and what a refused move leaves unchanged."""
import json

import pytest

import engine
from tests.engine.eden_positions import GAME, as_json, cell, hand, mana, play, position, supply


def refused(state, seat, text, match):
    before = as_json(state)
    with pytest.raises(engine.IllegalMove, match=match):
        GAME.apply(state, seat, GAME.parse_move(text))
    assert as_json(state) == before


def test_ruling_1_an_occupied_squares_irrigation_card_stays_in_hand():
    s = position({"D4": "y1"}, hands={0: ["D4"]})
    refused(s, 0, "irrigate D4", "already holds a tile")
    assert {"type": "irrigate", "square": "D4"} not in GAME.legal_moves(s, 0)
    s, _ = play(s, (0, "pass"))
    assert "D4" in hand(s, 0)


def test_ruling_2_a_bid_is_legal_only_if_its_bidder_can_pay_it():
    s = position({"C4": "y2"}, hands={0: ["B4"]}, mana={0: 50, 1: 20})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"))
    refused(s, 0, "bid 30", "more than you have")  # 30 x 2 = 60 > 50
    assert [m["amount"] for m in GAME.legal_moves(s, 0) if m["type"] == "bid"] == [10, 15, 20, 25]
    s, _ = play(s, (0, "bid 10"))
    refused(s, 1, "bid 25", "more than you have")  # the defender pays x1: 25 > 20
    assert GAME.legal_moves(s, 1) == [{"type": "accept"}, {"type": "bid", "amount": 15}, {"type": "bid", "amount": 20}]


def test_ruling_3_no_acquisition_without_the_tiles_to_replace_the_group():
    # Red places his last 1/2 tile: yellow's level-1 tile cannot be contested, the level-3 one can.
    tiles = {f"{c}{r}": "r1" for c in "ABCDEFG" for r in (6, 7)}
    tiles.update({"A1": "r1"})  # 15 of red's 16 tiles 1/2 on the board
    tiles.update({"B5": "y1", "C4": "y3"})
    s = position(tiles, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"))
    refused(s, 0, "contest B5", "supply must hold")
    assert [m for m in GAME.legal_moves(s, 0) if m["type"] == "contest"] == [{"type": "contest", "square": "C4"}]
    # With no contestable tile at all, no acquisition is offered.
    s = position({**tiles, "C4": ".."}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"))
    assert GAME.pending(s) == {0: "action"}


def test_ruling_4_an_empty_deck_draws_nothing_and_a_round_of_passes_ends_the_game():
    s = position({"A1": "r2", "B1": "y1", "C1": "b1"}, hands={0: ["A1"]}, deck=[])
    s, events = play(s, (0, "pass"))
    assert not any(e["type"] == "card_drawn" for e in events) and hand(s, 0) == ["A1"]
    s, _ = play(s, (1, "pass"))
    assert GAME.outcome(s) is None
    s, events = play(s, (2, "pass"))
    outcome = GAME.outcome(s)
    assert outcome["reason"] == "no_play" and outcome["ranking"] == [[0], [1, 2]]  # ties shared
    assert events[-1]["type"] == "game_ended"


def test_ruling_4_a_pass_with_a_card_that_could_be_played_starts_the_round_again():
    s = position({"A1": "r1"}, hands={1: ["G7"]}, deck=[], idle_turns=1)
    s, _ = play(s, (0, "pass"), (1, "pass"), (2, "pass"))  # yellow could have irrigated G7
    assert GAME.outcome(s) is None and as_json(s)["turn"]["idle_turns"] == 1


def test_ruling_4_a_round_of_passes_that_draws_cards_does_not_end_the_game():
    # Each dead hand draws a fresh card as it passes: the game is not stalled.
    s = position({"A1": "r1", "B1": "y1", "C1": "b1"}, hands={0: ["A1"], 1: ["B1"], 2: ["C1"]},
                 deck=["D1", "E1", "F1"])
    s, events = play(s, (0, "pass"), (1, "pass"), (2, "pass"))
    assert GAME.outcome(s) is None and not any(e["type"] == "game_ended" for e in events)
    assert {"type": "irrigate", "square": "D1"} in GAME.legal_moves(s, 0)


def test_ruling_4_full_dead_hands_end_the_game_though_the_deck_holds_cards():
    dead = {0: ["A1", "B1", "C1", "D1", "E1"], 1: ["A2", "B2", "C2", "D2", "E2"], 2: ["A3", "B3", "C3", "D3", "E3"]}
    tiles = {square: "r1" for hand in dead.values() for square in hand}
    s = position(tiles, hands=dead, deck=["G7"])
    s, _ = play(s, (0, "pass"), (1, "pass"), (2, "pass"))  # holding 5, nobody draws
    assert GAME.outcome(s)["reason"] == "no_play"


def test_ruling_5_mana_and_hands_are_secret_and_the_market_public():
    s = position(hands={0: ["K1", "A1"], 1: ["B2"]}, mana={0: 4711, 1: 4733}, market=["K2"])
    for seat in (None, 0, 1, 2):
        view = GAME.view(s, seat)
        text = json.dumps(view)
        assert ("4711" in text) == (seat == 0) and ("4733" in text) == (seat == 1)
        assert view["market"] == ["K2"] and "deck" not in view and "rng" not in view
        assert [p.get("hand_size") for p in view["players"]] == [None if seat == 0 else 2, None if seat == 1 else 1,
                                                                 None if seat == 2 else 0]


def test_ruling_6_level_4_never_rises_and_a_cultivation_raising_nothing_is_refused():
    s = position({"A1": "r4", "B1": "r4", "C1": "r3"}, hands={0: ["K1"]})
    refused(s, 0, "cultivate K1 A1 B1", "nothing would rise")
    s, _ = play(s, (0, "cultivate K1 B1 C1"))
    assert cell(s, "B1") == "r4" and cell(s, "C1") == "r4"


def test_ruling_6_an_unpayable_cultivation_is_refused_until_a_card_is_sold():
    s = position({"A1": "r1", "B1": "r1"}, hands={0: ["K1", "K4"]}, mana={0: 10})
    refused(s, 0, "cultivate K1 A1 B1", "costs 20 mana and you have 10")
    s, _ = play(s, (0, "sell K4"), (0, "cultivate K1 A1 B1"))
    assert mana(s, 0) == 10 + 40 - 20


def test_ruling_7_no_mana_moves_until_one_side_accepts():
    s = position({"C4": "y1"}, hands={0: ["B4"]})
    s, events = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"), (1, "bid 15"), (0, "bid 20"))
    assert mana(s, 0) == 100 and mana(s, 1) == 100
    s, _ = play(s, (1, "accept"))
    assert mana(s, 0) == 80 and mana(s, 1) == 120


def test_ruling_7_an_unpayable_opening_needs_a_smaller_group():
    # 10 per point on 4 points is 40; red has 30: he may bid on one tile only.
    s = position({"C4": "y1", "D4": "y3"}, hands={0: ["B4"]}, mana={0: 30})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "contest D4"))
    refused(s, 0, "bid 10", "more than you have")
    assert not any(m["type"] == "bid" for m in GAME.legal_moves(s, 0))
    # he gives up the group and chooses the smaller one he can pay
    assert {"type": "uncontest"} in GAME.legal_moves(s, 0) and {"type": "uncontest"} in GAME.link_moves(s, 0)
    s, events = play(s, (0, "uncontest"))
    assert events == [{"type": "contest_withdrawn", "seat": 0, "defender": 1, "squares": ["C4", "D4"]}]
    assert GAME.describe_event(events[0], {0: "Ann", 1: "Bob"}) == "Ann gave up contesting Bob's C4, D4."
    assert GAME.pending(s) == {0: "acquire"} and {"type": "uncontest"} not in GAME.legal_moves(s, 0)
    s, _ = play(s, (0, "contest C4"), (0, "bid 30"), (1, "accept"))
    assert cell(s, "C4") == "r1" and cell(s, "D4") == "y3" and mana(s, 0) == 0


def test_uncontest_keeps_the_attacking_tile_and_needs_a_contested_tile():
    s = position({"C4": "y1", "A4": "r1"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"))
    refused(s, 0, "uncontest", "no tile is contested yet")
    s, _ = play(s, (0, "with A4"), (0, "contest C4"), (0, "uncontest"))
    assert as_json(s)["acquisition"]["attack"] == ["B4", "A4"] and as_json(s)["acquisition"]["defend"] == []
    assert GAME.parse_move("uncontest") == {"type": "uncontest"}
    assert GAME.format_move({"type": "uncontest"}) == "uncontest"


def test_ruling_6_the_attacker_may_sell_while_he_owes_a_bid_and_the_defender_may_not():
    s = position({"C4": "y1"}, hands={0: ["B4", "K1"], 1: ["K4"]}, mana={0: 20, 1: 100})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"))
    assert {"type": "sell", "card": "K4"} not in GAME.legal_moves(s, 1)
    refused(s, 1, "sell K4", "only in your own turn")
    s, _ = play(s, (1, "bid 15"))
    assert {"type": "sell", "card": "K1"} in GAME.legal_moves(s, 0)
    refused(s, 0, "bid 25", "more than you have")
    s, events = play(s, (0, "sell K1"), (0, "bid 25"), (1, "accept"))
    assert [e["type"] for e in events] == ["card_sold", "bid_made", "acquisition_settled"]
    assert cell(s, "C4") == "r1" and mana(s, 0) == 20 + 20 - 25


def test_ruling_8_two_tiles_touching_only_the_new_tile_are_not_one_group():
    s = position({"C4": "y1", "B5": "y1"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"))
    refused(s, 0, "contest B5", "next to one already contested")
    s, _ = play(s, (0, "bid 10"), (1, "accept"))
    assert cell(s, "B5") == "y1"


def test_ruling_9_a_defender_without_the_tiles_may_only_accept():
    tiles = {f"{c}{r}": "y1" for c in "ABCDEFG" for r in (6, 7)}  # 14 yellow 1/2 tiles
    tiles.update({"E4": "y1", "C4": "y1"})  # and two more: 16, none left
    s = position(tiles, hands={0: ["B4"]}, mana={1: 500})
    assert supply(s, 1)["1/2"] == 0
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"))
    assert GAME.pending(s) == {1: "bid"}  # still asked: the answer is his
    assert GAME.legal_moves(s, 1) == [{"type": "accept"}]
    refused(s, 1, "bid 15", "lacks the tiles")


def test_ruling_9_irrigation_needs_a_1_2_tile_but_turning_over_needs_none():
    tiles = {f"{c}{r}": "r1" for c in "ABCDEFG" for r in (1, 2)}
    tiles.update({"A3": "r1", "B3": "r1"})  # all 16 red 1/2 tiles placed
    s = position(tiles, hands={0: ["G7", "K1"]})
    refused(s, 0, "irrigate G7", "no 1/2 tile")
    s, _ = play(s, (0, "cultivate K1 A3 B3"))
    assert cell(s, "A3") == "r2"


def test_a_2_to_3_rise_needs_3_4_tiles_in_supply():
    tiles = {f"{c}{r}": "r3" for c in "ABCD" for r in (1, 2)}  # all 8 red 3/4 tiles
    tiles.update({"A5": "r2", "B5": "r2"})
    s = position(tiles, hands={0: ["K1"]})
    refused(s, 0, "cultivate K1 A5 B5", "needs 2 tiles 3/4")


def test_bidding_alternates_between_two_seats_and_pending_names_only_the_decider():
    s = position({"C4": "y1"}, hands={0: ["B4"]}, players=4)
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"))
    for decider, text in ((1, "bid 15"), (0, "bid 20"), (1, "bid 25")):
        assert GAME.pending(s) == {decider: "bid"}
        with pytest.raises(engine.NotYourTurn):
            GAME.apply(s, 2, {"type": "accept"})
        s, _ = play(s, (decider, text))
    assert GAME.pending(s) == {0: "bid"}


def test_prompts_and_pending_do_not_depend_on_private_facts():
    base = dict(tiles={"C4": "y1"}, hands={0: ["B4"]})
    rich = position(**base, mana={0: 900, 1: 900})
    poor = position(**base, mana={0: 0, 1: 0})
    rich, _ = play(rich, (0, "irrigate B4"), (0, "contest C4"))
    poor, _ = play(poor, (0, "irrigate B4"), (0, "contest C4"))
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    assert GAME.pending(rich) == GAME.pending(poor) == {0: "acquire"}
    assert GAME.prompt(rich, 0, names) == GAME.prompt(poor, 0, names)
    assert GAME.view(rich, 2) == GAME.view(poor, 2) and GAME.view(rich, None) == GAME.view(poor, None)


def test_the_game_is_for_3_or_4_players_and_2_with_allow_two():
    with pytest.raises(engine.EngineError, match="allow_two"):
        GAME.setup(2, 1)
    s = GAME.setup(2, 1, {"allow_two": True})
    assert len(as_json(s)["players"]) == 2
    with pytest.raises(engine.EngineError) as error:
        GAME.setup(5, 1)
    assert error.value.code == "bad_players"
    with pytest.raises(engine.EngineError, match="unknown option"):
        GAME.setup(3, 1, {"board": "big"})


def test_the_printed_data_is_marked_provisional():
    assert GAME.provisional and "provisional" in GAME.description
    assert GAME.view(GAME.setup(3, 1), None)["provisional_data"] is True


def test_the_data_file_describes_17_connected_cards_of_2_to_4_squares_and_24_tiles():
    # Checked on the data, so printed values typed in later are checked the same way.
    from engine.eden.board import DATA, POINTS, RED_DOTS, ROTATIONS, TILES

    cards = DATA["cultivation_cards"]
    assert len(cards) == 17 and len({c["name"] for c in cards}) == 17
    for card in cards:
        cells = {tuple(c) for c in card["cells"]}
        assert 2 <= len(cells) == len(card["cells"]) <= 4
        reached, frontier = set(), [next(iter(cells))]
        while frontier:
            x, y = frontier.pop()
            if (x, y) in reached:
                continue
            reached.add((x, y))
            frontier.extend(n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in cells)
        assert reached == cells, f"{card['name']} is not one connected shape"
    assert sum(TILES) == 24
    assert all(POINTS[k] >= 1 and 0 <= RED_DOTS[k] <= POINTS[k] for k in range(1, 5))
    assert all(POINTS[k] < POINTS[k + 1] for k in range(1, 4))
    assert all(1 <= len(turns) <= 4 for turns in ROTATIONS)


def test_after_two_irrigation_cards_the_prompt_offers_only_selling_buying_and_passing():
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    s = position({}, hands={0: ["B4", "C5", "D6"]})
    assert GAME.prompt(s, 0, names).startswith("Round 3: ")
    s, _ = play(s, (0, "irrigate B4"))
    assert GAME.prompt(s, 0, names).startswith("Play a second irrigation card")
    s, _ = play(s, (0, "irrigate C5"))
    assert GAME.prompt(s, 0, names) == \
        "Sell or buy cultivation cards, or pass to end the turn (no more cards may be played this turn)."
    assert not [m for m in GAME.legal_moves(s, 0) if m["type"] in ("irrigate", "cultivate")]
