"""The game page's table talk, notes and replay in a real browser: a message appears
on the other player's open page by itself, as text; typing a message never holds back
a board update; notes stay with their seat; the replay steps through the game with
its log entry highlighted."""
from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.test_browser import two_players_in_a_game

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"


def poll_ms(script: str) -> int:
    """A page script's polling interval, as the script itself sets it."""
    found = re.search(r"POLL_MS = (\d+)", (STATIC / script).read_text())
    assert found is not None, f"{script} sets POLL_MS"
    return int(found.group(1))


# A message or a board update shows within three polls of the scripts that fetch them.
TALK_WAIT_MS = 3 * poll_ms("table_talk.js")
BOARD_WAIT_MS = 3 * poll_ms("live.js")


def test_table_talk_appears_live_as_text_and_never_holds_back_the_board(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    ann.goto(game_url)
    bob.goto(game_url)
    ann.fill("#say-form textarea", "<i>good luck</i> & have fun")
    ann.click("#say-form button:has-text('Say')")
    bob.wait_for_selector("#table-talk li:has-text('good luck')", timeout=TALK_WAIT_MS)
    said = bob.locator("#table-talk ol.messages li").last
    assert "<i>good luck</i> & have fun" in said.inner_text() and said.locator("i").count() == 0
    assert ann.input_value("#say-form textarea") == ""  # sent without leaving the page
    ann.wait_for_selector("#table-talk li:has-text('good luck')", timeout=TALK_WAIT_MS)
    screenshot(bob, "message-arrived")
    say, mute = (bob.locator(f"#table-talk button:has-text('{words}')").bounding_box() for words in ("Say", "Mute"))
    assert say["x"] == mute["x"] and mute["y"] > say["y"] + say["height"]  # one below the other, in line

    # The player to move moves while the other types a message: the board updates, the text stays.
    mover, typist = (ann, bob) if ann.locator("#legal-moves").count() else (bob, ann)
    typist.fill("#say-form textarea", "half a thought")
    shown = typist.get_attribute("#live", "data-version")
    move = mover.evaluate("JSON.parse(document.getElementById('legal-moves').textContent)"
                          ".find(m => m.move.type === 'place_tile').text")
    mover.fill("#move-form input[name=text]", move)
    mover.click("#move-form button:has-text('Send')")
    mover.wait_for_selector("text=Move made.")
    typist.wait_for_selector(f"#live:not([data-version='{shown}'])", timeout=BOARD_WAIT_MS)
    assert typist.locator(f"#live svg [data-square={move.split()[-1]}][data-tile]").count() == 1
    assert typist.input_value("#say-form textarea") == "half a thought"
    assert typist.locator("#show-update").count() == 0

    # The replay: first, next and last, the entry of each step highlighted; its buttons
    # look as every other button of the page does.
    look = "el => ['fontSize', 'backgroundColor', 'borderTopColor', 'paddingLeft'].map(k => getComputedStyle(el)[k])"
    assert typist.eval_on_selector("#replay button[data-go=first]", look) == typist.eval_on_selector(
        "#say-form button", look)
    typist.click("#replay button[data-go=first]")
    typist.wait_for_selector("#replay .replay-step[data-step='0']")
    assert typist.get_attribute("#replay li.current", "data-step") == "0"
    typist.click("#replay button[data-go=next]")
    typist.wait_for_selector("#replay .replay-step[data-step='1']")
    current = typist.locator("#replay li.current")
    assert current.get_attribute("data-step") == "1" and current.get_attribute("aria-current") == "step"
    assert typist.locator("#replay .replay-board svg").count() == 1
    typist.click("#replay button[data-go=previous]")
    typist.wait_for_selector("#replay .replay-step[data-step='0']")
    typist.click("#replay button[data-go=last]")
    typist.wait_for_selector("#replay .replay-step[data-step='1']")
    screenshot(typist, "replay")

    # Notes are kept for their seat alone.
    ann.fill("#notes textarea", "watch Bob's blue")
    ann.click("#notes button:has-text('Save notes')")
    ann.wait_for_selector("text=Your notes are saved.")
    assert ann.input_value("#notes textarea") == "watch Bob's blue"
    bob.goto(game_url)
    assert bob.input_value("#notes textarea") == ""
    ann_ctx.close()
    bob_ctx.close()
