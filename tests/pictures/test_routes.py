"""The picture routes and the playground's files, on the Flask app against a real Redis.

A picture is exactly the renderer applied to what GET /games/{id} shows the same caller: the
route adds nothing and hides nothing, for every seat token and for a spectator.
"""

from __future__ import annotations

import random

import pytest

import boards
from engines.registry import GAMES
from tests.service.test_api import assert_problem, bearer


def _create(client, title, seats):
    options = GAMES[title].option_combinations(seats)[0]
    humans = [{"kind": "human", "name": f"P{s}"} for s in range(seats)]
    body = {"title": title, "seats": humans, "options": options, "seed": 7}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def _play(client, game_id, tokens, moves, rng):
    for _ in range(moves):
        shown = client.get(f"/games/{game_id}").get_json()
        if not shown["to_act"]:
            return
        seat = rng.choice(shown["to_act"])
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(tokens[seat])).get_json()
        move = rng.choice(listing["moves"])["move"]
        reply = client.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": listing["version"]},
            headers=bearer(tokens[seat]),
        )
        assert reply.status_code == 200, reply.get_json()


@pytest.mark.parametrize("title", sorted(GAMES))
def test_pictures_draw_what_the_caller_is_shown(client, title):
    game = GAMES[title]
    game_id, tokens = _create(client, title, max(2, game.min_seats))
    _play(client, game_id, tokens, 12, random.Random(title))
    callers = [None, *tokens.values()]
    svgs = set()
    for token in callers:
        headers = bearer(token) if token else {}
        shown = client.get(f"/games/{game_id}", headers=headers).get_json()
        svg = client.get(f"/games/{game_id}/board.svg", headers=headers)
        assert svg.status_code == 200
        assert svg.mimetype == "image/svg+xml"
        assert svg.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert svg.headers["Vary"] == "Authorization"
        assert svg.get_data(as_text=True) == boards.render_svg(shown)
        text = client.get(f"/games/{game_id}/board.txt", headers=headers)
        assert text.status_code == 200 and text.mimetype == "text/plain"
        assert text.get_data(as_text=True) == boards.render_text(shown)
        # Same version, same seat: not modified. The tag names the seat, so seats never share one.
        again = client.get(
            f"/games/{game_id}/board.svg", headers={**headers, "If-None-Match": svg.headers["ETag"]}
        )
        assert again.status_code == 304
        svgs.add(svg.headers["ETag"])
    assert len(svgs) == len(callers)


def test_pictures_refuse_like_the_game_does(client):
    game_id, _ = _create(client, "property", 2)
    for path in ("board.svg", "board.txt"):
        assert_problem(client.get(f"/games/{game_id}/{path}", headers=bearer("nope")), 401, "invalid_token")
        assert_problem(
            client.get(f"/games/{game_id}/{path}", headers={"Authorization": "Basic x"}),
            401,
            "malformed_authorization",
        )
        assert_problem(client.get(f"/games/no-such-game/{path}"), 404, "game_not_found")


def test_the_playground_is_served_with_its_files(client):
    page = client.get("/play")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    html = page.get_data(as_text=True)
    assert '<script src="/play/play.js"' in html and "http://" not in html and "https://" not in html
    script = client.get("/play/play.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert "EventSource" in script.get_data(as_text=True)
    style = client.get("/play/play.css")
    assert style.status_code == 200 and style.mimetype == "text/css"
    assert_problem(client.get("/play/secrets.txt"), 404, "not_found")
    assert_problem(client.get("/play/..%2Fpictures.py"), 404, "not_found")
