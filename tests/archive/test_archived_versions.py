"""Issue 54, point 4: any version of an archived game, as it was, once Redis has let it go.

Random games of every title (open seats joined, one left and taken again, a resignation with a
stand-in, bots and humans) are played to their end on a real Redis, with the archive on a real
PostgreSQL; every reader (the spectator, each seat's token, and once the game is over ``?seat=k``)
reads ``versions/{n}`` at many versions while Redis holds the game. The worker's archiver writes
it; then its log alone leaves Redis (its hash's key outlives it for a moment when they expire),
then its hash too (the grace is over): every one of those reads answers the same bytes and
headers, from the process that served the game (its checkpoints kept) and from fresh ones, which
start each replay at the archive's snapshot at or before ``n``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from engines import registry
from service.archive.records import SNAPSHOT_EVERY
from service.http.services import services
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, game_key, index_keys, log_key
from skyline.web import api_app
from worker.archiver import Archiver

from ..service.test_api import assert_problem, bearer
from ..service.test_versions import _seats_for

HEADERS = ("Content-Type", "ETag", "Cache-Control", "Vary")
RANDOM_VERSIONS = 12


@pytest.fixture
def make_app(settings, redis_client, database_url: str) -> Iterator:
    """Apps on the same Redis and archive, without the bots' queue (the test plays the bots);
    each made afresh has no checkpoint and no seat history of any game."""
    apps = []

    def made():
        app = api_app(
            replace(settings, database_url=database_url), redis_client=redis_client, enqueue_bots=False
        )
        apps.append(app)
        return app

    yield made
    for app in apps:
        services(app).games.repository.close()


class Game:
    """A game played in-process (moves through ``Games.act``, seats over HTTP), its tokens kept."""

    def __init__(self, app, title: str, rng: random.Random) -> None:
        self.app, self.client, self.rng = app, app.test_client(), rng
        self.games = services(app).games
        self.seats = _seats_for(title, rng)
        created = self.client.post("/games", json={"title": title, "seats": self.seats}).get_json()
        self.id = created["id"]
        self.tokens: dict[int, str] = {s["seat"]: s["token"] for s in created["human_seats"]}
        self.changes: set[int] = set()  # the versions a seat change made

    def seat_change(self, path: str, token: str | None = None, **body: Any) -> dict:
        reply = self.client.post(
            f"/games/{self.id}/{path}", json=body, headers=bearer(token) if token else {}
        )
        assert reply.status_code in (200, 201), reply.get_json()
        self.changes.add(self.games.read(self.id).version)
        return reply.get_json()

    def fill_seats(self) -> None:
        """Seat 1 joined, left, and joined again by another player; then every open seat."""
        first = self.seat_change("join", seat=1, name="Cy")
        self.seat_change("leave", first["token"])
        for seat in [s for s, kind in enumerate(self.seats) if kind["kind"] == "open"]:
            self.tokens[seat] = self.seat_change("join", seat=seat)["token"]

    def move(self) -> None:
        stored, state = self.games._load(self.id)
        seat = state.to_act()[0]
        move = self.rng.choice(state.legal_moves(seat))
        if stored.meta["seats"][seat]["kind"] == "bot":
            self.games.act(self.id, None, move, stored.version, bot_seat=seat, wake_bots=False)
        else:
            self.games.act(self.id, self.tokens[seat], move, stored.version, wake_bots=False)

    def play_to_the_end(self, limit: int = 5000) -> int:
        resigned = False
        for _ in range(limit):
            stored = self.games.read(self.id)
            if stored.status == "finished":
                assert resigned
                return stored.version
            if not resigned and stored.version > 12:
                humans = [s["seat"] for s in stored.meta["seats"] if s["kind"] == "human"]
                self.seat_change("resign", self.tokens[humans[-1]])
                resigned = True
                continue
            self.move()
        raise AssertionError("the game did not end")


def sample_versions(last: int, changes: set[int], rng: random.Random) -> list[int]:
    """Versions around each snapshot of the archive, the seat changes, and random ones."""
    edges = {v + d for v in range(0, last + 1, SNAPSHOT_EVERY) for d in (-1, 0, 1)}
    chosen = {0, 1, last - 1, last} | edges | changes | {c + 1 for c in changes}
    chosen |= set(rng.sample(range(last + 1), min(RANDOM_VERSIONS, last + 1)))
    return sorted(v for v in chosen if 0 <= v <= last)


def readers(tokens: dict[int, str], seat_count: int, finished: bool) -> list[tuple[str, dict[str, str]]]:
    """Each reader: the spectator, each seat's token, and once the game is over each seat by
    number (to anyone, and with another seat's token, which is ignored)."""
    found = [("", {})] + [("", bearer(token)) for _, token in sorted(tokens.items())]
    if finished:
        found += [(f"?seat={seat}", {}) for seat in range(seat_count)]
        found.append((f"?seat={seat_count - 1}", bearer(tokens[min(tokens)])))
    return found


def readers_at(version: int, who: list) -> list[int]:
    """Which readers read ``version``: the spectator and the seat's first token at every version,
    and two of the others in turn (a reader is chosen by the version, not by the order of the
    reads, so that every pass reads the same). Every reader at every version was four times the
    reads, the most of this module's time, for the same code path of each reader."""
    others = list(range(2, len(who)))
    turn = [others[(version + step) % len(others)] for step in (0, len(others) // 2)] if others else []
    return sorted({0, 1, *turn} & set(range(len(who))))


def read_versions(client, game_id: str, versions: list[int], who: list) -> dict[tuple, tuple]:
    """The readers' ``versions/{n}`` (and a few of its pictures): status, headers and bytes."""
    found = {}
    for version in versions:
        for index in readers_at(version, who):
            query, headers = who[index]
            paths = [""] + (["/board.svg", "/board.txt"] if version % 11 == 0 and index < 2 else [])
            for path in paths:
                reply = client.get(f"/games/{game_id}/versions/{version}{path}{query}", headers=headers)
                assert reply.status_code == 200, (version, query, reply.get_json())
                found[(version, path, query, index)] = (
                    tuple(reply.headers.get(name) for name in HEADERS),
                    reply.get_data(),
                )
    return found


def archive_every_due_game(redis_client, database_url: str, count: int) -> None:
    archiver = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=60
    )
    try:
        assert archiver.archive_once()["written"] == count
    finally:
        archiver.stop()


def starts_of(monkeypatch, app) -> list[tuple[int, int]]:
    """(version asked, version the replay started from), for every replay of ``app``'s reads."""
    versions = services(app).versions
    starts: list[tuple[int, int]] = []
    nearest = versions.nearest_state

    def recorded(stored, version):
        start, state = nearest(stored, version)
        starts.append((version, start))
        return start, state

    monkeypatch.setattr(versions, "nearest_state", recorded)
    return starts


def assert_same(before: dict, after: dict) -> None:
    assert after.keys() == before.keys()
    for read, answer in before.items():
        assert after[read] == answer, read


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_every_version_of_an_archived_game_reads_as_it_did_before_it_left_redis(
    make_app, redis_client, database_url: str, monkeypatch, title: str
) -> None:
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    rng = random.Random(f"archived-versions-{title}")
    served = make_app()
    game = Game(served, title, rng)
    game.fill_seats()
    last = game.play_to_the_end()
    assert last > SNAPSHOT_EVERY + 1, last  # a replay from a snapshot past the setup
    versions = sample_versions(last, game.changes, rng)
    who = readers(game.tokens, len(game.seats), finished=True)
    before = read_versions(game.client, game.id, versions, who)

    archive_every_due_game(redis_client, database_url, 1)
    redis_client.delete(log_key(game.id))  # the log gone first: the hash still says the game
    log_gone = make_app()
    assert_same(before, read_versions(log_gone.test_client(), game.id, versions[::-1], who))

    redis_client.delete(game_key(game.id))  # the grace is over
    assert not redis_client.exists(game_key(game.id), log_key(game.id))
    fresh = make_app()
    starts = starts_of(monkeypatch, fresh)
    # The last versions first: no checkpoint of this process lies below a read, only the archive's.
    backwards = sorted(versions, reverse=True)
    for app in (served, fresh):  # the process that served the game, and one that never saw it
        assert_same(before, read_versions(app.test_client(), game.id, backwards, who))
    assert starts and all(version - start < SNAPSHOT_EVERY for version, start in starts), starts
    assert any(start >= SNAPSHOT_EVERY for _, start in starts)  # not the setup, a snapshot


def test_an_aborted_game_reads_the_same_at_every_version_and_no_seat_is_public(
    make_app, redis_client, database_url: str
) -> None:
    """Aborted while waiting, after a join and a leave: every version reads the same from the
    archive, and ``?seat=`` stays refused (an aborted game's record is not public)."""
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    served = make_app()
    client = served.test_client()
    created = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]}
    ).get_json()
    game_id, token = created["id"], created["human_seats"][0]["token"]
    joined = client.post(f"/games/{game_id}/join", json={"seat": 1, "name": "Cy"}).get_json()
    assert client.post(f"/games/{game_id}/leave", headers=bearer(joined["token"])).status_code == 200
    other = client.post(f"/games/{game_id}/join", json={"seat": 2}).get_json()
    assert client.post(f"/games/{game_id}/abort", headers=bearer(token)).status_code == 200
    who = readers({0: token, 2: other["token"]}, 3, finished=False)
    before = read_versions(client, game_id, [0, 1, 2, 3, 4], who)

    archive_every_due_game(redis_client, database_url, 1)
    redis_client.delete(game_key(game_id), log_key(game_id))
    fresh = make_app().test_client()
    assert_same(before, read_versions(fresh, game_id, [0, 1, 2, 3, 4], who))
    assert_problem(fresh.get(f"/games/{game_id}/versions/2?seat=0"), 409, "seat_view_while_running")
    assert_problem(fresh.get(f"/games/{game_id}/versions/5"), 404, "version_not_found")
    assert_problem(fresh.get("/games/never-was/versions/0"), 404, "game_not_found")
