"""Every reader's bytes stay the same whatever form a game is stored in (issue 62).

A seeded game of every title is played in-process to its end on a clock the test sets (so every
``at``, deadline and id is the same on every run), with every seat a human's, a clock for half of
them, a turn played for a seat whose time ran out (the service's own event before the engine's),
and a resignation with a stand-in where there are more than two seats. Every reader (the spectator
and each seat) reads the game, its moves, its events (JSON and the event stream), its pictures, its
record and versions along the way; each reply's bytes are hashed and compared with
``same_replies.json``, written by the release before the compact log (the storage changed, no
byte of any reply did). The log as the service reads it (what the webhooks' notices are made of)
is hashed too. tests/archive/test_archived_same_replies.py reads the same games once archived.

``SKYLINE_WRITE_SAME_REPLIES=1`` writes the file again: only ever from a release whose replies
are the reference. Written again once since (issue 64): the English of some move labels was
corrected as they became messages ("an apartment block", "1 écu", "Bid 2 coins", a list's "and",
a mortgaged square said so, a face-up tower "from the face-up pile"); every difference was a
label of ``/moves``, compared one by one before the file was written.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from engines import registry
from service.http.services import services
from service.play.clocks import Clocks
from service.run.embedded import EmbeddedRedis
from skyline.web import api_app

from .test_api import bearer

GOLDEN = Path(__file__).with_name("same_replies.json")
WRITE = os.environ.get("SKYLINE_WRITE_SAME_REPLIES") == "1"
MOVES_CAP = 1500
# Versions read while the game is played (every reader); versions/{n} at the end read a sample.
READ_EVERY = 40
VERSIONS_READ = 12


class Clock:
    """The time every module reads, moved on by the test only."""

    def __init__(self) -> None:
        self.now = 1_760_000_000.25

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 7.125) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    fixed = Clock()
    monkeypatch.setattr(time, "time", fixed)
    return fixed


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A Redis of the module's own: the session's is shared with the live servers, whose sweeper
    expires idle games by the real clock, and this game's clock is the test's, a year behind (a
    full suite saw it expire a game mid-play)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def quiet_app(settings, redis_client):
    return api_app(replace(settings), redis_client=redis_client, enqueue_bots=False)


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:24]


class Reader:
    def __init__(self, app, client, game_id: str, seen: dict[str, str]) -> None:
        self.app, self.client, self.game_id, self.seen = app, client, game_id, seen
        self.tokens: dict[int, str] = {}

    def readers(self) -> list[tuple[str, dict[str, str]]]:
        return [("spectator", {})] + [(f"seat{s}", bearer(t)) for s, t in sorted(self.tokens.items())]

    def get(self, name: str, path: str, headers: dict[str, str]) -> bytes:
        reply = self.client.get(path, headers=headers)
        assert reply.status_code == 200, (path, reply.get_data()[:300])
        body = reply.get_data()
        self.seen[name] = _digest(body)
        return body

    def read_now(self, label: str) -> dict:
        shown = {}
        for who, headers in self.readers():
            body = self.get(f"{label} game {who}", f"/games/{self.game_id}", headers)
            shown = shown or orjson.loads(body)
            version = shown["version"]
            self.get(
                f"{label} events {who}", f"/games/{self.game_id}/events?since={max(version - 3, 0)}", headers
            )
            if who != "spectator":
                self.get(f"{label} moves {who}", f"/games/{self.game_id}/moves", headers)
        return shown

    def read_at_end(self, rng: random.Random) -> None:
        final = orjson.loads(self.client.get(f"/games/{self.game_id}").get_data())
        last = final["version"]
        sample = sorted({0, 1, last, last - 1, *(rng.randint(0, last) for _ in range(VERSIONS_READ))})
        for who, headers in self.readers():
            self.get(f"end game {who}", f"/games/{self.game_id}", headers)
            self.get(f"end events {who}", f"/games/{self.game_id}/events", headers)
            for after in (0, last // 2):
                self.get(
                    f"end stream after {after} {who}",
                    f"/games/{self.game_id}/events",
                    {**headers, "Accept": "text/event-stream", "Last-Event-ID": str(after)},
                )
            self.get(
                f"end stream {who}",
                f"/games/{self.game_id}/events",
                {**headers, "Accept": "text/event-stream"},
            )
            self.get(f"end board.svg {who}", f"/games/{self.game_id}/board.svg", headers)
            self.get(f"end board.txt {who}", f"/games/{self.game_id}/board.txt", headers)
            for n in sample:
                self.get(f"end versions/{n} {who}", f"/games/{self.game_id}/versions/{n}", headers)
            self.get(
                f"end versions/{sample[1]}/board.txt {who}",
                f"/games/{self.game_id}/versions/{sample[1]}/board.txt",
                headers,
            )
        for seat in range(len(final["seats"])):
            for n in sample[:4]:
                self.get(
                    f"end versions/{n}?seat={seat}", f"/games/{self.game_id}/versions/{n}?seat={seat}", {}
                )
        if final["status"] == "finished":
            self.get("end record", f"/games/{self.game_id}/record", {})
        games = services(self.app).games
        stored = games.read(self.game_id)
        self.seen["end log"] = _digest(orjson.dumps(games.log(stored)))


def _play(app, clock: Clock, title: str, ended: dict | None = None) -> dict[str, str]:
    """The game of ``title`` played and read; ``ended``: given the game's reader and the state of
    its random numbers before its last reads (the archived side reads it again, as they were)."""
    rng = random.Random(f"same-replies-b-{title}")
    bounds = registry.get(title).catalog_entry()["seats"]
    count = rng.randint(bounds["min"], min(bounds["max"], 3))
    with_clock = rng.random() < 0.5 or title == "fresh-fish"
    client = app.test_client()
    seen: dict[str, str] = {}
    body = {"title": title, "seats": [{"kind": "human", "name": f"P{i}"} for i in range(count)]}
    body["seed"] = rng.randrange(2**40)
    if with_clock:
        body["clock"] = {"turn_seconds": 600, "on_timeout": "stand_in", "timeouts_to_resign": 3}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    game = Reader(app, client, game_id, seen)
    game.tokens = {s["seat"]: s["token"] for s in created.get_json()["human_seats"]}
    games = services(app).games
    resigned = timed_out = False
    for move_number in range(MOVES_CAP):
        clock.tick()
        stored, state = games._load(game_id)
        if stored.status != "active":
            break
        if stored.version % READ_EVERY == 0:
            game.read_now(f"v{stored.version}")
        seat = state.to_act()[0]
        kind = stored.meta["seats"][seat]["kind"]
        if with_clock and not timed_out and move_number == 9 and kind == "human":
            clocks = Clocks(games, services(app).seats)
            assert clocks.expire(game_id, b"", now=clock.now + 10_000) == "stood_in"
            timed_out = True
            continue
        if not resigned and count > 2 and move_number == 17:
            quitter = max(game.tokens)
            reply = client.post(f"/games/{game_id}/resign", headers=bearer(game.tokens[quitter]))
            assert reply.status_code == 200, reply.get_json()
            resigned = True
            continue
        if kind == "bot":
            games.act(
                game_id,
                None,
                rng.choice(state.legal_moves(seat)),
                stored.version,
                bot_seat=seat,
                wake_bots=False,
            )
            continue
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(game.tokens[seat])).get_json()
        move = rng.choice(listing["moves"])["move"]
        moved = client.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": listing["version"]},
            headers=bearer(game.tokens[seat]),
        )
        assert moved.status_code == 200, moved.get_json()
        seen[f"v{listing['version'] + 1} move reply"] = _digest(moved.get_data())
    clock.tick()
    assert games.read(game_id).status == "finished", (title, games.read(game_id).version)
    if ended is not None:
        ended[title] = (game, rng.getstate())
    game.read_at_end(rng)
    return seen


def test_every_reply_is_the_same_bytes_as_the_reference(quiet_app, clock, monkeypatch):
    ids = iter(f"same{title[:6].replace('-', '')}{n}" for title in sorted(registry.GAMES) for n in range(3))
    monkeypatch.setattr("service.play.games.new_game_id", lambda beside=None: next(ids))
    seen = {title: _play(quiet_app, clock, title) for title in sorted(registry.GAMES)}
    if WRITE:
        GOLDEN.write_bytes(orjson.dumps(seen, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    expected = orjson.loads(GOLDEN.read_bytes())
    assert seen.keys() == expected.keys()
    for title, replies in expected.items():
        assert seen[title].keys() == replies.keys(), title
        changed = [name for name, digest in replies.items() if seen[title][name] != digest]
        assert not changed, (title, changed[:10], len(changed))
