"""A player's credential and seats on real processes (issue 65): gunicorn, a bot worker and a
webhook worker on a Redis of the module's own (``credentials_live``; tests/cluster/
test_live_cluster.py runs the stream and rotation tests again on a Redis Cluster).

- a stream opened with a player key ends with ``revoked`` within a second of the key's rotation
  and of the player's deletion, in a game of every title, and nothing comes after it; a stream of
  a seat token of the same game goes on;
- two rotations at once with one key: one 201, one 401, and the surviving key works;
- a player who left a waiting game hears nothing more of it, and its webhook lists it no more;
- a resigned player's game stays in "my games" (live and finished), with its rank, readable by
  its key;
- every version of a lobby game whose joiner resigned reads the same bytes and ETag as before.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from engines import registry
from harness.live import Processes, api_command, free_port, wait_http
from service.run.embedded import EmbeddedRedis, webhook_worker_command, worker_command
from tests.conftest import LIVE_ENV
from tests.players.test_live import bearer, create, new_player
from tests.worker.test_webhooks import Receiver

ME = {"kind": "human", "player": "me"}
HUMAN = {"kind": "human"}
# Three seats: a number every title plays (Wettstreit's least).
THREE = [ME, HUMAN, HUMAN]


@pytest.fixture(scope="module")
def credentials_live(tmp_path_factory) -> Iterator[str]:
    """An API (two gunicorn workers: a rotation answered by one ends the streams of the other), a
    bot worker and a webhook worker, on a Redis of the module's own; yields the API's URL."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("credentials-redis"), appendonly=False).start()
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": server.url,
        "SKYLINE_SSE_MAX_SECONDS": "60",
        "SKYLINE_SSE_HEARTBEAT_SECONDS": "1",
        "SKYLINE_WEBHOOK_ALLOW_HTTP": "1",
        "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1",
        "SKYLINE_WEBHOOK_RETRY_SCHEDULE": "0.3,0.3,0.3",
    }
    processes = Processes(env)
    try:
        port = free_port()
        processes.start(api_command(port, workers=2))
        processes.start(worker_command())
        processes.start(webhook_worker_command())
        url = f"http://127.0.0.1:{port}"
        wait_http(url + "/readyz")
        yield url
    finally:
        processes.stop()
        server.stop()


def play_one(url: str, game_id: str, tokens: list[str]) -> int:
    """One move of a seat to act (by its token); the version it made."""
    for token in tokens:
        listing = requests.get(f"{url}/games/{game_id}/moves", headers=bearer(token), timeout=10).json()
        if listing.get("moves"):
            played = requests.post(
                f"{url}/games/{game_id}/actions",
                json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                headers=bearer(token),
                timeout=30,
            )
            assert played.status_code == 200, played.text
            return int(played.json()["version"])
    raise AssertionError("no seat of these tokens is to act")


def wait_for(predicate, limit: float = 30.0, what: str = "the condition"):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} never came")


class Stream:
    """An event stream read by a thread of its own: each (event, data, when it arrived)."""

    def __init__(self, url: str, game_id: str, key: str) -> None:
        self.events: list[tuple[str, dict, float]] = []
        self.ended = threading.Event()
        self.ended_at: float | None = None
        self._closing = False
        self._response = requests.get(
            f"{url}/games/{game_id}/events",
            headers={"Accept": "text/event-stream", **bearer(key)},
            stream=True,
            timeout=90,
        )
        assert self._response.status_code == 200, self._response.text
        self._got = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for(lambda kinds: "snapshot" in kinds, "the snapshot")

    def _read(self) -> None:
        kind = None
        try:
            for line in self._response.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    kind = line[len("event: ") :]
                elif line.startswith("data: ") and kind is not None:
                    with self._got:
                        self.events.append((kind, json.loads(line[len("data: ") :]), time.monotonic()))
                        self._got.notify_all()
        except (requests.RequestException, AttributeError, ValueError):
            if not self._closing:
                raise
        finally:
            self.ended_at = time.monotonic()
            self.ended.set()
            with self._got:
                self._got.notify_all()

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.events]

    def wait_for(self, test, what: str, limit: float = 15.0) -> None:
        with self._got:
            assert self._got.wait_for(lambda: test(self.kinds()) or self.ended.is_set(), limit), what
        assert test(self.kinds()), (what, self.kinds())

    def close(self) -> None:
        self._closing = True
        self._response.close()


def _assert_revoked_within_a_second(stream: Stream, asked_at: float, seat_stream: Stream) -> None:
    """``asked_at``: when the rotation or deletion was answered, i.e. done for its client (its
    request's own time is not the stream's: a full suite on the cluster took 1.25 s from the
    request's start)."""
    stream.wait_for(lambda kinds: "revoked" in kinds, "revoked", limit=5)
    kind, data, at = stream.events[-1]
    assert kind == "revoked", stream.kinds()
    assert at - asked_at < 1.0, f"revoked {at - asked_at:.3f} s after the answer"
    assert stream.ended.wait(5) and stream.kinds().count("revoked") == 1
    assert data["version"] == max(e[1].get("version", -1) for e in stream.events[:-1])
    assert not seat_stream.ended.is_set() and "revoked" not in seat_stream.kinds()


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_a_player_keys_stream_ends_revoked_within_a_second_of_a_rotation_and_of_a_deletion(
    credentials_live: str, title: str
) -> None:
    url = credentials_live
    ada = new_player(url)
    created = create(url, ada["key"], title, THREE)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["human_seats"]]
    seat_stream = Stream(url, game_id, tokens[1])  # a seat token's: none of this is its business
    streams: list[Stream] = [seat_stream]
    try:
        stream = Stream(url, game_id, ada["key"])
        streams.append(stream)
        version = play_one(url, game_id, tokens)  # the stream is live: it sends the entry
        stream.wait_for(lambda kinds: kinds.count("move") >= 1, "the first move")
        rotated = requests.post(f"{url}/players/me/keys", headers=bearer(ada["key"]), timeout=10)
        answered = time.monotonic()
        assert rotated.status_code == 201, rotated.text
        _assert_revoked_within_a_second(stream, answered, seat_stream)
        play_one(url, game_id, tokens)  # nothing after the revocation reaches the old stream
        assert stream.events[-1][0] == "revoked" and stream.events[-1][1]["version"] == version
        refused = requests.get(
            f"{url}/games/{game_id}/events",
            headers={"Accept": "text/event-stream", **bearer(ada["key"])},
            timeout=10,
        )
        assert refused.status_code == 401 and refused.json()["code"] == "invalid_player_key"

        # The new key's stream, then the player deleted.
        key = rotated.json()["key"]
        again = Stream(url, game_id, key)
        streams.append(again)
        assert requests.delete(f"{url}/players/me", headers=bearer(key), timeout=30).status_code == 204
        _assert_revoked_within_a_second(again, time.monotonic(), seat_stream)
        after = play_one(url, game_id, tokens)
        seat_stream.wait_for(
            lambda kinds: any(e[1].get("version") == after for e in seat_stream.events), "the seat's entry"
        )
        assert again.events[-1][0] == "revoked"
    finally:
        for opened in streams:
            opened.close()


def test_a_player_keys_stream_ends_revoked_when_its_seat_is_left(credentials_live: str) -> None:
    """The seat's loss, as for a seat token's stream: the entries as a spectator sees them, then
    ``revoked``."""
    url = credentials_live
    bo = new_player(url)
    created = create(url, None, "property", [HUMAN, {"kind": "open"}, {"kind": "open"}])
    game_id = created["id"]
    joined = requests.post(
        f"{url}/games/{game_id}/join", json={"seat": 1}, headers=bearer(bo["key"]), timeout=10
    )
    assert joined.status_code == 201, joined.text
    stream = Stream(url, game_id, bo["key"])
    try:
        left = requests.post(f"{url}/games/{game_id}/leave", headers=bearer(bo["key"]), timeout=10)
        assert left.status_code == 200, left.text
        stream.wait_for(lambda kinds: "revoked" in kinds, "revoked")
        assert stream.ended.wait(5) and stream.kinds()[-1] == "revoked"
        assert stream.events[-1][1]["version"] == left.json()["version"]
    finally:
        stream.close()


def test_two_rotations_at_once_one_201_one_401_and_the_surviving_key_works(credentials_live: str) -> None:
    url = credentials_live
    for _ in range(5):
        ada = new_player(url)
        game_id = create(url, ada["key"], "property", [ME, HUMAN])["id"]
        barrier = threading.Barrier(2)

        def rotate(key: str = ada["key"], barrier: threading.Barrier = barrier) -> requests.Response:
            barrier.wait()
            return requests.post(f"{url}/players/me/keys", headers=bearer(key), timeout=10)

        with ThreadPoolExecutor(2) as pool:
            replies = list(pool.map(lambda _: rotate(), range(2)))
        assert sorted(reply.status_code for reply in replies) == [201, 401], [r.text for r in replies]
        refused = next(reply for reply in replies if reply.status_code == 401)
        assert refused.json()["code"] == "invalid_player_key"
        survivor = next(reply for reply in replies if reply.status_code == 201).json()["key"]
        shown = requests.get(f"{url}/games/{game_id}", headers=bearer(survivor), timeout=10)
        assert shown.status_code == 200 and shown.json()["you"] == 0
        mine = requests.get(f"{url}/players/me/games", headers=bearer(survivor), timeout=10).json()
        assert [game["id"] for game in mine["games"]] == [game_id]
        assert (
            requests.get(f"{url}/games/{game_id}", headers=bearer(ada["key"]), timeout=10).status_code == 401
        )


def test_a_player_who_left_hears_nothing_more_of_the_game_and_lists_it_no_more(credentials_live: str) -> None:
    url = credentials_live
    bo = new_player(url)
    hers, games_hook = Receiver(), Receiver()
    try:
        put = requests.put(
            f"{url}/players/me/webhook", json={"url": hers.url}, headers=bearer(bo["key"]), timeout=10
        )
        assert put.status_code == 200, put.text
        created = create(
            url,
            None,
            "property",
            [HUMAN, {"kind": "open"}, {"kind": "open"}],
            webhooks=[{"url": games_hook.url}],
        )
        game_id = created["id"]
        joined = requests.post(
            f"{url}/games/{game_id}/join", json={"seat": 1}, headers=bearer(bo["key"]), timeout=10
        )
        assert joined.status_code == 201, joined.text
        left = requests.post(f"{url}/games/{game_id}/leave", headers=bearer(bo["key"]), timeout=10)
        assert left.status_code == 200, left.text
        # The seat is someone else's now, and the game starts: its notices go to the game's hook.
        requests.post(f"{url}/games/{game_id}/join", json={"seat": 1}, timeout=10).raise_for_status()
        third = requests.post(f"{url}/games/{game_id}/join", json={"seat": 2}, timeout=10).json()
        assert third["status"] == "active"

        def game_notices() -> list[dict]:
            return [json.loads(body) for _, body in games_hook.received]

        wait_for(
            lambda: (
                any(n["type"] == "game.started" for n in game_notices())
                and any(n["type"] == "game.turn" for n in game_notices())
            ),
            what="the game's own notices of the start",
        )
        # The webhook worker sends one game's notices in order: the game's hook has them all, so
        # any the player's would get are sent too.
        later = [
            json.loads(body)
            for _, body in hers.received
            if json.loads(body)["data"].get("game_id") == game_id
            and json.loads(body)["data"]["version"] > joined.json()["version"]
        ]
        assert later == [], later
        kinds = {json.loads(body)["type"] for _, body in hers.received}
        assert not kinds & {"game.started", "game.turn"}, kinds
        listed = requests.get(f"{url}/players/me/webhook", headers=bearer(bo["key"]), timeout=10).json()
        assert all(delivery["game_id"] != game_id for delivery in listed["deliveries"]), listed
        mine = requests.get(f"{url}/players/me/games", headers=bearer(bo["key"]), timeout=10).json()
        assert all(game["id"] != game_id for game in mine["games"])
    finally:
        hers.close()
        games_hook.close()


def test_a_resigned_players_game_stays_in_my_games_with_its_rank_and_readable_by_its_key(
    credentials_live: str,
) -> None:
    url = credentials_live
    ada = new_player(url)
    created = create(url, ada["key"], "property", THREE, seed=3)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["human_seats"]]
    resigned = requests.post(f"{url}/games/{game_id}/resign", headers=bearer(ada["key"]), timeout=10)
    assert resigned.status_code == 200 and resigned.json()["status"] == "active", resigned.text

    live_games = requests.get(f"{url}/players/me/games", headers=bearer(ada["key"]), timeout=10).json()
    listed = {game["id"]: game for game in live_games["games"]}
    assert listed[game_id]["my_seats"] == [0] and listed[game_id]["status"] == "active"
    assert not listed[game_id]["my_turn"]  # the stand-in bot acts there, not the player
    # The stand-in bot may move between the two reads: compare them at one version.
    for _ in range(100):
        by_key = requests.get(f"{url}/games/{game_id}", headers=bearer(ada["key"]), timeout=10)
        by_token = requests.get(f"{url}/games/{game_id}", headers=bearer(tokens[0]), timeout=10)
        if by_key.status_code != 200 or by_key.json()["version"] == by_token.json()["version"]:
            break
    assert by_key.status_code == 200, by_key.text
    assert by_key.json() == by_token.json() and by_key.json()["you"] == 0
    moved = requests.post(
        f"{url}/games/{game_id}/actions",
        json={"move": {}, "version": 0},
        headers=bearer(ada["key"]),
        timeout=10,
    )
    assert moved.status_code == 409 and moved.json()["code"] == "seat_resigned"

    for token in tokens[1:]:  # everyone resigns: the bots play it out
        assert (
            requests.post(f"{url}/games/{game_id}/resign", headers=bearer(token), timeout=10).status_code
            == 200
        )
    wait_for(
        lambda: requests.get(f"{url}/games/{game_id}", timeout=10).json()["status"] == "finished",
        limit=120,
        what="the end of the game",
    )
    finished = requests.get(
        f"{url}/players/me/games?status=finished", headers=bearer(ada["key"]), timeout=10
    ).json()
    game = next(game for game in finished["games"] if game["id"] == game_id)
    assert game["my_seats"] == [0] and game["my_rank"] == 3  # the first to resign ranks last
    last = requests.get(f"{url}/games/{game_id}", headers=bearer(ada["key"]), timeout=10)
    assert last.status_code == 200 and last.json()["you"] == 0
    assert (
        last.json()["view"]
        == requests.get(f"{url}/games/{game_id}", headers=bearer(tokens[0]), timeout=10).json()["view"]
    )


def _every_version(url: str, game_id: str, last: int, token: str | None) -> list[tuple[bytes, str]]:
    found = []
    session = requests.Session()
    for version in range(last + 1):
        reply = session.get(
            f"{url}/games/{game_id}/versions/{version}", headers=bearer(token) if token else {}, timeout=10
        )
        assert reply.status_code == 200, (version, reply.text)
        found.append((reply.content, reply.headers["ETag"]))
    return found


def test_every_version_of_a_lobby_game_reads_the_same_after_its_joiner_resigns(credentials_live: str) -> None:
    url = credentials_live
    bo = new_player(url)
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "for Bo"}, {"kind": "open"}]
    created = create(url, None, "property", seats)
    game_id = created["id"]
    joined = requests.post(
        f"{url}/games/{game_id}/join", json={"seat": 1, "name": "Bo"}, headers=bearer(bo["key"]), timeout=10
    ).json()
    third = requests.post(f"{url}/games/{game_id}/join", json={"seat": 2}, timeout=10).json()
    tokens = [created["human_seats"][0]["token"], joined["token"], third["token"]]
    last = third["version"]
    for _ in range(3):
        last = play_one(url, game_id, tokens)
    readers: list[str | None] = [None, *tokens, bo["key"]]
    before = {reader: _every_version(url, game_id, last, reader) for reader in readers}
    shown = json.loads(before[None][0][0])
    assert shown["seats"][1] == {"seat": 1, "kind": "open", "name": "for Bo"}  # as created

    resigned = requests.post(f"{url}/games/{game_id}/resign", headers=bearer(bo["key"]), timeout=10)
    assert resigned.status_code == 200, resigned.text
    after = {reader: _every_version(url, game_id, last, reader) for reader in readers}
    for reader in readers:
        for version, (was, now) in enumerate(zip(before[reader], after[reader], strict=True)):
            assert was == now, (reader, version, was[0], now[0])
