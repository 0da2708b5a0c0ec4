"""A reply, an email link or an API move is stale only when its own seat's decision
changed, not when another seat moved: in Civilization's settling all seats choose at
once, each by another way, each at the version of its own email. The 409 guarantee
holds: the same seat's decision is never applied twice or out of date (a Tigris
conflict, answered by reply and by link)."""
from __future__ import annotations

import re
import uuid

import engine
from tests.conftest import put_position, start_game
from tests.engine.tigris_positions import revolt_position
from tests.workers.mail_players import reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail  # noqa: F401


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None, "the page has a form with a CSRF token"
    return found.group(1)


def first_link(message) -> str:
    found = re.search(r"https?://\S+?(/a/[A-Za-z0-9._-]+)", text_of(message))
    assert found is not None, "the mail has a link"
    return found.group(1)


def click(client, path: str):
    """Open an email link (its confirm page) and confirm it, as a person does."""
    page = client.get(path)
    if page.status_code != 200:
        return page
    return client.post(path, data={"csrf_token": csrf_of(page.get_data(as_text=True))})


def fresh(message):
    """The same reply sent again as a new message (a second Message-ID)."""
    message.replace_header("Message-ID", f"<{uuid.uuid4().hex}@client.example>")
    return message


def play_until_everyone_settles(players, game_id: int) -> int:
    """Civilization's draft, played on the API, up to the settling that every seat owes
    at once; returns the version there."""
    rules = engine.get_game("civ-cards")
    for _ in range(200):
        game = players[0].get(f"/api/games/{game_id}").json
        pending = {int(seat): kind for seat, kind in game["pending"].items()}
        if set(pending.values()) == {"settle"} and len(pending) == len(players):
            return game["version"]
        seat = min(pending)
        legal = players[seat].get(f"/api/games/{game_id}/moves/legal").json
        move = rules.parse_move(legal["moves"][0]["text"])
        answer = players[seat].post(f"/api/games/{game_id}/moves", json={"version": legal["version"], "move": move})
        assert answer.status_code == 200, answer.json
    raise AssertionError("the draft did not reach the settling")


def test_civilization_settling_by_link_api_and_reply_each_at_its_own_emails_version(make_player, app, mail):
    players, started = start_game(make_player, 3, game="civ-cards")  # in seat order
    ann, bob, cid = players
    game_id = started["id"]
    version = play_until_everyone_settles(players, game_id)
    mail.deliver_outbox()
    emails = [latest_to(mail, player) for player in players]
    assert all("settle" in str(message["Subject"]).lower() or "settle" in text_of(message) for message in emails)
    client = app.test_client()

    # Ann by her email's link.
    ann_link = first_link(emails[0])
    assert click(client, ann_link).status_code in (200, 303)
    assert game_row(mail, game_id).version == version + 1

    # Bob on the API, at the version he saw before Ann moved.
    legal = bob.get(f"/api/games/{game_id}/moves/legal").json
    bob_move = engine.get_game("civ-cards").parse_move(legal["moves"][0]["text"])
    answer = bob.post(f"/api/games/{game_id}/moves", json={"version": version, "move": bob_move})
    assert answer.status_code == 200, answer.json
    assert game_row(mail, game_id).version == version + 2

    # Cid by replying to his email, written before both moves.
    cid_move = cid.get(f"/api/games/{game_id}/moves/legal").json["moves"][0]["text"]
    cid_reply = reply(emails[2], cid_move, cid.email)
    mail.send(cid_reply, reply_address_of(emails[2]), cid.email)
    answer_text = text_of(latest_to(mail, cid))
    assert answer_text.startswith("Applied:"), answer_text
    settled = game_row(mail, game_id)
    assert settled.version == version + 3 and settled.move_count >= 3

    # Each decision was taken once: the same link, version and reply now change nothing.
    assert click(client, ann_link).status_code == 409
    again = bob.post(f"/api/games/{game_id}/moves", json={"version": version, "move": bob_move})
    assert again.status_code == 409, again.json
    mail.send(fresh(cid_reply), reply_address_of(emails[2]), cid.email)
    assert "Nothing was applied: the game has moved on" in text_of(latest_to(mail, cid))
    assert game_row(mail, game_id).version == settled.version


def test_a_tigris_conflict_answer_is_applied_once_and_an_old_one_is_stale(make_player, app, mail):
    (ann, bob), started = start_game(make_player, 2)
    game_id = started["id"]
    version = put_position(mail.engine, game_id, revolt_position({0: {"red": 3}, 1: {"red": 2}}))
    assert ann.post(f"/api/games/{game_id}/moves", json={"version": version, "text": "leader priest H4"}).status_code \
        == 200
    mail.deliver_outbox()
    attack_mail = latest_to(mail, ann)
    assert "support" in text_of(attack_mail)

    mail.send(reply(attack_mail, "support 1", ann.email), reply_address_of(attack_mail), ann.email)
    assert text_of(latest_to(mail, ann)).startswith("Applied:")
    committed = game_row(mail, game_id).version
    rules = engine.get_game("tigris")
    assert rules.pending(rules.from_json(game_row(mail, game_id).state)) == {1: "support"}

    # Ann's support is given: her email's other answer is stale, the game unchanged.
    mail.send(reply(attack_mail, "support 2", ann.email), reply_address_of(attack_mail), ann.email)
    assert "Nothing was applied: the game has moved on" in text_of(latest_to(mail, ann))
    assert game_row(mail, game_id).version == committed

    # Bob answers by his email's link, once.
    defence_mail = latest_to(mail, bob)
    link = next(path for path in re.findall(r"https?://\S+?(/a/[A-Za-z0-9._-]+)", text_of(defence_mail)))
    client = app.test_client()
    assert click(client, link).status_code in (200, 303)
    assert game_row(mail, game_id).version == committed + 1
    assert click(client, link).status_code == 409
    assert game_row(mail, game_id).version == committed + 1


def test_simultaneous_submits_of_one_seats_decision_at_an_older_version_accept_exactly_one(make_player, mail):
    """Another seat moved first (the game is a version on), then the same seat sends
    its settling many times at once at the version it saw: exactly one is taken, the
    others are stale (they wait for the game's lock, then read the seat as committed)."""
    import threading

    players, started = start_game(make_player, 2, game="civ-cards")
    game_id = started["id"]
    version = play_until_everyone_settles(players, game_id)
    rules = engine.get_game("civ-cards")
    first = rules.parse_move(players[0].get(f"/api/games/{game_id}/moves/legal").json["moves"][0]["text"])
    assert players[0].post(f"/api/games/{game_id}/moves", json={"version": version, "move": first}).status_code == 200
    legal = players[1].get(f"/api/games/{game_id}/moves/legal").json["moves"]
    barrier, answers = threading.Barrier(12), []

    def submit(i):
        client = players[1].client.application.test_client()
        body = {"version": version, "move": rules.parse_move(legal[i % len(legal)]["text"])}
        barrier.wait()
        answers.append(client.post(f"/api/games/{game_id}/moves", json=body, headers=players[1].headers))

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200] + [409] * 11
    assert game_row(mail, game_id).version == version + 2
