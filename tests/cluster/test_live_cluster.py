"""The live tests on a Redis Cluster of three primaries and three replicas (issue 56): the service
as an operator runs it, `skyline serve` (gunicorn, two bot workers with their sweepers, a webhook
worker) with ``SKYLINE_REDIS_CLUSTER=1``, RQ on a standalone Redis and the archive on
``DATABASE_URL``. The live tests of one Redis are imported
and run here unchanged (tests/cluster/conftest.py's ``live`` and ``hooked`` stand on the cluster),
but the complete games, whole here for two titles only (``WHOLE_ON_THE_CLUSTER``);
the tests below add what only a cluster has: games whose keys spread over every primary, the
lobby and two sweepers reading every partition on all three."""

from __future__ import annotations

import random
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from engines import registry
from service.store.keys import DEADLINES, GAME_KEYS_PATTERN, game_key, index_of, log_key
from service.store.logform import decoded

# Not imported: test_live_event_stream_snapshot_moves_and_resume, which stands on a stack of its
# own on one Redis (`own_live`), so here it ran a second time off the cluster; the cluster's
# streams are test_event_streams_on_games_of_every_primary_receive_every_move below.
from tests.contract.test_live_games import BOT, HUMAN, OPEN, Client, check_views, play
from tests.contract.test_live_games import (
    test_complete_games_against_bots_and_between_humans as complete_games_on_one_redis,
)
from tests.ops.test_deadlines import wait_for
from tests.ops.test_race_http import (  # noqa: F401
    test_fifty_clients_racing_over_http_land_exactly_one_move_per_version,
    test_fifty_identical_requests_with_one_idempotency_key_all_get_the_first_reply,
)
from tests.ops.test_seats_live import (  # noqa: F401
    test_a_left_seat_is_open_again_and_its_token_is_refused,
    test_a_rematch_asked_by_both_players_at_once_is_one_game,
    test_four_seat_resignations_stand_in_bots_play_on_and_rank_the_resigned_last,
    test_two_seat_resignation_ends_the_game_and_the_other_wins,
)
from tests.ops.test_webhooks_live import (  # noqa: F401
    test_410_gone_stops_every_later_delivery,
    test_a_clock_sends_the_turn_its_deadline_near_and_the_timeout,
    test_a_game_to_the_end_notifies_each_turn_once_in_version_order,
    test_a_receiver_failing_twice_gets_the_same_webhook_id_three_times,
    test_a_rematch_is_told_to_the_game_s_endpoints_with_their_secrets,
    test_a_seat_registers_its_own_webhook_and_hears_only_its_own_notices,
    test_a_webhook_worker_killed_mid_delivery_delivers_it_later,
)
from tests.players.test_credentials_live import (  # noqa: F401  (run here, on the cluster)
    test_a_player_keys_stream_ends_revoked_when_its_seat_is_left,
    test_a_player_keys_stream_ends_revoked_within_a_second_of_a_rotation_and_of_a_deletion,
    test_two_rotations_at_once_one_201_one_401_and_the_surviving_key_works,
)

from .conftest import ClusterLive

# One cluster and one service for the module's tests: one test process runs them all.
pytestmark = pytest.mark.xdist_group("cluster-live")

HUMANS = [{"kind": "human"}, {"kind": "human"}]
TURN = 10


@pytest.fixture
def credentials_live(clustered: ClusterLive) -> str:
    """tests/players/test_credentials_live.py's service, here on the cluster: a rotation is told on
    a partition's channel by SPUBLISH, heard by the subscription of the node that serves it."""
    return clustered.url


# The store is the same for every title: one repository path, a game's keys (its hash, its log, its
# bot and deadline indexes) the same whatever it plays, a move one script. So the titles whose games
# have the longest logs play their whole games here as on one Redis; the others play the same
# lineups for their first SHORT_GAME_MOVES moves, then every person resigns, and the game ends
# (two seats) or its stand-in bots play it out: created, joined, played, ended and recorded on the
# cluster. Every title plays its whole games on one Redis (tests/contract/test_live_games.py).
WHOLE_ON_THE_CLUSTER = ("fifth-avenue", "wettstreit")
SHORT_GAME_MOVES = 8


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_complete_games_against_bots_and_between_humans(live: str, title: str) -> None:
    if title in WHOLE_ON_THE_CLUSTER:
        complete_games_on_one_redis(live, title)
        return
    game = registry.GAMES[title]
    client = Client(live)
    rng = random.Random(title)
    seats = max(2, game.min_seats)
    lineups = [[HUMAN] + [BOT] * (game.max_seats - 1), [HUMAN] * seats, [HUMAN, OPEN, OPEN]]
    lineups[2] += [BOT] * (max(3, seats) - 3)
    for index, lineup in enumerate(lineups):
        options = rng.choice(game.option_combinations(len(lineup)))
        record, events, seen = play(
            client, title, lineup, options, seed=100 + index, rng=rng, resign_after=SHORT_GAME_MOVES
        )
        entries = events["events"]
        resigned = [e["version"] for e in entries if "seat_resigned" in [x["type"] for x in e["events"]]]
        assert resigned and record["result"] is not None, "the people resigned and the game ended"
        joins = lineup.count(OPEN)
        check_views(record, seen, joins, until=resigned[0] - 1)
        if BOT in lineup:
            assert {entry["seat"] for entry in record["moves"]} - {0}, "bots moved through the worker"
        assert len(entries) == len(record["moves"]) + joins + len(resigned)


def _games_per_primary(clustered: ClusterLive, ids: set[str]) -> Counter[int]:
    held: Counter[int] = Counter()
    for primary in clustered.cluster.primaries():
        for key in primary.client().scan_iter(match=GAME_KEYS_PATTERN, count=1000):
            if key.decode().rsplit(":", 1)[-1] in ids:
                held[primary.port] += 1
    return held


def test_the_keys_of_a_few_hundred_games_spread_over_all_three_primaries(clustered: ClusterLive) -> None:
    session = requests.Session()
    ids = set()
    for _ in range(300):
        created = session.post(
            f"{clustered.url}/games", json={"title": "property", "seats": HUMANS}, timeout=10
        )
        assert created.status_code == 201, created.text
        ids.add(created.json()["id"])
    held = _games_per_primary(clustered, ids)
    assert sum(held.values()) == 300, "every game's hash found on exactly one primary"
    # A third each, within what chance gives 300 games (a standard deviation is ~8 games).
    assert len(held) == 3 and all(60 <= count <= 140 for count in held.values()), held
    # Each game with its own keys in one slot: its log beside its hash.
    game_id = next(iter(ids))
    assert clustered.store.exists(game_key(game_id)) == 1 and clustered.store.llen(log_key(game_id)) == 0


def test_the_lobby_lists_waiting_games_of_every_primary_newest_first(clustered: ClusterLive) -> None:
    session = requests.Session()
    seats = [{"kind": "human"}, {"kind": "open"}]
    ids = []
    for _ in range(30):
        created = session.post(
            f"{clustered.url}/games", json={"title": "fresh-fish", "seats": seats, "listed": True}, timeout=10
        )
        assert created.status_code == 201, created.text
        ids.append(created.json()["id"])
    assert len(_games_per_primary(clustered, set(ids))) == 3, "waiting games on all three primaries"
    listed = session.get(f"{clustered.url}/lobby?limit=100&title=fresh-fish", timeout=10).json()["games"]
    mine = [game["id"] for game in listed if game["id"] in ids]
    assert mine == ids[::-1], "newest first over every partition"
    joined = session.post(f"{clustered.url}/games/{ids[0]}/join", json={}, timeout=10)
    assert joined.status_code == 201 and joined.json()["status"] == "active", joined.text
    again = session.get(f"{clustered.url}/lobby?limit=100&title=fresh-fish", timeout=10).json()["games"]
    assert ids[0] not in [game["id"] for game in again], "a started game leaves the lobby"


def test_two_sweepers_act_on_every_deadline_of_every_primary_exactly_once(clustered: ClusterLive) -> None:
    """Games with a clock and no client request after creation: the stand-in moves once per
    deadline, then the seat timed out twice resigns. Observed in the cluster directly (a GET
    could heal a game); the two bot workers' sweepers both read every partition."""
    clock = {"turn_seconds": TURN, "on_timeout": "stand_in", "timeouts_to_resign": 2}
    games: dict[str, int] = {}
    while len(_games_per_primary(clustered, set(games))) < 3 or len(games) < 6:
        created = requests.post(
            f"{clustered.url}/games", json={"title": "property", "seats": HUMANS, "clock": clock}, timeout=10
        ).json()
        games[created["id"]] = created["to_act"][0]
    store = clustered.store

    def log(game_id: str) -> list[dict]:
        # As Redis keeps them (service.store.logform): a move's own events are the service's.
        kept = [decoded(raw, n) for n, raw in enumerate(store.lrange(log_key(game_id), 0, -1), start=1)]
        return [{**entry, "events": entry.get("events", entry.get("leading_events"))} for entry in kept]

    wait_for(
        lambda: all(store.hget(game_key(g), "status") == b"finished" for g in games),
        3 * TURN + 30,
        "every resignation",
    )
    for game_id, first in games.items():
        entries = log(game_id)
        timed_out = [e for e in entries if e["events"] and e["events"][0]["type"] == "turn_timed_out"]
        assert len(timed_out) == len(entries) == 3, entries  # exactly one action per deadline
        assert [e["seat"] for e in entries] == [first, 1 - first, first]
        assert [e["type"] for e in entries[-1]["events"]] == ["turn_timed_out", "seat_resigned"]
        assert store.zscore(index_of(DEADLINES, game_id), game_id) is None
    assert clustered.running(clustered.api, *clustered.workers), "the API and workers are alive"


def _follow(url: str, game_id: str, until: float) -> list[int]:
    """The first snapshot's version, then every move's id the game's event stream sends,
    reconnecting with Last-Event-ID each time the stream's lifetime ends, until the game finishes
    (or ``until``)."""
    seen: list[int] = []
    last: str | None = None
    while time.monotonic() < until:
        headers = {"Accept": "text/event-stream", **({"Last-Event-ID": last} if last else {})}
        fields: dict[str, str] = {}
        with requests.get(
            f"{url}/games/{game_id}/events", headers=headers, stream=True, timeout=30
        ) as stream:
            for line in stream.iter_lines(decode_unicode=True):
                if line:
                    name, _, value = line.partition(": ")
                    fields[name] = value
                    continue
                kind, event_id = fields.get("event"), fields.get("id")  # a message ends
                fields = {}
                if kind == "snapshot" and last is None and event_id is not None:
                    seen.append(int(event_id))
                    last = event_id
                elif kind == "move" and event_id is not None:
                    seen.append(int(event_id))
                    last = event_id
                elif kind == "finished":
                    return seen
    return seen


def test_event_streams_on_games_of_every_primary_receive_every_move(clustered: ClusterLive) -> None:
    bots = [{"kind": "bot", "bot": "random"}] * 2
    games: list[str] = []
    while len(_games_per_primary(clustered, set(games))) < 3 or len(games) < 6:
        created = requests.post(
            f"{clustered.url}/games", json={"title": "fresh-fish", "seats": bots}, timeout=10
        ).json()
        games.append(created["id"])
    until = time.monotonic() + 180
    with ThreadPoolExecutor(len(games)) as pool:
        seen = dict(zip(games, pool.map(lambda g: _follow(clustered.url, g, until), games), strict=True))
    for game_id, versions in seen.items():
        stored = int(clustered.store.hget(game_key(game_id), "version"))
        assert clustered.store.hget(game_key(game_id), "status") == b"finished", game_id
        # After the snapshot (the bots may have played before the stream opened), every version
        # once and in order, across the streams' reconnections.
        snapshot, *moves = versions
        assert moves == list(range(snapshot + 1, stored + 1)), (game_id, snapshot, moves[:5], stored)
