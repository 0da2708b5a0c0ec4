"""Every email kind renders both halves; user text is escaped in HTML."""
import pytest

from workers.emails import SUBJECTS, render

EVIL = "<script>alert(1)</script>"
CONTEXTS = {
    "invitation": {"inviter": EVIL, "game_name": "Tigris & Euphrates", "game_title": EVIL,
                   "players": ["ann@x.org", EVIL], "time_control": "3 days per decision",
                   "invitation_url": "https://t.test/i/abc"},
    "sign_in": {"sign_in_url": "https://t.test/s/abc", "valid_minutes": 30},
    "your_turn": {
        "game_title": EVIL, "prompt": "Take your first action of round 3.", "deadline": "Tue 25 Nov 18:00 UTC",
        "changes": ["Bob placed a red temple on F7.", EVIL],
        "summary_lines": ["You play the archer (seat 0).", "Your hand: 2 red, 1 blue", "Your points: 3 red"],
        "actions": [{"label": "commit 0", "url": "https://t.test/a/tok0"}], "game_url": "https://t.test/g/4",
        "rules_url": "https://t.test/rules/tigris?game=4",
        "reply_example": "tile red F7", "board_cid": "board", "board_alt": "The board: red temple on F7",
        "preferences_url": "https://t.test/p/tok", "unsubscribe_url": "https://t.test/u/tok",
        "move_kinds": [{"form": "tile COLOR SQUARE", "examples": ["tile red F7", "tile blue A3"], "count": 2}],
        "waiting_for": [], "board_text": "    A  B\n 1  r* K0\n 2  .  ~",
    },
    "reminder": {"game_title": "Tigris #4", "deadline": "tomorrow 18:00 UTC", "time_left": "24 hours",
                 "prompt": "Commit supporters.", "game_url": "https://t.test/g/4",
                 "rules_url": "https://t.test/rules/tigris?game=4"},
    "deadline_passed": {"game_title": "Tigris #4", "player": EVIL,
                        "what_happened": "The service committed no supporters for Bob.",
                        "game_url": "https://t.test/g/4"},
    "game_over": {"game_title": "Tigris #4", "reason": "Only two treasures are left.",
                  "ranking": [{"place": 1, "players": [EVIL], "detail": "11 11 12 13"}], "seed": "123",
                  "seed_hash": "ab12", "export_url": "https://t.test/e/4"},
    "reply_answer": {
        "game_title": EVIL, "lines": ["Applied: place a red temple on F7.", EVIL], "forms": ["tile COLOR SQUARE"],
        "confirm_resign": False, "show_decision": True, "prompt": "Take your second action of round 3.", "deadline": "",
        "changes": [], "summary_lines": ["Your hand: 2 red"], "actions": [], "move_kinds": [], "waiting_for": [EVIL],
        "board_cid": None, "board_alt": "", "game_url": "https://t.test/g/4", "board_text": "",
        "rules_url": "https://t.test/rules/tigris?game=4",
    },
    "digest": {"games": [{"title": EVIL, "waiting": True, "deadline": "Fri", "changes": ["Ann moved."],
                          "url": "https://t.test/g/4", "talk": [{"name": "Ann", "text": EVIL}]}]},
    "table_talk": {"game_title": "Tigris #4", "name": EVIL, "text": EVIL + "\nsecond line",
                   "game_url": "https://t.test/g/4"},
}


@pytest.mark.parametrize("kind", sorted(SUBJECTS))
def test_each_kind_renders_text_and_html_with_user_text_escaped(kind):
    subject, text, html = render(kind, CONTEXTS[kind])
    assert subject and "\n" not in subject
    assert EVIL not in html  # escaped in HTML
    if EVIL in str(CONTEXTS[kind]):
        assert "&lt;script&gt;" in html
    for value in CONTEXTS[kind].values():
        if isinstance(value, str) and value.startswith("https://"):
            assert value in text and value in html


def test_your_turn_lists_actions_changes_and_the_inline_board():
    _, text, html = render("your_turn", CONTEXTS["your_turn"])
    assert "commit 0: https://t.test/a/tok0" in text
    assert "Bob placed a red temple on F7." in text
    assert 'src="cid:board"' in html and 'alt="The board: red temple on F7"' in html
    assert "Stop these emails: https://t.test/u/tok" in text
    assert "- tile COLOR SQUARE   (e.g. tile red F7, tile blue A3)" in text and "<code>tile COLOR SQUARE</code>" in html
    assert "\n    A  B\n 1  r* K0\n 2  .  ~\n" in text and " 1  r* K0" not in html  # the grid is for text readers
    assert "You play the archer (seat 0).\nYour hand: 2 red, 1 blue" in text \
        and "<p>You play the archer (seat 0).</p>" in html


def test_a_missing_value_is_an_error_not_a_blank():
    with pytest.raises(Exception, match="sign_in_url"):
        render("sign_in", {"valid_minutes": 30})
    with pytest.raises(ValueError, match="kinds:"):
        render("postcard", {})


def test_a_decision_email_shows_the_table_talk_since_the_last_decision():
    context = {**CONTEXTS["your_turn"], "table_talk": [{"name": "Bob", "text": "good luck\n" + EVIL}]}
    _, text, html = render("your_turn", context)
    assert "Said at the table since your last decision:\n- Bob: good luck\n  " + EVIL in text
    assert "&lt;script&gt;" in html and "Said at the table since your last decision" in html
    _, text, _ = render("your_turn", CONTEXTS["your_turn"])
    assert "Said at the table" not in text
