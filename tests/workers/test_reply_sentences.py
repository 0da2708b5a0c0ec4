"""Replies as people write them: a move after a sentence on the same line is read, a
move inside a sentence is never guessed at, and a misspelt move is "could not be
read" (with the notation), not "not allowed". Mail bodies are built as the mail
programs send them (format=flowed, quoted-printable) and read by the same functions
the inbound processing uses; the last tests go through the inbound SMTP server."""
from __future__ import annotations

import pytest

import engine
from tests.workers.mail_players import parse, reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, two_actions, two_player_game  # noqa: F401
from workers.inbound import _moves_and_prose
from workers.reply_reading import body_text, commands, newest_reply

TIGRIS = engine.get_game("tigris")


def read(text: str, game=TIGRIS):
    """The moves and the text passed over (None: unreadable) of a reply's own text."""
    return _moves_and_prose(commands(newest_reply(text)), game)


@pytest.mark.parametrize("text,moves,prose", [
    ("Thanks! tile red F7", ["tile red F7"], ["Thanks"]),
    ("Hi Bob. tile red F7. Cheers!", ["tile red F7"], ["Hi Bob", "Cheers"]),
    ("Good game so far! tile red F7; leader king G6", ["tile red F7", "leader king G6"], ["Good game so far"]),
    ("My move: tile red F7", ["tile red F7"], ["My move"]),
    ("tile red F7. Your turn now!", ["tile red F7"], ["Your turn now"]),
    ("Well played? tile red F7\nleader king G6. See you", ["tile red F7", "leader king G6"],
     ["Well played?", "See you"]),
])
def test_a_move_after_a_sentence_on_the_same_line_is_read(text, moves, prose):
    assert read(text) == (moves, prose)


@pytest.mark.parametrize("text", [
    "I think tile red F7 is best",  # a move shape inside prose
    "Hi Bob, tile red F7",  # no sentence end before it: the greeting and the move are one piece
    "tile red F7. Then maybe leader king G6 later. leader king H6",
    "tile red F7. Not sure. leader king G6",  # prose between two moves
])
def test_a_move_inside_prose_makes_the_reply_unreadable(text):
    assert read(text)[1] is None


def test_a_lone_move_word_in_a_sentence_is_a_word_not_a_move():
    assert read("I will pass on the rematch. tile red F7") == (["tile red F7"], ["I will pass on the rematch"])


def test_a_piece_starting_with_a_move_word_is_a_move_that_then_must_parse():
    moves, prose = read("Thanks! leader kng G6")
    assert moves == ["leader kng G6"] and prose == ["Thanks"]
    with pytest.raises(engine.MoveParseError):
        TIGRIS.parse_move(moves[0])


FLOWED = ("Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n"
          "From: bob@example.org\r\nSubject: Re: your decision\r\n\r\n")


def test_format_flowed_unwrapping_joins_prose_and_move_into_one_line_that_is_read():
    """Apple Mail and Thunderbird wrap a long line with a trailing space (a soft break);
    joined again, the sentence and the move share a line."""
    raw = FLOWED + ("Thanks for the long game, it was a pleasure to play with you all week. \r\n"
                    "tile red F7\r\n\r\nOn 24/11/2026 10:00, turnpost wrote:\r\n> e.g. tile red A1\r\n")
    text = body_text(parse(raw.encode()))
    assert "all week. tile red F7" in text
    assert read(text) == (["tile red F7"], ["Thanks for the long game, it was a pleasure to play with you all week"])


def test_format_flowed_joining_a_sentence_without_an_end_and_a_move_is_unreadable():
    raw = FLOWED + "Here is what I would like to do now \r\ntile red F7\r\n"
    assert read(body_text(parse(raw.encode())))[1] is None


def test_a_quoted_printable_soft_break_inside_the_line_joins_prose_and_move():
    raw = (b"Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
           b"From: bob@example.org\r\n\r\nSorry for the delay, I was away all weekend. til=\r\ne red F7\r\n"
           b"Danke sch=C3=B6n!\r\n")
    text = body_text(parse(raw))
    assert "weekend. tile red F7" in text
    assert read(text) == (["tile red F7"], ["Sorry for the delay, I was away all weekend", "Danke schön"])


# --- through the inbound SMTP server --------------------------------------------------

def test_a_reply_with_a_move_after_a_greeting_on_its_line_is_applied(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, f"Thanks! {first}", ann.email), reply_address_of(turn_mail), ann.email)
    body = text_of(latest_to(mail, ann))
    assert game_row(mail, game_id).version == version + 1, body
    assert body.count("Applied:") == 1 and 'Not read as moves: "Thanks".' in body


def test_a_move_inside_a_sentence_is_not_applied(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, f"Maybe {first} would be best?", ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version
    assert "could not be read safely" in text_of(latest_to(mail, ann))


def test_a_misspelt_move_could_not_be_read_and_gets_the_notation(make_player, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    mail.send(reply(turn_mail, "leader kng G6", ann.email), reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version
    body = text_of(latest_to(mail, ann))
    assert "\"leader kng G6\" could not be read" in body and "'kng' is not a leader" in body, body
    assert "is not allowed" not in body and "How to write moves" in body
    assert mail.inbound_rows(reply_address_of(turn_mail))[0].outcome == "unreadable"


# --- where the player's own text ends: our own cases of each kind of reply that other
# projects' reply fixtures showed read wrongly (bench/reply_fixtures.py measures those) -----

QUOTED_MOVE = "tile red A1"  # in the answered email: never to be read


@pytest.mark.parametrize("text", [
    # A name-only "On ... wrote:" (no address) above a quote, the move written below it.
    "Hi Bob,\nOn Tue, 24 Nov 2026 at 10:00, Bob Player wrote:\n> e.g. tile red A1\n> Your move\n\ntile red F7\n",
    # The move on the line of the attribution.
    "tile red F7 On Tue, 24 Nov 2026 at 10:00, Bob Player <bob@example.org> wrote:\n> e.g. tile red A1\n",
    # A move after a sign-off word the reply parser takes for a signature.
    "Viele Grüße\ntile red F7\n\n> e.g. tile red A1\n",
    "Thanks,\nAnn\ntile red F7\n",
    "Cordialement\ntile red F7\n",
    # A copy of the email under a header in a language the reply parser does not know.
    "tile red F7\n\nср, 25 нояб. 2026 г. в 10:00, Bob Player <bob@example.org>:\n\ne.g. tile red A1\n",
    "tile red F7\n\nEm 25 de novembro de 2026 às 10:00, Bob Player (\nbob@example.org) escreveu:\n\ne.g. tile red A1\n",
    "tile red F7\n\n---- Bob Player wrote ----\n\ntile red A1\n",
    "tile red F7\n\nW dniu 25.11.2026 10:00 Bob Player <bob@example.org> napisał:\ntile red A1\n",
    "tile red F7\n\nOn 25 Nov 2026, at 10:00, Bob Player\n<bob@example.org>\nwrote:\n\ntile red A1\n",
    # A bare "Original Message" line with no From block under it, in English and German.
    "tile red F7\n\n-----Original Message-----\ntile red A1\n",
    "tile red F7\n\n-----Ursprüngliche Nachricht-----\ntile red A1\n",
    # Outlook's header block in French, after its rule of underscores or without it.
    "tile red F7\n\nDe : Bob Player <bob@example.org>\nEnvoyé : mercredi 25 novembre 2026 10:00\nÀ : Ann\n\n"
    "tile red A1\n",
    "tile red F7\n________________________________\nDe : Bob Player\ntile red A1\n",
    # A long quoted line wrapped by the mail program: its second half lost the ">".
    "tile red F7\n\n> Your decision: place a tile or a leader; the moves open now are, for example,\n"
    "tile red A1 or leader king G6\n> Deadline: Friday\n",
    # A phone's signature, then the answered email without a header.
    "tile red F7\n\nSent from my Galaxy\n\ntile red A1\n",
])
def test_only_the_players_own_move_is_read_and_never_a_quoted_one(text):
    moves, prose = read(text)
    assert moves == ["tile red F7"], (moves, prose)
    assert prose is not None and not any(QUOTED_MOVE in piece for piece in prose), prose


def test_a_sentence_that_only_mentions_writing_is_kept():
    assert read("I wrote it down: tile red F7") == (["tile red F7"], ["I wrote it down"])
