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
        assert svg.headers["Vary"] == "Authorization, Accept-Language"
        assert svg.headers["Content-Language"] == "en"
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


@pytest.mark.parametrize(
    ("path", "render"), [("board.svg", boards.render_svg), ("board.txt", boards.render_text)]
)
def test_pictures_speak_the_readers_language(client, path, render):
    """``?lang=fr`` (an <img> sends no header) or Accept-Language: the picture's words, its
    Content-Language, a Vary naming the language, an ETag per language and a 304 per language;
    a past version's picture too."""
    game_id, tokens = _create(client, "wettstreit", 3)
    _play(client, game_id, tokens, 8, random.Random(path))
    seat = bearer(tokens[0])
    shown = client.get(f"/games/{game_id}", headers=seat).get_json()
    address = f"/games/{game_id}/{path}"
    english = client.get(address, headers=seat)
    by_query = client.get(f"{address}?lang=fr", headers=seat)
    by_header = client.get(address, headers={**seat, "Accept-Language": "fr-CA;q=0.9, en;q=0.8"})
    for french in (by_query, by_header):
        assert french.status_code == 200
        assert french.get_data(as_text=True) == render(shown, "fr") != render(shown)
        assert french.headers["Content-Language"] == "fr"
        assert french.headers["Vary"] == "Authorization, Accept-Language"
    assert english.get_data(as_text=True) == render(shown) and english.headers["Content-Language"] == "en"
    french_tag, english_tag = by_query.headers["ETag"], english.headers["ETag"]
    assert by_header.headers["ETag"] == french_tag != english_tag
    # A 304 per language: each copy revalidates in its own language only.
    again = client.get(f"{address}?lang=fr", headers={**seat, "If-None-Match": french_tag})
    assert again.status_code == 304 and again.headers["ETag"] == french_tag
    assert again.headers["Vary"] == "Authorization, Accept-Language"
    assert client.get(address, headers={**seat, "If-None-Match": french_tag}).status_code == 200
    unknown = client.get(address, headers={**seat, "Accept-Language": "de", "If-None-Match": english_tag})
    assert unknown.status_code == 304 and unknown.headers["ETag"] == english_tag
    # The picture of a past version speaks the same way.
    then = client.get(f"/games/{game_id}/versions/3", headers=seat).get_json()
    past = client.get(f"/games/{game_id}/versions/3/{path}?lang=fr", headers=seat)
    assert past.status_code == 200 and past.headers["Content-Language"] == "fr"
    assert past.headers["Vary"] == "Authorization, Accept-Language"
    assert past.get_data(as_text=True) == render(then, "fr")
    past_english = client.get(f"/games/{game_id}/versions/3/{path}", headers=seat)
    assert (
        past_english.get_data(as_text=True) == render(then)
        and past_english.headers["ETag"] != past.headers["ETag"]
    )
