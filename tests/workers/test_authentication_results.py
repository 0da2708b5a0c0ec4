"""Authentication-Results are trusted only from the receiving servers configured by
their authserv-id (AUTHSERV_ID), and refuse a reply on a DMARC failure or on a failed
signature of the sender's own domain with none passing; a header the sender wrote
himself, or a broken signature of another domain beside a valid one, refuses nothing."""
from __future__ import annotations

import pytest

from tests.workers.mail_players import parse, reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, two_actions, two_player_game  # noqa: F401
from workers.reply_authentication import authentication_failure

OURS = "mx.turnpost.example"


def message_with(*results: str):
    headers = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    return parse(f"{headers}From: ann@example.org\r\nSubject: Re: x\r\n\r\ntile red F7\r\n".encode())


@pytest.mark.parametrize("results,outcome", [
    ([f"{OURS}; dkim=fail header.d=example.org"], "dkim"),
    ([f"{OURS}; dkim=permerror header.i=@example.org"], "dkim"),
    ([f"{OURS}; dmarc=fail header.from=example.org"], "dmarc"),
    # A broken third-party signature (a list's) beside a valid one of the sender's domain.
    ([f"{OURS}; dkim=fail header.d=lists.example.net; dkim=pass header.d=example.org"], None),
    ([f"{OURS}; dkim=fail header.d=lists.example.net"], None),
    # Written by the sender (or any server before ours): another authserv-id.
    ["elsewhere.example; dkim=fail header.d=example.org; dmarc=fail", None],
    ([f"{OURS}; dkim=pass header.d=example.org", "forged.example; dmarc=fail header.from=example.org"], None),
    ([f"{OURS.upper()}; dmarc=fail header.from=example.org"], "dmarc"),
])
def test_only_trusted_servers_and_the_senders_own_signature_count(results, outcome):
    results = [results] if isinstance(results, str) else results
    assert authentication_failure(message_with(*results), "ann@example.org", (OURS,)) == outcome


def test_without_a_configured_authserv_id_no_header_is_trusted():
    assert authentication_failure(message_with(f"{OURS}; dmarc=fail; dkim=fail header.d=example.org"),
                                  "ann@example.org", ()) is None


def test_a_reply_with_a_failure_written_by_its_sender_is_played(make_player, mail, monkeypatch):
    monkeypatch.setattr(mail.settings, "authserv_ids", (OURS,))
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    version = game_row(mail, game_id).version
    first, _ = two_actions(mail, game_id)
    own_domain = ann.email.rpartition("@")[2]
    written = reply(turn_mail, first, ann.email,
                    Authentication_Results=f"sender.example; dkim=fail header.d={own_domain}; dmarc=fail")
    mail.send(written, reply_address_of(turn_mail), ann.email)
    assert game_row(mail, game_id).version == version + 1, text_of(latest_to(mail, ann))
