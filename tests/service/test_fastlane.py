"""The fast lane answers GET moves and POST actions exactly as the Flask views would.

Two games from the same seed are played side by side, one through the app as served (the
fast lane in front) and one through the Flask app alone; every request, ordinary or not, must
get the same status, body and headers from both, and the ordinary ones must really have been
answered by the fast lane (else this compares Flask with itself).
"""

from __future__ import annotations

import logging
import random

import pytest
from werkzeug.test import Client
from werkzeug.wrappers import Response

from engines import registry

SEED = 7
REQUEST_ID = {"X-Request-ID": "same-id"}


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


class Pair:
    """The same game twice: ``fast`` through the served app, ``flask`` through Flask alone."""

    def __init__(self, app, title: str, seats: int) -> None:
        lane = app.extensions["skyline.fastlane"]
        self.delegated: list[str] = []
        flask_app = lane.flask_app

        def counting(environ, start_response):
            self.delegated.append(environ["PATH_INFO"])
            return flask_app(environ, start_response)

        lane.flask_app = counting
        self.fast = Client(app, Response)
        self.flask = Client(flask_app, Response)
        body = {"title": title, "seed": SEED, "seats": [{"kind": "human"}] * seats}
        self.games = {}
        for name, client in (("fast", self.fast), ("flask", self.flask)):
            created = client.post("/games", json=body).get_json()
            self.games[name] = (created["id"], {s["seat"]: s["token"] for s in created["human_seats"]})

    def both(self, method: str, tail: str, seat: int | None = None, token: str | None = None, **kwargs):
        """The same request to both games; ``seat`` picks that seat's token in each."""
        answers = []
        base = {**REQUEST_ID, **kwargs.pop("headers", {})}
        for name, client in (("fast", self.fast), ("flask", self.flask)):
            game_id, tokens = self.games[name]
            headers = dict(base)
            if seat is not None:
                headers["Authorization"] = f"Bearer {tokens[seat]}"
            elif token is not None:
                headers["Authorization"] = token
            path = f"/games/{game_id}{tail}" if not tail.startswith("//") else tail[1:]
            answers.append(client.open(path, method=method, headers=headers, **kwargs))
        fast, flask = answers
        assert fast.status_code == flask.status_code, (method, tail, fast.get_data(), flask.get_data())
        assert fast.get_data() == flask.get_data(), (method, tail)
        assert fast.headers.get("Content-Type") == flask.headers.get("Content-Type")
        assert fast.headers.get("X-Request-ID") == flask.headers.get("X-Request-ID") == "same-id"
        assert fast.headers.get("Retry-After") == flask.headers.get("Retry-After")
        for validator in ("ETag", "Cache-Control", "Vary", "Content-Language"):
            assert fast.headers.get(validator) == flask.headers.get(validator), validator
        return fast


def play_and_compare(pair: Pair, title: str, seats: int, moves: int) -> None:
    local = registry.get(title).setup(seats, registry.get(title).normalize_options(seats, {}), SEED)
    rng = random.Random(SEED)
    for version in range(moves):
        if local.is_over():
            break
        seat = local.to_act()[0]
        before = len(pair.delegated)
        listing = pair.both("GET", "/moves", seat=seat)
        assert listing.status_code == 200 and listing.get_json()["version"] == version
        spectator = pair.both("GET", "/moves")
        # Revalidated: the same listing is not modified, another's tag or a stale one is.
        for tag, status in ((listing.headers["ETag"], 304), (f'"x", W/{listing.headers["ETag"]}', 304)):
            assert pair.both("GET", "/moves", seat=seat, headers={"If-None-Match": tag}).status_code == status
        assert pair.both("GET", "/moves", headers={"If-None-Match": "*"}).status_code == 304
        stale = {"If-None-Match": spectator.headers["ETag"]}
        assert pair.both("GET", "/moves", seat=seat, headers=stale).status_code == 200
        pair.both("POST", "/actions", seat=seat, json={"move": {"type": "no_such_move"}, "version": version})
        pair.both("POST", "/actions", seat=seat, json={"move": {"type": "pass"}, "version": version + 5})
        pair.both("POST", "/actions", json={"move": {}, "version": version})  # no token
        move = rng.choice(local.legal_moves(seat))
        local.apply(seat, move)
        body = {"move": move} if version % 3 == 2 else {"move": move, "version": version}
        key = {"Idempotency-Key": f"k{version}"} if version % 4 == 1 else {}
        played = pair.both("POST", "/actions", seat=seat, json=body, headers=key)
        assert played.status_code == 200, played.get_json()
        if key:
            replayed = pair.both("POST", "/actions", seat=seat, json=body, headers=key)
            assert replayed.get_json()["replayed"] is True
        assert pair.delegated[before:] == [], "the fast lane answered every ordinary request"


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_every_title_plays_alike_through_the_fast_lane_and_through_flask(app, title):
    seats = max(2, registry.get(title).min_seats)
    pair = Pair(app, title, seats)
    play_and_compare(pair, title, seats, moves=12)


def test_refusals_of_the_fast_lane_are_flasks(app):
    pair = Pair(app, "property", 2)
    before = len(pair.delegated)
    pair.both("GET", "/moves", token="Bearer not-a-seat")  # 401 invalid_token
    pair.both("GET", "/moves", token="Basic abc")  # 401 malformed_authorization
    pair.both("POST", "/actions", token="Bearer not-a-seat", json={"move": {}, "version": 0})
    pair.both("GET", "//games/no-such-game/moves")  # 404
    pair.both("POST", "//games/no-such-game/actions", token="Bearer x", json={"move": {}, "version": 0})
    assert pair.delegated[before:] == []


UNUSUAL = [
    ("a query string (dry_run)", {"query_string": "dry_run=true"}),
    ("malformed JSON", {"data": b'{"move": ', "content_type": "application/json"}),
    ("an unknown field", {"json": {"move": {"type": "pass"}, "version": 0, "extra": 1}}),
    ("a version as a string", {"json": {"move": {"type": "pass"}, "version": "0"}}),
    ("a null version", {"json": {"move": {"type": "pass"}, "version": None}}),
    ("a version past 64 bits", {"json": {"move": {"type": "pass"}, "version": 2**64}}),
    ("a negative version", {"json": {"move": {"type": "pass"}, "version": -1}}),
    ("a version of 0.0", {"json": {"move": {"type": "pass"}, "version": 0.0}}),
    ("a move that is a list", {"json": {"move": [1], "version": 0}}),
    ("no move", {"json": {"version": 0}}),
    ("a body that is a list", {"json": [1]}),
    ("text/plain", {"data": b'{"move": {}}', "content_type": "text/plain"}),
    ("no body", {}),
    ("too deep", {"data": b"[" * 100 + b"]" * 100, "content_type": "application/json"}),
    ("an empty Idempotency-Key", {"json": {"move": {}, "version": 0}, "headers": {"Idempotency-Key": ""}}),
    (
        "a long Idempotency-Key",
        {"json": {"move": {}, "version": 0}, "headers": {"Idempotency-Key": "k" * 129}},
    ),
]


@pytest.mark.parametrize("case", UNUSUAL, ids=[name for name, _ in UNUSUAL])
def test_unusual_action_requests_go_on_to_flask_with_their_body(app, case):
    _, request = case
    pair = Pair(app, "property", 2)
    seat = registry.get("property").setup(2, {}, SEED).to_act()[0]
    before = len(pair.delegated)
    answer = pair.both("POST", "/actions", seat=seat, **request)
    assert pair.delegated[before:], "Flask answered"
    if request.get("query_string"):
        assert answer.status_code == 200 or answer.get_json()["code"] != "malformed_json"
    else:
        assert answer.status_code in (400, 415, 422), answer.get_json()


def test_the_fast_lane_logs_and_counts_as_flask_does(app, caplog):
    pair = Pair(app, "property", 2)
    seat = registry.get("property").setup(2, {}, SEED).to_act()[0]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="skyline.access"):
        pair.both("GET", "/moves", seat=seat)
        pair.both("POST", "/actions", seat=seat, json={"move": {"type": "x"}, "version": 0})
    lines = [r for r in caplog.records if r.name == "skyline.access"]
    fields = ("method", "route", "status", "client", "request_id")
    fast, flask = lines[0::2], lines[1::2]
    assert [[getattr(r, f) for f in fields] for r in fast] == [[getattr(r, f) for f in fields] for r in flask]
    assert [r.game_id for r in fast] == [pair.games["fast"][0]] * 2
    assert [r.route for r in fast] == ["/games/{game_id}/moves", "/games/{game_id}/actions"]
