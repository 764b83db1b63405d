"""Every refusal of the use cases (service.play.errors) has its status in http's table, and
leaves as problem+json with its code, its sentence and its facts, in Flask and the fast lane alike."""

from __future__ import annotations

import orjson
import pytest

from engines.core import RulesError
from service.http import errors
from service.http.problems import PLAY_STATUS, RULES_STATUS
from service.play import errors as play_errors
from service.play.errors import GameNotFound, PlayError, StaleVersion, TooManyBotGames, VersionNotFound


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def subclasses(kind: type) -> list[type]:
    found = []
    for sub in kind.__subclasses__():
        found += [sub, *subclasses(sub)]
    return found


REFUSALS = subclasses(PlayError)
EXAMPLES = {
    GameNotFound: lambda: GameNotFound("abc"),
    StaleVersion: lambda: StaleVersion("The game moved on.", current_version=7),
    TooManyBotGames: lambda: TooManyBotGames(20),
    VersionNotFound: lambda: VersionNotFound("abc", 9, 3),
}


def example(kind: type[PlayError]) -> PlayError:
    return EXAMPLES.get(kind, lambda: kind("A sentence."))()


def test_every_refusal_is_defined_in_play_errors():
    assert REFUSALS and all(kind.__module__ == play_errors.__name__ for kind in REFUSALS)


@pytest.mark.parametrize("kind", REFUSALS, ids=lambda kind: kind.__name__)
def test_every_refusal_has_its_own_status_and_code(kind):
    assert kind in PLAY_STATUS, f"{kind.__name__} has no row in service.http.problems.PLAY_STATUS"
    assert kind.code != PlayError.code and kind.code.islower()


@pytest.mark.parametrize("kind", REFUSALS, ids=lambda kind: kind.__name__)
def test_a_refusal_leaves_as_problem_json(app, kind):
    error = example(kind)
    response = errors.response_for(app, error)
    body = orjson.loads(response.get_data())
    assert response.status_code == PLAY_STATUS[kind] == body["status"]
    assert response.mimetype == "application/problem+json"
    assert body["code"] == kind.code and body["type"].endswith("/" + kind.code)
    assert body["detail"] == error.message
    wait = kind.retry_after
    assert response.headers.get("Retry-After") == (None if wait is None else str(wait))


def test_facts_of_a_refusal_are_written_beside_its_sentence(app):
    def body(current_version):
        stale = StaleVersion("Moved on.", current_version=current_version)
        return orjson.loads(errors.response_for(app, stale).get_data())

    assert body(7)["current_version"] == 7
    assert "current_version" not in body(None)


def test_the_rules_errors_keep_their_table():
    assert RULES_STATUS[-1] == (RulesError, 422)
