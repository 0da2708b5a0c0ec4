"""What a card-game player reads about his decision: the prompt says what he may do
now and why he is asked, the links and buttons name what they act on, a draw is one
line for each reader, the email's own lines hold the hand's cards and the table."""
from __future__ import annotations

import engine
from engine.core import events_for
from tests.engine.euphrat_cards_positions import position
from tests.engine.test_euphrat_cards_rules import dead_table, play

GAME = engine.get_game("euphrat-cards")
NAMES = {0: "ann", 1: "bob", 2: "cy"}


def choices(state, seat):
    return [GAME.choice_label(state, seat, move) for move in GAME.legal_moves(state, seat)
            if move["type"] != "set_answer"]


def test_a_score_offer_says_why_and_when_the_hand_cannot_take_it():
    s = position(columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}},
                 hands={0: {"red": 2, "blue": 1}})
    s, _ = play(s, (0, "play red A"))
    prompt = GAME.prompt(s, 0, NAMES)
    assert prompt.startswith("A red card was played in your kingdom: you may move a red card from your hand")
    assert "You hold no" not in prompt and "whatever you hold" in prompt
    assert choices(s, 0) == ["score a red card from your hand", "decline to score a red card"]
    empty = position(columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}},
                     hands={0: {"red": 1, "blue": 1}})
    empty, _ = play(empty, (0, "play red A"))
    assert "You hold no red card, so decline." in GAME.prompt(empty, 0, NAMES)


def test_support_choices_name_the_cards_and_the_conflict():
    s = position(columns=["tbg", "t", "t", "t", "t", "t", "t", "t"], leaders={1: {"priest": "A1"}},
                 hands={0: {"red": 2, "green": 1}, 1: {"red": 1}}, players=2)
    s, _ = play(s, (0, "leader priest A2"))
    assert GAME.prompt(s, 0, NAMES).startswith("You attack in the internal red conflict (the priests) against bob.")
    assert choices(s, 0) == ["commit no card to the red conflict", "commit 1 red card to the red conflict",
                             "commit 2 red cards to the red conflict"]


def test_ship_treasure_and_conflict_order_prompts_name_their_places():
    s = position(columns=["t", "t", "t", "tbbb", "tG", "t", "t", "t"], hands={0: {"blue": 1}}, players=2)
    s, _ = play(s, (0, "play blue D"))
    assert GAME.prompt(s, 0, NAMES).startswith(
        "Four blue cards lie at the bottom of column D: you may build the blue-red ship or the blue-black ship")
    assert "build the blue-black ship on column D" in choices(s, 0)
    assert "decline to build a ship on column D" in choices(s, 0)
    t = position(columns=["tkkk", "tbbb", "t", "t", "t", "t", "t", "t"], leaders={1: {"trader": "A1"}},
                 hands={0: {"black": 1}, 1: {"blue": 1}})
    t, _ = play(t, (0, "play black AB"))
    assert GAME.prompt(t, 1, NAMES).startswith("Your trader's kingdom now holds treasures in columns A, B")
    assert "You hold no red card, so decline." in GAME.prompt(t, 1, NAMES)


def test_the_action_prompt_counts_the_actions_and_offers_the_vote_on_a_full_table():
    s = position(hands={0: {"red": 2}}, actions_left=1, catastrophes={0: False, 1: True, 2: True})
    prompt = GAME.prompt(s, 0, NAMES)
    assert prompt.startswith("Your turn, 1 action left:") and "catastrophe" not in prompt
    full = dead_table()
    assert "you may propose to end the game" in GAME.prompt(full, 0, NAMES)
    full, _ = play(full, (0, "propose end"))
    assert GAME.prompt(full, 1, NAMES).startswith("ann proposes to end the game as it stands")


def test_help_names_the_vote_only_where_the_moves_open_now_do():
    forms = GAME.forms_for({})
    assert "play COLOR COLUMN|GAP" in forms and not {"propose end", "agree end", "refuse end"} & set(forms)
    assert "agree end" in GAME.move_forms  # still read in a reply


def test_a_draw_is_one_line_for_each_reader():
    s = position(hands={0: {"red": 3}}, active=0, actions_left=1, players=2, deck="rbgk" * 5)
    s, events = play(s, (0, "pass"))
    for seat, expected in ((0, "ann drew 2 red cards, 1 blue card, 1 green card, 1 black card."),
                           (1, "ann drew 5 cards.")):
        lines = [line for e in events_for(events, seat) if e.get("seat") == 0
                 if (line := GAME.describe_event(e, NAMES)) and " drew " in line]
        assert lines == [expected], (seat, lines)


def test_a_standing_answer_is_told_in_words():
    line = GAME.describe_event({"type": "answer_set", "seat": 0, "offer": "score", "answer": "decline"}, NAMES)
    assert line == "ann will decline without being asked every score offer from now on."


def test_the_email_lines_hold_the_hand_with_what_its_cards_do_and_the_table():
    s = position(columns=["tkrg", "tbkr", "t", "t", "t", "t", "t", "t"], gaps="k......",
                 leaders={0: {"king": "A2"}, 1: {"priest": "B1"}}, hands={0: {"red": 2, "green": 1}})
    lines = GAME.summary_lines(GAME.view(s, 0), 0)
    assert lines[0] == ("You play the bow (seat 0). Your leaders: king on A2; priest, farmer, trader in supply. "
                        "Your catastrophe: in hand.")
    assert lines[1] == "Your hand: 2 red, 1 green."
    assert [line.split(":")[0] for line in lines[2:4]] == ["- red temple", "- green market"]
    assert "A: treasure, black, red (your king), green" in lines
    assert "B: treasure, blue (the bull priest), black, red" in lines
    assert "Gaps: AB black." in lines and GAME.board_text(GAME.view(s, 0)) == ""
