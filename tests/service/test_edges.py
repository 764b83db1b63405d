"""The edges of issue 65, in-process: an id the service could never have made is a 404 before any
store is asked, on every route that names a game; a body over the limit is a 413 on every route,
whether its length is declared or it comes chunked.

tests/service/test_gunicorn_refusals.py sends the same bodies to a live gunicorn (both worker
classes); tests/ops/test_archive_outage.py reads impossible ids from a `skyline serve`.
"""

from __future__ import annotations

import io
import re

import pytest

from service.play.repository import GameRepository
from service.store.games import GameStore, is_game_id

from .test_api import assert_problem

# Each a reason the service could never have made the id: a NUL (PostgreSQL refuses it in text:
# once a 500), a slash, 65 characters, characters outside the alphabet, nothing.
IMPOSSIBLE_IDS = ["%00", "a%00b", "a%2Fb", "a" * 65, "g%C3%A9", "a.b", "a%20b", "%FF", "~x", "a*b"]


def game_rules(app) -> list[tuple[str, str]]:
    """(method, rule) of every route that names a game."""
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if "game_id" in rule.arguments
        for method in rule.methods - {"HEAD", "OPTIONS"}
    )


def filled(rule: str, game_id: str) -> str:
    path = re.sub(r"<(?:\w+:)?game_id>", game_id, rule)
    return path.replace("<n>", "0")


def test_the_ids_the_service_makes_and_no_others():
    from service.store.games import new_game_id

    assert all(is_game_id(new_game_id()) for _ in range(200))
    assert is_game_id("a" * 64) and is_game_id("A-_z9")
    for bad in ["", "a" * 65, "a/b", "a\x00b", "é", "a b", None, 7]:
        assert not is_game_id(bad)


@pytest.fixture
def no_store_asked(monkeypatch):
    """Fail the test at the first read of a game from Redis or the archive."""
    asked: list[str] = []

    def refuse(name):
        def read(self, game_id, *args, **kwargs):
            asked.append(f"{name}({game_id!r})")
            raise AssertionError(f"a store was asked for {game_id!r}")

        return read

    monkeypatch.setattr(GameStore, "load", refuse("GameStore.load"))
    monkeypatch.setattr(GameRepository, "read", refuse("GameRepository.read"))
    return asked


def test_the_routes_that_name_a_game_include_every_read(app):
    rules = {rule for _, rule in game_rules(app)}
    for tail in ("", "/events", "/record"):
        assert "/games/<gameid:game_id>" + tail in rules
    assert any("versions/<n>" in rule for rule in rules) and any("board.svg" in rule for rule in rules)


@pytest.mark.parametrize("game_id", IMPOSSIBLE_IDS)
def test_an_impossible_id_is_a_404_before_any_store_is_asked(app, no_store_asked, game_id):
    client = app.test_client()
    for method, rule in game_rules(app):
        path = filled(rule, game_id)
        for headers in ({}, {"Authorization": "Bearer x" * 3}, {"Accept": "text/event-stream"}):
            body = {} if method == "POST" else None
            response = client.open(path, method=method, headers=headers, json=body)
            assert response.status_code == 404, (method, path, response.status_code, response.data[:200])
            assert_problem(response, 404, "not_found")
    assert no_store_asked == []


# ---- one body limit --------------------------------------------------------------------------
def every_rule(app) -> list[tuple[str, str]]:
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    )


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_body_over_the_limit_is_a_413_on_every_route(app, settings, framing):
    client = app.test_client()
    game = client.post("/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]})
    game_id = game.get_json()["id"]
    too_big = b" " * (settings.max_body_bytes + 1)
    for method, rule in every_rule(app):
        path = re.sub(r"<[^>]+>", "x", filled(rule, game_id))
        headers = {"Content-Type": "application/json"}
        if framing == "content-length":
            response = client.open(path, method=method, headers=headers, data=too_big)
        else:
            response = client.open(
                path,
                method=method,
                headers={**headers, "Transfer-Encoding": "chunked"},
                input_stream=io.BytesIO(too_big),
                environ_overrides={"wsgi.input_terminated": True},
            )
        assert response.status_code == 413, (method, path, response.status_code, response.data[:200])
        assert_problem(response, 413, "body_too_large")
    # Nothing was done on the way: the game is as it was made.
    assert client.get(f"/games/{game_id}").get_json()["version"] == 0
