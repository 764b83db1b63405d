"""Hidden information before the start, on real processes (gunicorn, an RQ worker, a real Redis):
the titles that deal at creation (Property, Fifth Avenue, New York City) refuse a creator's seed
when seats are open, and a player who joins, reads everything a seat may read, and leaves learns
nothing of the hand the seat's next holder plays with (P-WAIT, FA-WAIT, NYC-WAIT), whether it
joined for a seat token or with its player key (whose stream ends with ``revoked`` as the token's).

The truth is the engine's: the game's seed read from Redis, dealt again by the engine, gives
the view of the seat's final holder; nothing the leaver was sent carries its hidden facts.
"""

from __future__ import annotations

import json
import threading
import time

import orjson
import pytest
import redis
import requests

import boards
from engines import registry
from service.store.keys import GAME_KEYS_PATTERN, LOBBY, game_key
from service.store.partitioned import PartitionedIndex

from .conftest import Stack

DEALT_AT_CREATION = ("property", "fifth-avenue", "new-york-city")
THREE_SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "open"}, {"kind": "open"}]
MOVES_AFTER_THE_START = 6


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """One API and one bot worker on a Redis of their own: the refusal is judged by what it
    leaves in Redis, which no other test's games may change meanwhile."""
    own = Stack(
        tmp_path_factory.mktemp("waiting-games"),
        SKYLINE_SSE_MAX_SECONDS="60",
        SKYLINE_SSE_HEARTBEAT_SECONDS="1",
    )
    try:
        url, _ = own.api()
        own.worker()
        yield url, redis.Redis.from_url(own.redis.url)
    finally:
        own.close()


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _get(url: str, path: str, token: str | None = None) -> requests.Response:
    reply = requests.get(url + path, headers=_auth(token), timeout=10)
    assert reply.status_code == 200, (path, reply.text)
    return reply


def _games_stored(client: redis.Redis) -> int:
    return sum(1 for _ in client.scan_iter(match=GAME_KEYS_PATTERN, count=1000))


class Stream:
    """An event stream read by a thread of its own: every (event, data) until the server ends it."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        self.events: list[tuple[str, dict]] = []
        self._closing = False
        self.opened = threading.Event()
        self.ended = threading.Event()
        self._response = requests.get(
            f"{url}/games/{game_id}/events",
            headers={"Accept": "text/event-stream", **_auth(token)},
            stream=True,
            timeout=90,
        )
        assert self._response.status_code == 200, self._response.text
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self.opened.wait(15), "the stream sent no snapshot"

    def _read(self) -> None:
        kind = None
        try:
            for line in self._response.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    kind = line[len("event: ") :]
                elif line.startswith("data: ") and kind is not None:
                    self.events.append((kind, json.loads(line[len("data: ") :])))
                    self.opened.set()
        except (requests.RequestException, AttributeError, ValueError):
            if not self._closing:  # closed by the test while reading: the end it asked for
                raise
        finally:
            self.ended.set()

    def close(self) -> None:
        self._closing = True
        self._response.close()


def _carries(body, value) -> bool:
    """Whether ``value`` (a hand, a reserve) is written anywhere in ``body`` (parsed JSON)."""
    return json.dumps(value) in json.dumps(body)


def _hidden_facts(seat_view: dict, spectator_view: dict, seat: int) -> dict:
    """What the seat's own view shows of it and the spectator's does not (non-empty values)."""
    mine = next(p for p in seat_view["players"] if p["seat"] == seat)
    public = next(p for p in spectator_view["players"] if p["seat"] == seat)
    return {k: v for k, v in mine.items() if public.get(k) != v and v not in ([], {}, None)}


def _holder_only_lines(shown: dict, spectator_view: dict) -> list[str]:
    """The lines of the board text that the holder's view draws and the spectator's does not."""
    public = set(boards.render_text({**shown, "view": spectator_view}).splitlines())
    return [line.strip() for line in boards.render_text(shown).splitlines() if line not in public]


@pytest.mark.parametrize("title", DEALT_AT_CREATION)
def test_a_creators_seed_is_refused_while_seats_are_open_and_nothing_is_created(stack, title):
    url, client = stack
    games, listed = _games_stored(client), PartitionedIndex(client, LOBBY).size()
    body = {"title": title, "seed": 7, "listed": True, "seats": THREE_SEATS}
    refused = requests.post(f"{url}/games", json=body, timeout=10)
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert problem["code"] == "seed_with_open_seats" and "seed" in problem["detail"]
    assert "predicts every hand" in problem["detail"]
    assert (
        _games_stored(client) == games and PartitionedIndex(client, LOBBY).size() == listed
    )  # nothing changed
    # The same game without a seed is created, waiting; with every seat filled a seed is taken.
    body.pop("seed")
    assert requests.post(f"{url}/games", json=body, timeout=10).json()["status"] == "waiting"
    filled = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    seeded = requests.post(f"{url}/games", json={"title": title, "seed": 7, "seats": filled}, timeout=10)
    assert seeded.status_code == 201 and seeded.json()["status"] == "active", seeded.text


@pytest.mark.parametrize("credential", ["seat token", "player key"])
@pytest.mark.parametrize("title", DEALT_AT_CREATION)
def test_join_read_and_leave_learns_nothing_of_the_next_holders_hand(stack, title, credential):
    url, client = stack
    created = requests.post(f"{url}/games", json={"title": title, "seats": THREE_SEATS}, timeout=10).json()
    game_id, ada = created["id"], created["human_seats"][0]["token"]
    assert created["status"] == "waiting"

    # The leaver: joins seat 1 (with its player key, or for a seat token), opens a stream, reads
    # all a seat may read, and leaves.
    if credential == "player key":
        leaver = requests.post(f"{url}/players", timeout=10).json()["key"]
        joined = requests.post(
            f"{url}/games/{game_id}/join", json={"seat": 1}, headers=_auth(leaver), timeout=10
        )
        assert joined.status_code == 201, joined.text
    else:
        leaver = requests.post(f"{url}/games/{game_id}/join", json={"seat": 1}, timeout=10).json()["token"]
    stream = Stream(url, game_id, leaver)
    read = {
        "game": _get(url, f"/games/{game_id}", leaver).json(),
        "events": _get(url, f"/games/{game_id}/events", leaver).json(),
        "moves": _get(url, f"/games/{game_id}/moves", leaver).json(),
    }
    board_txt = _get(url, f"/games/{game_id}/board.txt", leaver).text
    board_svg = _get(url, f"/games/{game_id}/board.svg", leaver).text
    creator_waiting = _get(url, f"/games/{game_id}", ada).json()
    spectator_events = _get(url, f"/games/{game_id}/events").json()
    left = requests.post(f"{url}/games/{game_id}/leave", headers=_auth(leaver), timeout=10)
    assert left.status_code == 200, left.text

    # The next holder of seat 1 and a third player join: the game starts.
    holder = requests.post(f"{url}/games/{game_id}/join", json={"seat": 1}, timeout=10).json()["token"]
    holders_stream = Stream(url, game_id, holder)
    third = requests.post(f"{url}/games/{game_id}/join", json={"seat": 2}, timeout=10).json()
    assert third["status"] == "active"
    holders_view = _get(url, f"/games/{game_id}", holder).json()
    assert holders_view["version"] == third["version"] and holders_view["you"] == 1

    # The truth: the deal made at creation, from the seed the server drew.
    meta = orjson.loads(client.hget(game_key(game_id), "meta"))
    dealt = registry.get(title).setup(3, meta["options"], meta["seed"])
    seat_view, spectator_view = (json.loads(json.dumps(dealt.view(s))) for s in (1, None))
    assert holders_view["view"] == seat_view  # the final holder holds the deal
    hidden = _hidden_facts(seat_view, spectator_view, 1)
    assert hidden, "the seat was dealt nothing hidden: this title proves nothing here"

    # What the leaver (and the creator) read while the game waited is the spectator's.
    for shown in (read["game"], creator_waiting):
        assert shown["status"] == "waiting" and shown["view"] == spectator_view
    assert read["game"]["you"] == 1 and creator_waiting["you"] == 0
    assert read["moves"]["moves"] == [] and read["moves"]["to_act"] == []
    assert read["events"]["events"] == spectator_events["events"]
    for key, value in hidden.items():
        for what, body in read.items():
            assert not _carries(body, value), (what, key, value)
    for line in _holder_only_lines(holders_view, spectator_view):
        assert line not in board_txt and line not in board_svg, line

    # A few moves, so that the seats' own events (cards drawn) are in the log.
    _play_first_moves(url, game_id, {0: ada, 1: holder, 2: third["token"]}, MOVES_AFTER_THE_START)
    public_log = {e["version"]: e for e in _get(url, f"/games/{game_id}/events").json()["events"]}
    holders_log = _get(url, f"/games/{game_id}/events", holder).json()["events"]

    # The leaver's stream: the snapshot and the entries as a spectator sees them, then revoked,
    # and the end; never an entry of the holder's redaction, never a hidden fact.
    ended = stream.ended.wait(15)
    assert stream.events[0][0] == "snapshot" and stream.events[0][1]["view"] == spectator_view
    for kind, entry in stream.events[1:]:
        assert kind == "revoked" or entry == public_log[entry["version"]], (kind, entry)
    for value in hidden.values():
        assert not any(_carries(data, value) for _, data in stream.events)
    assert ended, "the leaver's stream is still open after its seat was taken"
    kinds = [kind for kind, _ in stream.events]
    assert kinds[-1] == "revoked" and kinds.count("revoked") == 1, kinds
    assert stream.events[-1][1]["version"] <= third["version"]  # it ended before any move
    again = requests.get(
        f"{url}/games/{game_id}/events", headers={"Accept": "text/event-stream", **_auth(leaver)}, timeout=10
    )
    if credential == "player key":  # the key still names its player, who holds no seat here
        assert again.status_code == 403 and again.json()["code"] == "player_not_seated"
    else:
        assert again.status_code == 401 and again.json()["code"] == "invalid_token"

    # The final holder's stream goes on past the start, with the seat's own redaction.
    last = holders_log[-1]["version"]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and holders_stream.events[-1][1].get("version") != last:
        time.sleep(0.1)
    opened_at = holders_stream.events[0][1]["version"]
    streamed_moves = [entry for kind, entry in holders_stream.events if kind == "move"]
    assert streamed_moves == [e for e in holders_log if e["version"] > opened_at]
    stream.close()
    holders_stream.close()


def _play_first_moves(url: str, game_id: str, tokens: dict[int, str], count: int) -> None:
    """The first listed move of a human seat to act, ``count`` times (bots have none here)."""
    played = 0
    deadline = time.monotonic() + 60
    while played < count and time.monotonic() < deadline:
        shown = _get(url, f"/games/{game_id}").json()
        if shown["status"] != "active":
            return
        seat = shown["to_act"][0]
        listing = _get(url, f"/games/{game_id}/moves", tokens[seat]).json()
        reply = requests.post(
            f"{url}/games/{game_id}/actions",
            json={"move": listing["moves"][0]["move"], "version": listing["version"]},
            headers=_auth(tokens[seat]),
            timeout=30,
        )
        assert reply.status_code == 200, reply.text
        played += 1
    assert played == count, f"only {played} moves were played"
