"""Schemathesis against /api/openapi.json: no 5xx, no response that breaks the schema."""
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.conftest import start_game


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


@pytest.fixture
def player_headers(make_player):
    players, _game = start_game(make_player, 2)  # so that some ids exist
    return players[0].headers


def test_api_answers_every_generated_request_within_its_schema(api_schema, player_headers):
    # Each operation gets its own generated cases (the pytest plugin of this
    # schemathesis does not load under this pytest, so the operations are walked here).
    checked = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                  derandomize=True)
        def check(case):
            # Schema-valid bodies may still break game rules (an option, an illegal move),
            # which is a 4xx by design; every other check runs.
            case.call_and_validate(headers=player_headers, excluded_checks=[positive_data_acceptance])

        check()
        checked.append(operation.label)
    assert len(checked) >= 15, checked


def test_openapi_document_lists_every_endpoint(app):
    paths = app.test_client().get("/api/openapi.json").json["paths"]
    for path in ("/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/moves/legal",
                 "/api/games/{game_id}/log", "/api/games/{game_id}/export", "/api/me/games",
                 "/api/sign-in", "/api/tokens"):
        assert path in paths
    assert app.test_client().get("/api/docs").status_code == 200
