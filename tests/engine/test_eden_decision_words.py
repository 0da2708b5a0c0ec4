"""What Eden tells the player owing a decision, beside it: what accepting or raising a
bid means, the bids open (one range, not a move per amount), and why a card of the hand
has no play now; and that only the seat owing the decision is told its own facts."""
from tests.engine.eden_positions import GAME, NAMES, play, position


def bidding_position(mana_of_bob: int = 100):
    s = position({"C4": "y2", "A1": "r1", "B3": "r1"}, hands={0: ["B4"], 1: ["G7"]}, mana={0: 100, 1: mana_of_bob},
                 players=2)
    return play(s, (0, "irrigate B4"), (0, "with B3"), (0, "contest C4"), (0, "bid 10"))[0]


def test_accepting_says_who_pays_whom_how_much_and_which_tiles_change_hands():
    s = bidding_position()
    words = GAME.prompt(s, 1, NAMES)
    # Ann pays per point of Bob's C4 (level 2: 2 points); Bob would pay per point of B4 and B3 (1 + 1).
    assert words.startswith("Ann bids 10 mana per point for your C4. Accept: Ann pays you 10 x 2 = 20 mana")
    assert "takes C4. Or raise to 15 or more: if Ann then accepts, you pay your bid x 2 and take B4, B3." in words


def test_the_bids_open_are_one_range_in_the_seats_own_view_and_one_line_in_its_email():
    s = bidding_position(mana_of_bob=97)
    assert GAME.view(s, 1)["bidding"] == {"lowest": 15, "highest": 45, "step": 5, "points": 2}  # 97 // 2 = 48
    assert "bidding" not in GAME.view(s, 0) and "bidding" not in GAME.view(s, None)
    assert GAME.link_moves(s, 1) == [{"type": "accept"}]
    assert 'Bid N: reply "bid N", N from 15 to 45 in steps of 5; if the other side accepts you pay N x 2 mana' \
        in GAME.summary_lines(GAME.view(s, 1), 1)[-1]


def test_a_seat_that_cannot_pay_the_lowest_bid_is_told_it_may_only_accept():
    s = bidding_position(mana_of_bob=20)
    view = GAME.view(s, 1)
    assert view["bidding"]["highest"] < view["bidding"]["lowest"]
    assert GAME.summary_lines(view, 1)[-1].startswith("You cannot bid now (the lowest bid, 15 x 2 = 30 mana")


def test_why_a_card_has_no_play_is_told_to_its_holder_only():
    s = position({"A1": "r1", "B1": "r1", "C3": "y1"}, hands={0: ["A1", "C3", "K9", "D4", "K1"], 1: ["G7"]})
    unplayable = GAME.view(s, 0)["players"][0]["unplayable"]
    assert unplayable == {
        "A1": "A1 already holds a tile; its irrigation card stays in your hand",
        "C3": "C3 already holds a tile; its irrigation card stays in your hand",
        "K9": "your tiles nowhere form its shape (4 squares)",
    }
    assert "unplayable" not in GAME.view(s, 1)["players"][0] and "unplayable" not in GAME.view(s, 1)["players"][1]
    lines = GAME.summary_lines(GAME.view(s, 0), 0)
    assert "No play now for cultivation card 9 (L tetromino): your tiles nowhere form its shape (4 squares)." in lines
    after, _ = GAME.apply(s, 0, GAME.parse_move("irrigate D4"))
    assert GAME.view(after, 0)["players"][0]["unplayable"]["K1"].startswith("a card was played this turn already")
