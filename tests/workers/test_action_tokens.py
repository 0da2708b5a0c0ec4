"""Action tokens: round trip, forgery, expiry."""
import time

import pytest

from service.action_tokens import ActionToken, TokenRejected, make_token, read_token

SECRET = "s3cret-for-tests"


def test_round_trip():
    token = ActionToken(game_id=4, seat=1, version=17, move="support 2")
    assert read_token(SECRET, make_token(SECRET, token), 3600) == token


def test_forged_or_tampered_tokens_are_invalid():
    good = make_token(SECRET, ActionToken(4, 1, 17, "support 2"))
    for bad in (good[:-2] + "xx", make_token("other-secret", ActionToken(4, 1, 17, "support 2")), "garbage", ""):
        with pytest.raises(TokenRejected) as err:
            read_token(SECRET, bad, 3600)
        assert err.value.reason == "invalid"


def test_expired_tokens_are_refused():
    text = make_token(SECRET, ActionToken(4, 1, 17, None))
    time.sleep(1.1)
    with pytest.raises(TokenRejected) as err:
        read_token(SECRET, text, max_age_seconds=0)
    assert err.value.reason == "expired"
