"""Conditional GETs (RFC 9110 §13) on the app against a real Redis: every route the contract says
answers 304 sends a strong ETag of its bytes, Cache-Control and Vary, and reads If-None-Match as
the RFC says (a list, ``*``, weak tags); a tag changes whenever the bytes do, with the version or
without it (a rematch), and with the caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import read_yaml
from tests.service.test_api import bearer, create, first_move

SPEC = read_yaml(Path(__file__).parents[2] / "openapi.yaml")
HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
CONDITIONAL = sorted(
    path
    for path, operations in SPEC["paths"].items()
    if "304" in operations.get("get", {}).get("responses", {})
)
# The replies that are the caller's say so in their Vary (a reply in the reader's language varies
# by Accept-Language only).
BY_CALLER = {
    path
    for path in CONDITIONAL
    if "Authorization"
    in SPEC["paths"][path]["get"]["responses"]["200"]["headers"].get("Vary", {}).get("description", "")
}


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def test_the_contract_documents_the_conditional_routes():
    # The routes this file walks: if one stops being conditional, say so here on purpose.
    assert set(CONDITIONAL) == {
        "/catalog",
        "/games/{game_id}",
        "/games/{game_id}/moves",
        "/games/{game_id}/events",
        "/games/{game_id}/record",
        "/games/{game_id}/board.svg",
        "/games/{game_id}/board.txt",
        "/games/{game_id}/versions/{n}",
        "/games/{game_id}/versions/{n}/board.svg",
        "/games/{game_id}/versions/{n}/board.txt",
        "/play",
        "/play/{asset}",
        "/play/words.json",
    }
    assert BY_CALLER == {p for p in CONDITIONAL if p.startswith("/games/") and not p.endswith("/record")}


def finished(client) -> tuple[str, dict[int, str]]:
    """A finished game of two humans (seat 1 resigned), and its seats' tokens."""
    game = create(client, seats=HUMANS)
    tokens = {s["seat"]: s["token"] for s in game["human_seats"]}
    assert client.post(f"/games/{game['id']}/resign", headers=bearer(tokens[1])).status_code == 200
    return game["id"], tokens


def play_one(client, game, tokens) -> None:
    seat = game["to_act"][0]
    move, version = first_move(client, game["id"], tokens[seat])
    played = client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": version}, headers=bearer(tokens[seat])
    )
    assert played.status_code == 200, played.get_json()


def address(path: str, game_id: str) -> str:
    return path.replace("{game_id}", game_id).replace("{asset}", "play.js").replace("{n}", "1")


@pytest.mark.parametrize("path", CONDITIONAL)
def test_each_conditional_route_answers_if_none_match_by_the_rfc(client, path):
    game_id, tokens = finished(client)
    headers = bearer(tokens[0]) if path in BY_CALLER else {}
    url = address(path, game_id)
    full = client.get(url, headers=headers)
    assert full.status_code == 200, full.get_data(as_text=True)
    etag = full.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and len(etag) > 10, "a strong tag, not a version"
    private = path in BY_CALLER
    if "/versions/" in path:  # a version never changes: kept, not revalidated
        assert full.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    else:
        assert full.headers["Cache-Control"] == ("private, no-cache" if private else "no-cache")
    assert ("Authorization" in full.headers.get("Vary", "")) == private
    validators = {name: full.headers.get(name) for name in ("ETag", "Cache-Control", "Vary")}
    for named in (etag, "*", f'"other", {etag}', f'"other",W/{etag}', f"W/{etag}"):
        again = client.get(url, headers={**headers, "If-None-Match": named})
        assert again.status_code == 304, named
        assert again.get_data() == b""
        assert {name: again.headers.get(name) for name in validators} == validators, named
    for other in ('"other"', '"other", W/"another"', etag[:-2] + '"', "garbage"):
        assert client.get(url, headers={**headers, "If-None-Match": other}).status_code == 200, other
    # HEAD revalidates alike.
    assert client.head(url, headers={**headers, "If-None-Match": etag}).status_code == 304


def test_a_rematch_asked_after_the_game_ended_changes_the_tag_though_not_the_version(client):
    game_id, tokens = finished(client)
    callers = [{}, bearer(tokens[0]), bearer(tokens[1])]
    before = [client.get(f"/games/{game_id}", headers=headers) for headers in callers]
    asked = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert asked.status_code == 201
    for headers, seen in zip(callers, before, strict=True):
        after = client.get(f"/games/{game_id}", headers={**headers, "If-None-Match": seen.headers["ETag"]})
        assert after.status_code == 200, "the copy without the rematch is not current"
        assert after.get_json()["version"] == seen.get_json()["version"]
        assert after.get_json()["rematch"] == asked.get_json()["id"]
        assert after.headers["ETag"] != seen.headers["ETag"]
    # Asked again (a new token, the same rematch): the reply is the same, and so is its tag.
    current = client.get(f"/games/{game_id}", headers=callers[1]).headers["ETag"]
    client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[0]))
    same = client.get(f"/games/{game_id}", headers={**callers[1], "If-None-Match": current})
    assert same.status_code == 304


@pytest.mark.parametrize("tail", ["", "/moves", "/events", "/board.svg", "/board.txt"])
def test_two_seats_and_a_spectator_never_share_a_tag(client, tail):
    game = create(client, seats=HUMANS, seed=5)
    tokens = {s["seat"]: s["token"] for s in game["human_seats"]}
    play_one(client, game, tokens)  # the log too then differs: the mover sees its own move
    url = f"/games/{game['id']}{tail}"
    tags, bodies = {}, {}
    for caller in (None, 0, 1):
        headers = bearer(tokens[caller]) if caller is not None else {}
        reply = client.get(url, headers=headers)
        tags[caller], bodies[caller] = reply.headers["ETag"], reply.get_data()
    # One tag, one body: a tag is shared only by callers sent the very same bytes (the log's
    # spectator and the seat that did not move); the views name their caller, so never.
    assert {tags[c]: bodies[c] for c in tags} == {tags[c]: bodies[c] for c in reversed(tags)}
    assert len(set(tags.values())) == len(set(bodies.values())) == (2 if tail == "/events" else 3)
    # One caller's tag is no good to another sent other bytes: it gets its own.
    for mine in tags:
        for theirs in tags:
            if bodies[mine] != bodies[theirs]:
                headers = {
                    "If-None-Match": tags[theirs],
                    **(bearer(tokens[mine]) if mine is not None else {}),
                }
                reply = client.get(url, headers=headers)
                assert reply.status_code == 200 and reply.headers["ETag"] == tags[mine], (mine, theirs)
                private = mine is not None
                assert reply.headers["Cache-Control"] == ("private, no-cache" if private else "no-cache")


def test_a_move_changes_every_tag_of_the_game(client):
    game = create(client, seats=HUMANS, seed=5)
    tokens = {s["seat"]: s["token"] for s in game["human_seats"]}
    seat = game["to_act"][0]
    urls = [f"/games/{game['id']}{tail}" for tail in ("", "/moves", "/events", "/board.svg", "/board.txt")]
    before = {url: client.get(url, headers=bearer(tokens[seat])).headers["ETag"] for url in urls}
    play_one(client, game, tokens)
    for url in urls:
        again = client.get(url, headers={**bearer(tokens[seat]), "If-None-Match": before[url]})
        assert again.status_code == 200, url


def test_a_stream_and_errors_send_no_tag(client):
    game = create(client, seats=HUMANS)
    missing = client.get("/games/no-such-game", headers={"If-None-Match": "*"})
    assert missing.status_code == 404 and "ETag" not in missing.headers, "* matches only what exists"
    refused = client.get(
        f"/games/{game['id']}", headers={"Authorization": "Bearer nope", "If-None-Match": "*"}
    )
    assert refused.status_code == 401 and "ETag" not in refused.headers
    log = client.get(f"/games/{game['id']}/events", headers={"Accept": "application/json"})
    assert log.headers["Vary"] == "Accept, Authorization"


def test_the_contract_is_written_once_and_revalidated(client):
    served = client.get("/openapi.json")
    assert served.status_code == 200 and served.get_json()["openapi"] == "3.1.0"
    assert served.headers["Cache-Control"] == "no-cache" and "Vary" not in served.headers
    again = client.get("/openapi.json", headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == served.headers["ETag"]
    assert client.get("/openapi.json").get_data() == served.get_data()
