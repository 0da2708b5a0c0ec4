"""Playing by email: replies sent with smtplib to the service's inbound SMTP server
become moves, and every reply gets an answer in its thread (caught by a real SMTP
server). PostgreSQL as in production; the replies are processed in this process."""
from __future__ import annotations

import hashlib
import hmac
import random
import re
import smtplib
import uuid
from urllib.parse import quote

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError
from sqlmodel import select

import engine
from service.db import transaction
from service.inbound_store import claim_lost, store
from service.models import Game, InboundMail, Notification, User
from service.reply_address import ReplyToken, read_reply_address, reply_address
from tests.conftest import put_position, start_game
from tests.engine.euphrat_cards_positions import purposeful_choice
from tests.engine.tigris_positions import revolt_position
from tests.workers.conftest import free_port
from tests.workers.mail_players import (
    MailService,
    client_reply,
    corpus_reply,
    inbound_signature,
    latest_mail_to,
    mails_to,
    parse,
    reply,
    reply_address_of,
    text_of,
)
from workers import inbound
from workers.inbound import _moves_and_prose
from workers.reply_reading import MAX_COMMANDS, body_text, commands, message_kind, newest_reply

# Replies to a real turn email, quoting it as each mail client does (client_reply).
CLIENT_REPLIES = ["gmail_wrapped_attribution", "gmail_italian", "outlook_desktop_italian", "outlook_web_html_only",
                  "apple_mail_html_only", "yahoo_german_bullets", "thunderbird_flowed_one_line",
                  "pasted_characters_base64", "gmail_spanish_wrapped", "gmail_french_wrapped"]
CORPUS = ["gmail_top_posted", "outlook_html_only", "apple_mail_iphone", "thunderbird_bottom_posted",
          "android_base64", "iso_8859_1_greeting", "outlook_ios_plain"]


@pytest.fixture
def mail(app, smtp_server):
    service = MailService(app, smtp_server, free_port())
    service.app = app
    yield service
    service.stop()


def mail_app(mail):
    return mail.app


def two_player_game(make_player, mail, game="tigris"):
    """A started two-player game: ((the seat to act, the other), game id)."""
    players, state = start_game(make_player, 2, game=game)
    mail.deliver_outbox()
    rules = engine.get_game(game)
    first = min(rules.pending(rules.from_json(game_row(mail, state["id"]).state)))
    return (players[first], players[1 - first]), state["id"]


def game_row(mail, game_id) -> Game:
    with transaction(mail.engine) as db:
        game = db.get(Game, game_id)
    assert game is not None
    return game


def latest_to(mail, player):
    return latest_mail_to(mail.sink, player.email)


def legal_texts(mail, game_id, seat):
    game = game_row(mail, game_id)
    rules = engine.get_game(game.game_type)
    state = rules.from_json(game.state)
    return [rules.format_move(m) for m in rules.legal_moves(state, seat)], rules, state


def two_actions(mail, game_id):
    """Two legal actions in a row for the seat to act (the second legal after the first)."""
    game = game_row(mail, game_id)
    seat = min(engine.get_game(game.game_type).pending(engine.get_game(game.game_type).from_json(game.state)))
    texts, rules, state = legal_texts(mail, game_id, seat)
    first = next(t for t in texts if t.startswith("tile"))
    after, _ = rules.apply(state, seat, rules.parse_move(first))
    second = next(rules.format_move(m) for m in rules.legal_moves(after, seat) if m["type"] == "place_tile")
    return first, second


# --- the address -------------------------------------------------------------------

def test_reply_addresses_are_signed_short_and_survive_case_folding():
    token = ReplyToken(2**31 - 1, 3, 2**31 - 1, 123456, "confirm_resign")
    address = reply_address("secret", "turnpost.example", token)
    local = address.split("@")[0]
    assert len(local) <= 64
    assert read_reply_address("secret", "turnpost.example", address.upper()) == token
    assert read_reply_address("other-secret", "turnpost.example", address) is None
    assert read_reply_address("secret", "elsewhere.example", address) is None
    forged = address.replace(local.split(".")[0], local.split(".")[0][:-1] + "9")
    assert read_reply_address("secret", "turnpost.example", forged) is None


# --- reading what a person wrote -----------------------------------------------------

@pytest.mark.parametrize("name", CORPUS)
def test_replies_of_the_common_mail_clients_yield_their_moves(name, app):
    original = parse(b"Reply-To: play+x@turnpost.localhost\r\nMessage-ID: <m1@turnpost>\r\n"
                     b"Subject: Test game: your decision\r\nContent-Type: text/plain\r\n\r\nYour decision\r\n")
    raw = corpus_reply(name, original, "bob@example.org", ("tile red F7", "leader king G6"))
    lines = commands(newest_reply(body_text(parse(raw))))
    moves, prose = _moves_and_prose(lines, engine.get_game("tigris"))
    assert moves == ["tile red F7", "leader king G6"], lines
    assert prose is not None


@pytest.mark.parametrize("name", CLIENT_REPLIES)
def test_replies_quoting_a_real_turn_email_play_exactly_their_moves(name, make_player, mail):
    """The quoted turn email holds example moves ("e.g. tile red A1") and, below the
    Outlook and Yahoo replies, stands without `>`: only the two moves written count."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, second = two_actions(mail, game_id)
    mail.send(client_reply(name, turn_mail, ann.email, (first, second)), reply_address_of(turn_mail), ann.email)
    body = text_of(latest_to(mail, ann))
    assert game_row(mail, game_id).version == version + 2, body
    assert body.count("Applied:") == 2, body
    passed_over = next((line for line in body.splitlines() if line.startswith("Not read as moves:")), "")
    assert not re.search(r"turnpost|Deadline|e\.g\.|\* \*|wrote|scritto|escribi|crit :", passed_over), passed_over


def test_bullets_numbers_quotes_and_end_punctuation_around_moves_are_dropped():
    text = '1. tile red F7\n- leader king G6.\n"support 2"\n`war black`;  no monument!\n\u2022 treasure B2'
    assert commands(text) == ["tile red F7", "leader king G6", "support 2", "war black", "no monument", "treasure B2"]


def test_prose_between_moves_is_not_guessed_at():
    game = engine.get_game("tigris")
    assert _moves_and_prose(["Hi!", "tile red F7", "Thanks"], game) == (["tile red F7"], ["Hi!", "Thanks"])
    assert _moves_and_prose(["tile red F7", "and then", "leader king G6"], game)[1] is None


# --- the whole loop, by SMTP ----------------------------------------------------------

def test_a_reply_with_two_actions_plays_the_turn_and_is_answered_in_its_thread(make_player, mail):
    (ann, bob), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    assert "Moves open now" in text_of(turn_mail) and "tile COLOR SQUARE" in text_of(turn_mail)
    version = game_row(mail, game_id).version
    first, second = two_actions(mail, game_id)
    before_bob = len(mails_to(mail.sink, bob.email))
    sent = reply(turn_mail, f"{first}\n{second}", ann.email)
    mail.send(sent, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 2
    answer = latest_to(mail, ann)
    assert answer["In-Reply-To"] == sent["Message-ID"]
    assert turn_mail["Message-ID"] in answer["References"] and sent["Message-ID"] in answer["References"]
    assert answer["Subject"].startswith("Re: ")
    body = text_of(answer)
    assert body.count("Applied:") == 2 and "The game now waits for" in body
    assert len(mails_to(mail.sink, bob.email)) == before_bob + 1  # Bob owes the next turn
    assert "your decision" in mails_to(mail.sink, bob.email)[-1]["Subject"]


def test_a_games_emails_form_one_thread_with_ids_of_our_domain(make_player, mail):
    """Every email of a game refers to the game's thread root; an answer to a reply also
    answers that reply; Message-IDs are of MAIL_DOMAIN and dates say +0000."""
    (ann, bob), game_id = two_player_game(make_player, mail)
    domain = mail.settings.mail_domain
    root = f"<game-{game_id}@{domain}>"
    game_mails = list(mail.sink.messages)  # all of this game: invitations, turn emails
    assert any("your decision" in m["Subject"] for m in game_mails)
    for message in mail.sink.messages:
        assert str(message["Message-ID"]).endswith(f"@{domain}>") and str(message["Date"]).endswith(" +0000")
    assert all(str(m["References"]).split()[0] == root and m["In-Reply-To"] is None for m in game_mails)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    sent = reply(turn_mail, first, ann.email)
    del sent["References"]
    sent["References"] = f"{turn_mail['References']} {turn_mail['Message-ID']}"  # as a mail program writes it
    mail.send(sent, reply_address_of(turn_mail), ann.email)
    answer = latest_to(mail, ann)
    assert answer["In-Reply-To"] == sent["Message-ID"]
    assert str(answer["References"]).split() == [root, turn_mail["Message-ID"], sent["Message-ID"]]
    # A reply that kept only the answered email's id is still put in the game's thread.
    bare = reply(answer, "board", ann.email)
    mail.send(bare, reply_address_of(answer), ann.email)
    assert str(latest_to(mail, ann)["References"]).split() == [root, answer["Message-ID"], bare["Message-ID"]]
    assert all(str(m["References"]).split()[0] == root for m in mail.sink.messages)  # all of them, answers too


def test_thread_headers_for_every_kind_of_email():
    from workers.compose import game_thread_id, message_id, thread_headers

    root = game_thread_id(7, "play.example.org")
    assert root == "<game-7@play.example.org>"
    assert thread_headers(7, "play.example.org", {}) == {"References": root}  # a reminder, a game over...
    assert thread_headers(None, "play.example.org", {}) == {}  # a sign-in link, a digest: no game
    answer = thread_headers(7, "play.example.org", {"in_reply_to": "<r@x>", "references": f"{root} <t@y>"})
    assert answer == {"References": f"{root} <t@y> <r@x>", "In-Reply-To": "<r@x>"}
    assert message_id("<abc123@turnpost>", "play.example.org") == "<abc123@play.example.org>"


def test_one_action_by_reply_is_answered_with_the_second_decision(make_player, mail):
    (ann, bob), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, second = two_actions(mail, game_id)
    mail.send(reply(turn_mail, first, ann.email), reply_address_of(turn_mail), ann.email)
    answer = latest_to(mail, ann)
    assert "second action" in text_of(answer) and any(p.get_content_type() == "image/png" for p in answer.walk())
    # The answer's own reply address takes the next move, at the new version.
    mail.send(reply(answer, second, ann.email), reply_address_of(answer), ann.email)
    assert "Applied:" in text_of(latest_to(mail, ann))
    rules = engine.get_game("tigris")
    assert list(rules.pending(rules.from_json(game_row(mail, game_id).state)).values()) == ["action"]
    assert "your decision" in latest_to(mail, bob)["Subject"]


def test_a_stale_reply_changes_nothing_and_shows_the_game_now(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, second = two_actions(mail, game_id)
    mail.send(reply(turn_mail, first, ann.email), reply_address_of(turn_mail), ann.email)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, second, ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version
    body = text_of(latest_to(mail, ann))
    assert "Nothing was applied: the game has moved on" in body and "second action" in body


@pytest.mark.parametrize("after_reading", ["inbound_mail", "game"])
def test_a_change_to_the_game_while_a_reply_is_processed_never_drops_the_reply(after_reading, make_player, mail):
    """Another transaction moves the game on (as a web move or a deadline would) right
    after the reply's processing reads its stored message, or the game: it either
    waits for the reply's commit (the game is locked from the reply's first look at
    it) or came first, and the reply gets the answer that the game moved on."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    inbound_id = store(mail.engine, reply(turn_mail, first, ann.email).as_bytes(), reply_address_of(turn_mail),
                       ann.email)
    other = []  # what the other transaction did

    def move_the_game_on_elsewhere(connection, cursor, statement, *_):
        if other or not re.search(rf"\bFROM {after_reading}\b", statement):
            return
        other.append("started")
        with mail.engine.connect() as elsewhere:
            try:
                elsewhere.execute(text("SELECT id FROM game WHERE id = :id FOR UPDATE NOWAIT"), {"id": game_id})
            except OperationalError:
                other[:] = ["waited"]  # the reply's transaction holds the game
                return
            elsewhere.execute(text("UPDATE game SET version = version + 1 WHERE id = :id"), {"id": game_id})
            # A move that changed the replying seat's decision (as an action of its own on the web would).
            elsewhere.execute(text("UPDATE seat SET decision_version = (SELECT version FROM game WHERE id = :id) "
                                   "WHERE game_id = :id AND decision_version IS NOT NULL"), {"id": game_id})
            elsewhere.commit()
            other[:] = ["committed"]

    event.listen(mail.engine, "after_cursor_execute", move_the_game_on_elsewhere)
    try:
        work = inbound.process(mail.engine, mail.settings, inbound_id)
    finally:
        event.remove(mail.engine, "after_cursor_execute", move_the_game_on_elsewhere)
    mail.deliver(work.ids[0])
    outcome = mail.inbound_rows(reply_address_of(turn_mail))[0].outcome
    body = text_of(latest_to(mail, ann))
    if after_reading == "inbound_mail":
        assert other == ["committed"] and outcome == "stale", (other, outcome)
    else:
        assert (other, outcome) in ((["waited"], "applied"), (["committed"], "stale")), (other, outcome)
    assert latest_to(mail, ann)["In-Reply-To"] is not None
    assert ("Applied:" in body) if outcome == "applied" else ("Nothing was applied: the game has moved on" in body)


def test_an_illegal_move_applies_nothing_and_says_why_with_legal_examples(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    state_before = game_row(mail, game_id).state
    # The first move is legal, the second is not (a tile on a river square is allowed only for blue).
    mail.send(reply(turn_mail, f"{first}\ntile red A1", ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).state == state_before, "a half-applied reply"
    body = text_of(latest_to(mail, ann))
    assert 'Nothing was applied: "tile red A1" is not allowed' in body
    assert "Moves open now" in body and "(e.g. tile " in body
    # The answer is about the game as it stands: its own reply address takes the moves.
    answer = latest_to(mail, ann)
    mail.send(reply(answer, first, ann.email), reply_address_of(answer), ann.email)
    assert "Applied:" in text_of(latest_to(mail, ann)), text_of(latest_to(mail, ann))


def test_a_huge_reply_is_read_up_to_its_first_64_kb(make_player, mail):
    """A 900 KB line after the first move: the second move, past the part read, is not
    read (reading the whole reply would cost seconds of CPU), and the answer quotes
    only the start of the line it passed over."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, second = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    long_line = "x" * 900_000
    mail.send(reply(turn_mail, f"{first}\n{long_line}\n{second}", ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1
    body = text_of(latest_to(mail, ann))
    assert body.count("Applied:") == 1 and "second action" in body
    assert f'Not read as moves: "{"x" * 79}\u2026".' in body and len(body) < 20_000


def test_an_unreadable_reply_gets_the_grammar(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, "tile purple", ann.email), reply_address_of(turn_mail), ann.email)
    body = text_of(latest_to(mail, ann))
    assert "could not be read" in body and "How to write moves" in body and "- swap COLOR [COLOR ...]" in body
    assert game_row(mail, game_id).version == version


def test_a_greeting_and_a_sign_off_are_passed_over_and_named(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, f"Hi Bob,\n\n{first}\n\nCheers", ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1
    assert 'Not read as moves: "Hi Bob", "Cheers".' in text_of(latest_to(mail, ann))


def test_a_reply_is_refused_for_now_while_the_database_is_away(app):
    """451: the sending server keeps the message and tries again later."""
    from service.db import make_engine
    from workers.inbound_smtp import start_inbound_smtp

    settings = app.extensions["turnpost"]["settings"]
    port = free_port()
    server = start_inbound_smtp(settings, make_engine("postgresql://postgres@127.0.0.1:1/none"), lambda _: None,
                                "127.0.0.1", port)
    try:
        with pytest.raises(smtplib.SMTPDataError) as refused, smtplib.SMTP("127.0.0.1", port) as client:
            signed = reply_address(settings.secret_key, settings.mail_domain, ReplyToken(1, 0, 1, 1))
            client.sendmail("ann@example.org", [signed], b"Subject: hi\r\n\r\ntile red F7\r\n")
        assert refused.value.smtp_code == 451
    finally:
        server.stop()


def test_help_board_and_a_two_step_resignation(make_player, mail):
    (ann, bob), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    mail.send(reply(turn_mail, "help", ann.email), reply_address_of(turn_mail), ann.email)
    assert "How to write moves" in text_of(latest_to(mail, ann)) and "(e.g. tile " in text_of(latest_to(mail, ann))
    mail.send(reply(turn_mail, "board", ann.email), reply_address_of(turn_mail), ann.email)
    board = latest_to(mail, ann)
    assert "first action" in text_of(board) and any(p.get_content_type() == "image/png" for p in board.walk())
    mail.send(reply(turn_mail, "resign", ann.email), reply_address_of(turn_mail), ann.email)
    asked = latest_to(mail, ann)
    assert "To resign, reply to this email with the word: resign" in text_of(asked)
    assert game_row(mail, game_id).status == "active"
    mail.send(reply(asked, "resign", ann.email), reply_address_of(asked), ann.email)
    assert game_row(mail, game_id).status == "finished"
    answers = [m for m in mails_to(mail.sink, ann.email) if m["Subject"].startswith("Re:")]
    assert "You have resigned" in text_of(answers[-1])
    assert any("game over" in m["Subject"] for m in mails_to(mail.sink, bob.email))


def test_a_forged_sender_is_refused_and_only_the_seat_is_told(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    mail.send(reply(turn_mail, first, "mallory@example.net"), reply_address_of(turn_mail), "mallory@example.net")
    assert game_row(mail, game_id).version == version
    assert not mails_to(mail.sink, "mallory@example.net")
    assert "was refused" in text_of(latest_to(mail, ann))
    # The From address is compared without regard to case.
    mail.send(reply(turn_mail, first, ann.email.upper()), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1


@pytest.fixture
def front_mta(mail):
    """The mail server in front signs its Authentication-Results as mx.turnpost.localhost."""
    trusted, mail.settings.authserv_ids = mail.settings.authserv_ids, ("mx.turnpost.localhost",)
    yield "mx.turnpost.localhost"
    mail.settings.authserv_ids = trusted


def test_a_failed_dkim_check_of_the_senders_domain_is_refused(make_player, mail, front_mta):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    forged = reply(turn_mail, first, ann.email, Authentication_Results=f"{front_mta}; dkim=fail header.d=example.org")
    mail.send(forged, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version
    assert "DKIM" in text_of(latest_to(mail, ann))


def test_a_failed_dmarc_check_is_refused(make_player, mail, front_mta):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    forged = reply(turn_mail, first, ann.email,
                   Authentication_Results=f"{front_mta}; dmarc=fail header.from=example.org")
    mail.send(forged, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version
    assert "failed the DMARC check" in text_of(latest_to(mail, ann))
    assert [row.outcome for row in mail.inbound_rows(reply_address_of(turn_mail))] == ["refused"]


def test_results_the_sender_wrote_himself_or_of_another_domain_refuse_nothing(make_player, mail, front_mta):
    """A failure under another authserv-id (anyone can write that header) and a broken
    signature of a third party beside a valid one of the sender's domain are no reason
    to refuse; the move is applied."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    sent = reply(turn_mail, first, ann.email)
    sent["Authentication-Results"] = (f"{front_mta}; dkim=pass header.d=example.org; "
                                      "dkim=fail header.d=lists.example.net")
    sent["Authentication-Results"] = "mx.attacker.example; dkim=fail header.d=example.org; dmarc=fail"
    mail.send(sent, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1
    assert "Applied:" in text_of(latest_to(mail, ann))


@pytest.mark.parametrize("results, refused", [
    ([], None),
    (["mx.ours; dkim=fail header.d=example.org"], "dkim"),
    (["mx.ours; dkim=permerror header.i=@example.org"], "dkim"),
    (["mx.ours; dkim=fail header.d=example.org; dkim=pass header.d=example.org"], None),  # one of two signatures broke
    (["mx.ours; dkim=fail header.d=example.net; dkim=pass header.d=example.org"], None),  # a third party's broke
    (["mx.ours; dkim=fail header.d=example.net"], None),  # only a third party signed, and it broke: DMARC decides
    (["mx.ours; dkim=pass header.d=example.org", "MX.OURS; dmarc=fail header.from=example.org"], "dmarc"),
    (["mx.ours; dmarc=permerror header.from=example.org"], None),  # a broken DMARC record is no forgery
    (["mx.theirs; dmarc=fail header.from=example.org"], None),  # not our server's
    (["mx.ours; dkim=fail header.d=example.org", "mx.ours; dkim=pass header.d=mail.example.org"], "dkim"),
    (["mx.ours; dkim=fail header.d=example.org (signature bad) ", "mx.ours"], "dkim"),
])
def test_which_authentication_results_refuse_a_reply(results, refused):
    from workers.reply_authentication import authentication_failure

    message = parse(b"".join(b"Authentication-Results: " + value.encode() + b"\r\n" for value in results)
                    + b"From: ann@example.org\r\n\r\nhi\r\n")
    assert authentication_failure(message, "ann@example.org", ("mx.ours",)) == refused
    assert authentication_failure(message, "ann@example.org", ()) is None  # no server configured: none believed


def test_replies_that_change_nothing_get_a_few_answers_an_hour_and_moves_always_do(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    answers = len(mails_to(mail.sink, ann.email))
    limit, mail.settings.refusals_per_hour = mail.settings.refusals_per_hour, 3
    try:
        for _ in range(5):  # as a robot answering our answers would send
            mail.send(reply(turn_mail, "I am not sure what to do", ann.email), reply_address_of(turn_mail), ann.email)
        assert len(mails_to(mail.sink, ann.email)) == answers + 3
        rows = mail.inbound_rows(reply_address_of(turn_mail))
        assert [row.outcome for row in rows] == ["unreadable"] * 5
        assert all("not answered: too many replies" in row.detail for row in rows[3:])
        mail.send(reply(turn_mail, first, ann.email), reply_address_of(turn_mail), ann.email)
        assert "Applied:" in text_of(latest_to(mail, ann)) and len(mails_to(mail.sink, ann.email)) == answers + 4
    finally:
        mail.settings.refusals_per_hour = limit


def test_a_reply_with_more_moves_than_allowed_applies_none(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, "\n".join([first] * (MAX_COMMANDS + 1)), ann.email), reply_address_of(turn_mail),
              ann.email)
    assert game_row(mail, game_id).version == version
    assert f"A reply may hold at most {MAX_COMMANDS} moves; nothing changed." in text_of(latest_to(mail, ann))


def test_moves_past_the_end_of_the_turn_are_named_and_not_applied(make_player, mail):
    (ann, bob), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, second = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, f"{first}\n{second}\ntile red A1\npass", ann.email), reply_address_of(turn_mail),
              ann.email)
    assert game_row(mail, game_id).version == version + 2
    body = text_of(latest_to(mail, ann))
    assert body.count("Applied:") == 2
    assert 'Not applied, since the decision was no longer yours: "tile red A1", "pass".' in body
    assert "your decision" in latest_to(mail, bob)["Subject"]


def test_the_same_message_applies_once(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    message = reply(turn_mail, first, ann.email)
    version = game_row(mail, game_id).version
    answers = len(mails_to(mail.sink, ann.email))
    for _ in range(3):
        mail.send(message, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1
    assert len(mails_to(mail.sink, ann.email)) == answers + 1
    assert len(mail.inbound_rows(reply_address_of(turn_mail))) == 1


def test_automatic_answers_are_never_answered(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    answers = len(mails_to(mail.sink, ann.email))
    for headers in ({"Auto_Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"X_Autoreply": "yes"},
                    {"Subject": "Out of Office: back on Monday"}):
        message = reply(turn_mail, "I am away until Monday.", ann.email)
        for name, value in headers.items():
            del message[name.replace("_", "-")]
            message[name.replace("_", "-")] = value
        mail.send(message, reply_address_of(turn_mail), ann.email)
    assert len(mails_to(mail.sink, ann.email)) == answers
    assert [row.outcome for row in mail.inbound_rows(reply_address_of(turn_mail))] == ["ignored"] * 4


OUT_OF_OFFICE_SUBJECTS = [
    "Automatic reply: tigris game", "Out of Office: back on Monday", "Automatische Antwort: tigris game",
    "Abwesenheitsnotiz: tigris game", "Abwesenheit bis Montag", "Automatisch antwoord: tigris game",
    "Autosvar: tigris game", "Resposta automática: tigris game", "Réponse automatique : tigris game",
    "RÉPONSE AUTOMATIQUE: tigris game", "Risposta automatica: tigris game", "Respuesta automática: tigris game",
]


@pytest.mark.parametrize("subject", OUT_OF_OFFICE_SUBJECTS)
def test_out_of_office_subjects_in_several_languages_are_automatic(subject):
    message = parse(f"From: ann@example.org\r\nSubject: {subject}\r\n\r\nI am away.\r\n".encode())
    assert message_kind(message) == "auto"


def test_a_reply_whose_subject_only_mentions_an_absence_is_a_persons():
    for subject in ("Re: tigris game: your decision", "Re: Automatic reply: tigris game", "Autosvaret kommer"):
        message = parse(f"From: ann@example.org\r\nSubject: {subject}\r\n\r\ntile red F7\r\n".encode())
        assert message_kind(message) == "person", subject


def test_a_bounce_stops_mail_to_the_address_until_it_is_fixed(make_player, mail):
    from service.reply_address import bounce_address

    (ann, _), game_id = two_player_game(make_player, mail)
    with transaction(mail.engine) as db:
        row = db.exec(
            select(Notification).where(Notification.email == ann.email, Notification.kind == "your_turn")).one()
    bounce_to = bounce_address(mail.settings.secret_key, mail.settings.mail_domain, row.id)
    dsn = (f"From: MAILER-DAEMON@mx.example.org\r\nTo: {bounce_to}\r\nSubject: Undelivered Mail\r\n"
           f"Message-ID: <{uuid.uuid4().hex}@mx.example.org>\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n"
           "--b1\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n"
           "--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n"
           f"Final-Recipient: rfc822; {ann.email}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b1--\r\n").encode()
    mail.send(dsn, bounce_to, "")
    with transaction(mail.engine) as db:
        assert db.exec(select(User).where(User.email == ann.email)).one().bouncing_since is not None
    # Her reply is still taken, but the answer is not sent to an address that bounces.
    turn_mail = latest_to(mail, ann)
    before = len(mails_to(mail.sink, ann.email))
    mail.send(reply(turn_mail, "board", ann.email), reply_address_of(turn_mail), ann.email)
    assert len(mails_to(mail.sink, ann.email)) == before
    assert [r.outcome for r in mail.inbound_rows(reply_address_of(turn_mail))] == ["board"]
    # The preferences page shows it, and the player can say the address works again.
    from service.preference_links import preferences_token

    client = mail_app(mail).test_client()
    path = f"/preferences/{preferences_token(mail.settings.secret_key, row.user_id)}"
    page = client.get(path).get_data(as_text=True)
    assert "bounced" in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post(path, data={"csrf_token": csrf, "email_mode": "every", "mail_works": "yes"})
    mail.send(reply(turn_mail, "board", ann.email), reply_address_of(turn_mail), ann.email)
    assert len(mails_to(mail.sink, ann.email)) == before + 1


def test_a_forged_bounce_changes_nothing(make_player, mail):
    (_, bob), _ = two_player_game(make_player, mail)
    dsn = (f"From: MAILER-DAEMON@evil.example\r\nTo: bounce+1.aaaa@{mail.settings.mail_domain}\r\n"
           "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\r\n"
           "--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n\r\n"
           f"Final-Recipient: rfc822; {bob.email}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b1--\r\n").encode()
    with pytest.raises(smtplib.SMTPRecipientsRefused):  # unsigned: refused before the data
        mail.send(dsn, f"bounce+1.aaaa@{mail.settings.mail_domain}", "")
    # As if it came in another way: processing refuses it too.
    inbound_id = store(mail.engine, dsn, f"bounce+1.aaaa@{mail.settings.mail_domain}", "<>")
    inbound.process(mail.engine, mail.settings, inbound_id)
    with transaction(mail.engine) as db:
        assert db.exec(select(User).where(User.email == bob.email)).one().bouncing_since is None


def test_mail_for_other_addresses_oversized_and_garbage_mail(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        mail.send(b"Subject: hi\r\n\r\nhello\r\n", f"someone@{mail.settings.mail_domain}", ann.email)
    with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as refused:
        big = b"Subject: big\r\n\r\n" + (b"x" * 70 + b"\r\n") * (mail.settings.inbound_max_bytes // 72 + 10)
        mail.send(big, reply_address_of(turn_mail), ann.email)
    assert refused.value.smtp_code == 552
    garbage = [b"\x00\xff\xfe From: \r\n\r\n\x80\x81 Content-Type: multipart/mixed; boundary=\r\n--\r\n",
               nested_multipart(1000, ann.email), comment_nested_from(3000)]
    for message in garbage:  # the last two go deeper than Python's recursion limit when read
        mail.send(message, reply_address_of(turn_mail), ann.email)
    rows = mail.inbound_rows(reply_address_of(turn_mail))
    assert len(rows) == len(garbage)
    assert all(row.processed_at is not None and row.outcome in ("refused", "failed", "ignored")
               for row in (rows[0], rows[2])), [(row.outcome, row.detail) for row in rows]
    # Nested past the parse budget: never parsed, and the seat is told why.
    assert rows[1].outcome == "unreadable" and "nested more than" in rows[1].detail
    assert "RecursionError" in rows[2].detail


def test_a_reply_cut_off_from_the_database_stays_to_be_processed_again(make_player, mail):
    """The database connection dies mid-processing (its backend terminated): the
    message is left unprocessed for the sweep, which then applies it."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    inbound_id = store(mail.engine, reply(turn_mail, first, ann.email).as_bytes(), reply_address_of(turn_mail),
                       ann.email)
    terminated = []

    def terminate_the_connection(connection, cursor, statement, *_):
        if not terminated and re.search(r"\bFROM game\b", statement):
            terminated.append(connection.exec_driver_sql("SELECT pg_backend_pid()").scalar())
            with mail.engine.connect() as admin:
                admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": terminated[0]})

    event.listen(mail.engine, "after_cursor_execute", terminate_the_connection)
    try:
        with pytest.raises(OperationalError):
            inbound.process(mail.engine, mail.settings, inbound_id)
    finally:
        event.remove(mail.engine, "after_cursor_execute", terminate_the_connection)
    assert inbound_id in claim_lost(mail.engine, older_than_seconds=0)
    mail.handle(inbound_id)  # as the sweep's task does
    assert mail.inbound_rows(reply_address_of(turn_mail))[0].outcome == "applied"


def nested_multipart(depth: int, sender: str) -> bytes:
    """A message of `depth` multiparts, each inside the one before."""
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return (f"From: {sender}\r\nSubject: Re: your turn\r\nMIME-Version: 1.0\r\n".encode() + opening
            + b"Content-Type: text/plain\r\n\r\nboard\r\n" + closing)


def comment_nested_from(depth: int) -> bytes:
    """A From header of `depth` comments, each inside the one before (folded in short lines)."""
    folded = b"\r\n ".join([b"(" * 500] * (depth // 500) + [b"a@example.org"] + [b")" * 500] * (depth // 500))
    return b"From: " + folded + b"\r\nSubject: hi\r\n\r\nboard\r\n"


def test_a_war_commitment_right_after_ones_own_action_gets_an_email(make_player, app, mail):
    (ann, _), started = start_game(make_player, 2)  # in seat order: the position has seat 0 to act
    game_id = started["id"]
    engine_ = app.extensions["turnpost"]["database"]
    version = put_position(engine_, game_id, revolt_position({0: {"red": 3}, 1: {"red": 2, "blue": 4}}))
    before = len([n for n in _rows(mail, ann.email) if n.kind == "your_turn"])
    assert ann.post(f"/api/games/{game_id}/moves",
                    json={"text": "leader priest H4", "version": version}).status_code == 200
    assert len([n for n in _rows(mail, ann.email) if n.kind == "your_turn"]) == before + 1


def _rows(mail, email):
    with transaction(mail.engine) as db:
        return list(db.exec(select(Notification).where(Notification.email == email)))


# --- the HTTP endpoint ------------------------------------------------------------------

def test_raw_mime_over_http_needs_the_shared_secret(make_player, app, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    raw = reply(turn_mail, first, ann.email).as_bytes()
    client = app.test_client()
    settings = app.extensions["turnpost"]["settings"]
    recipient = reply_address_of(turn_mail)

    def post(data, to=recipient, sender=ann.email, signature="sha256=00"):
        return client.post(f"/api/inbound/mime?recipient={quote(to)}&sender={quote(sender)}", data=data,
                           headers={"X-Turnpost-Signature": signature})

    settings.inbound_secret = None
    assert post(raw).status_code == 404
    settings.inbound_secret = "provider-secret"
    try:
        assert post(raw).status_code == 401
        body_only = "sha256=" + hmac.new(b"provider-secret", raw, hashlib.sha256).hexdigest()
        assert post(raw, signature=body_only).status_code == 401
        signature = inbound_signature("provider-secret", raw, recipient, ann.email)
        # A captured message and its signature, posted to another address or from another sender.
        assert post(raw, to=f"play+another.seat@{settings.mail_domain}", signature=signature).status_code == 401
        assert post(raw, sender="mallory@example.net", signature=signature).status_code == 401
        broken = post(raw, to=recipient + "\n", signature=inbound_signature("provider-secret", raw, recipient + "\n",
                                                                            ann.email))
        assert broken.status_code == 400 and "no line breaks" in broken.json["message"]
        assert mail.inbound_rows(recipient) == []
        answer = post(raw, signature=signature)
        assert answer.status_code == 202 and answer.json["duplicate"] is False
        again = post(raw, signature=signature)
        assert again.status_code == 202 and again.json["duplicate"] is True
        assert post(b"x" * (settings.inbound_max_bytes + 1)).status_code == 413
    finally:
        settings.inbound_secret = None
    assert [row.envelope_from for row in mail.inbound_rows(recipient)] == [ann.email]
    version = game_row(mail, game_id).version
    mail.handle(answer.json["id"])  # no dispatcher in this app: process it as a worker would
    assert game_row(mail, game_id).version == version + 1


@pytest.mark.parametrize("game", engine.game_ids())
def test_every_game_takes_a_move_by_reply(game, make_player, mail):
    options = {"allow_two": True} if game == "eden" else {}
    players, started = start_game(make_player, 2, game=game, options=options)  # in seat order
    mail.deliver_outbox()
    rules = engine.get_game(game)
    row = game_row(mail, started["id"])
    state = rules.from_json(row.state)
    seat = min(rules.pending(state))
    turn_mail = latest_to(mail, players[seat])
    assert "Moves open now" in text_of(turn_mail)
    move = rules.format_move(rules.legal_moves(state, seat)[0])
    mail.send(reply(turn_mail, move, players[seat].email), reply_address_of(turn_mail), players[seat].email)
    assert game_row(mail, started["id"]).version == row.version + 1
    assert "Applied:" in text_of(latest_to(mail, players[seat]))


# --- whole games by email alone ----------------------------------------------------------

WHOLE_GAME_SEEDS = {"tigris": 3, "euphrat-cards": 3}
# Uniformly random card play can reach a table where no card can leave a hand, which the
# rules leave to the players to abandon; players with a purpose end the game.
CHOOSERS = {"tigris": lambda rng, state, moves: rng.choice(moves), "euphrat-cards": purposeful_choice}


def reseed(db_engine, game_id: int, seed: int) -> None:
    """Start the game again from `seed` (as if the service had drawn it), with the
    decision emails of that start."""
    from service import play

    with transaction(db_engine) as db:
        game = db.get(Game, game_id)
        assert game is not None
        rules = engine.get_game(game.game_type)
        game.seed, game.seed_hash = seed, hashlib.sha256(str(seed).encode()).hexdigest()
        state = rules.setup(game.players, seed, game.options)
        game.state = rules.to_json(state)
        game.version += 1
        for seat in play.seats_of(db, game):
            seat.decision_version = game.version if seat.seat in rules.pending(state) else None
            if seat.seat in rules.pending(state):
                play.notify(db, play.Work(), "your_turn", seat.email, seat.user_id, game, seat.seat,
                            {"since_seq": 0, "upto_seq": 0, "version": game.version})


@pytest.mark.parametrize("game", ["tigris", "euphrat-cards"])
def test_a_whole_game_played_by_email_replies_alone(game, make_player, mail):
    players, started = start_game(make_player, 2, game=game)  # in seat order
    game_id = started["id"]
    rules = engine.get_game(game)
    reseed(mail.engine, game_id, WHOLE_GAME_SEEDS[game])  # a game of known length
    mail.deliver_outbox()
    choose = random.Random(7)
    replies = 0
    while game_row(mail, game_id).status == "active":
        row = game_row(mail, game_id)
        state = rules.from_json(row.state)
        seat = min(rules.pending(state))
        player = players[seat]
        last = latest_to(mail, player)
        assert last["Reply-To"], f"{player.email} owes a decision but his last email takes no reply"
        move = CHOOSERS[game](choose, state, rules.legal_moves(state, seat))
        mail.send(reply(last, rules.format_move(move), player.email), reply_address_of(last), player.email)
        replies += 1
        assert replies < 3000, "the game did not end"
        after = game_row(mail, game_id)
        answer = text_of(latest_to(mail, player))
        if move["type"] in getattr(rules, "setting_moves", ()):  # a standing answer keeps the version
            assert answer.startswith("Applied:") or "moved on" in answer, answer
        elif after.version == row.version:  # the email answered was stale: its answer is the current one
            assert "moved on" in answer, answer
    assert game_row(mail, game_id).status == "finished"
    assert any("game over" in m["Subject"] for m in mails_to(mail.sink, players[0].email))
    with transaction(mail.engine) as db:
        outcomes = {row.outcome for row in db.exec(select(InboundMail).where(InboundMail.recipient.like("play+%")))
                    if row.processed_at is not None}
    assert "applied" in outcomes
