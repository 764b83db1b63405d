"""The deliveries' listing, by pages (GET /games/{id}/webhooks/deliveries?limit=&cursor=): newest
first, every delivery once across the pages, and a cursor it did not write refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.http.services import services
from skyline.web import api_app

from .test_api import assert_problem, bearer, first_move

MOVES = 14


@pytest.fixture(scope="module")
def app(module_settings, module_redis_client):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    # The endpoint is never called here (no webhook worker): loopback http only has to be accepted.
    return api_app(
        replace(module_settings, webhook_allow_http=True, webhook_allow_private=True),
        redis_client=module_redis_client,
    )


@pytest.fixture
def hooked_game(app, client):
    """A two-human game with the creation's webhook, MOVES moves played and fanned out."""
    created = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "webhooks": [{"url": "http://127.0.0.1:9/hook"}],
        },
    ).get_json()
    tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    for _ in range(MOVES):
        seat = client.get(f"/games/{created['id']}").get_json()["to_act"][0]
        move, version = first_move(client, created["id"], tokens[seat])
        body = {"move": move, "version": version}
        moved = client.post(f"/games/{created['id']}/actions", json=body, headers=bearer(tokens[seat]))
        assert moved.status_code == 200, moved.get_json()
    services(app).webhooks.fan_out(created["id"])
    return created["id"], created["webhook_secret"]


def _pages(client, game_id, secret, limit):
    pages, cursor = [], None
    while True:
        query = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        path = f"/games/{game_id}/webhooks/deliveries"
        reply = client.get(path, query_string=query, headers=bearer(secret))
        assert reply.status_code == 200, reply.get_json()
        pages.append(reply.get_json()["deliveries"])
        cursor = reply.get_json()["next"]
        if cursor is None:
            return pages
        assert len(pages) < 100, "the cursor does not move on"


def test_pages_list_every_delivery_once_newest_first(client, hooked_game):
    game_id, secret = hooked_game
    whole = _pages(client, game_id, secret, 200)
    assert len(whole) == 1
    every = whole[0]
    # Version 0 and each move: one game.turn per version, the start at version 0.
    assert len(every) == MOVES + 2 and {d["type"] for d in every} == {"game.started", "game.turn"}
    order = [(d["version"], d["id"]) for d in every]
    assert order == sorted(order, reverse=True) and len(set(order)) == len(order)
    for limit in (1, 3, 5, len(every), len(every) - 1):
        pages = _pages(client, game_id, secret, limit)
        assert [d for page in pages for d in page] == every, limit
        assert all(len(page) == limit for page in pages[:-1]) and 1 <= len(pages[-1]) <= limit
    # As many as one page holds: no empty page after it.
    assert len(_pages(client, game_id, secret, len(every))) == 1
    default = client.get(f"/games/{game_id}/webhooks/deliveries", headers=bearer(secret)).get_json()
    assert default == {"deliveries": every, "next": None}


@pytest.mark.parametrize(
    "query",
    [{"cursor": "not-a-cursor"}, {"cursor": "WzEsMl0"}, {"limit": 0}, {"limit": 201}, {"limit": "x"}],
)
def test_a_cursor_not_written_here_or_a_limit_out_of_range_is_refused(client, hooked_game, query):
    game_id, secret = hooked_game
    reply = client.get(f"/games/{game_id}/webhooks/deliveries", query_string=query, headers=bearer(secret))
    body = assert_problem(reply, 422, "bad_cursor" if "cursor" in query else "invalid_request")
    if "cursor" in query:
        assert "this listing of deliveries" in body["detail"]


def test_the_lobby_refuses_a_cursor_in_its_own_words(client):
    body = assert_problem(client.get("/lobby", query_string={"cursor": "bm9wZQ"}), 422, "bad_cursor")
    assert "this lobby" in body["detail"]
