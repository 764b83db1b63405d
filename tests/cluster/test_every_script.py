"""Every Lua script of the store runs on a cluster of three primaries, under ``#!lua``, with keys of
one slot only (issue 56: a one-node cluster would hide a cross-slot bug, one Redis hides all).

The scripts are found in the code (every ``register_script(...)`` of service/store/), not listed
here, so a script added later is held to this test too. A client that records which scripts run
drives the store the way the service does — through the app (players, games bound to them, seats,
moves, rate limits, rematch, webhooks) and through the workers' store calls (fan-out, archiving,
heartbeats, the sweeper's compare-and-delete) — over games whose keys lie on all three primaries.
Then every script found must have run, and none may have been refused: Redis refuses a key of
another slot (the shebang), and a key of another node (the cluster)."""

from __future__ import annotations

import ast
import hashlib
import importlib
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.cluster import LocalCluster
from service.config import Settings
from service.store.archiving import ArchiveDue
from service.store.connect import SHEBANG, ShebangCluster
from service.store.games import GameStore
from service.store.keys import BOTS_DUE, DEADLINES, index_of
from service.store.partitioned import PartitionedIndex
from service.store.partitions import partition_of, tag_slot
from service.store.seats import RematchStore
from service.store.streamcaps import StreamCaps
from service.store.webhooks import WebhookStore
from service.store.workers import WorkerPresence
from skyline.web import api_app

STORE = Path(__file__).resolve().parents[2] / "service" / "store"
# What a cluster never runs, each with what runs there instead.
ONE_REDIS_ONLY = {
    # A key's rotation and a player's deletion with its key's pointer, another slot (on a cluster:
    # players._SWAP_DIGEST and players._DELETE_IN_SLOT, then the pointer alone).
    "players._ROTATE",
    "players._DELETE",
    # An index over every partition in one script: one Redis's one node (on a cluster: one per
    # primary, _NodeScript's cross-slot source).
    "partitioned._NONE_EXIST + _OLDEST",
    "partitioned._NONE_EXIST + _NEWEST",
}
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def scripts_in_the_code() -> dict[str, str]:
    """Each script the store registers on a cluster, by ``module.expression``: the SHA-1 Redis
    knows it by (its source under the shebang, as ShebangCluster registers it)."""
    found: dict[str, str] = {}
    for path in sorted(STORE.glob("*.py")):
        tree = ast.parse(path.read_text())
        module = importlib.import_module(f"service.store.{path.stem}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "register_script":
                name = f"{path.stem}.{ast.unparse(node.args[0])}"
                if name not in ONE_REDIS_ONLY:
                    source = eval(ast.unparse(node.args[0]), vars(module))  # noqa: S307
                    found[name] = hashlib.sha1((SHEBANG + source).encode()).hexdigest()
    assert len(found) >= 15, "the store's scripts were found"
    return found


class RecordingCluster(ShebangCluster):
    """The store's cluster client, noting the SHA-1 of every script it runs (EVALSHA, or EVAL)."""

    ran: set[str]

    def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if args and str(args[0]).upper() == "EVALSHA":
            self.ran.add(str(args[1]))
        elif args and str(args[0]).upper() == "EVAL":
            self.ran.add(hashlib.sha1(str(args[1]).encode()).hexdigest())
        return super().execute_command(*args, **kwargs)


@pytest.fixture
def recording(cluster: LocalCluster) -> Iterator[RecordingCluster]:
    client = RecordingCluster.from_url(cluster.url)
    client.ran = set()
    yield client
    client.close()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play(http: Any, game_id: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        for token in tokens:
            listing = http.get(f"/games/{game_id}/moves", headers=_bearer(token)).get_json()
            if listing["moves"]:
                reply = http.post(
                    f"/games/{game_id}/actions",
                    json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                    headers=_bearer(token),
                )
                assert reply.status_code == 200, reply.get_json()
                break


def test_every_script_of_the_store_runs_on_three_primaries_in_one_slot(
    recording: RecordingCluster, cluster: LocalCluster, tmp_path: Path
) -> None:
    settings = replace(
        Settings.from_env(),
        redis_url=cluster.url,
        redis_cluster=True,
        rq_redis_url="redis://127.0.0.1:1/0",  # never reached: no bot seat here
        rate_limit_per_address=(100_000, 60),
        rate_limit_per_token=(100_000, 60),
        players_per_address=(100_000, 60),
        bot_games_per_address=0,
        webhook_allow_http=True,
        webhook_allow_private=True,
    )
    app = api_app(settings, redis_client=recording, enqueue_bots=False)
    http = app.test_client()
    games: list[str] = []
    seat_tokens: dict[str, list[str]] = {}

    # Players, and games bound to them, on every primary.
    player = http.post("/players").get_json()
    other = http.post("/players").get_json()
    while len({cluster.primary_of_slot(tag_slot(partition_of(g))).port for g in games}) < 3:
        created = http.post(
            "/games",
            json={
                "title": "property",
                "seats": [{"kind": "human", "player": "me"}, {"kind": "open", "player": other["id"]}],
                "clock": {"turn_seconds": 600, "on_timeout": "stand_in"},
                "webhooks": [{"url": "http://127.0.0.1:9/hook"}],
                "listed": True,
            },
            headers=_bearer(player["key"]),
        )
        assert created.status_code == 201, created.get_json()
        game_id = created.get_json()["id"]
        joined = http.post(f"/games/{game_id}/join", json={}, headers=_bearer(other["key"]))
        assert joined.status_code == 201, joined.get_json()
        tokens = [created.get_json()["human_seats"][0]["token"], joined.get_json()["token"]]
        _play(http, game_id, tokens, 3)
        games.append(game_id)
        seat_tokens[game_id] = tokens
    assert http.get("/lobby").status_code == 200
    assert http.get("/players/me/games", headers=_bearer(player["key"])).status_code == 200
    assert (
        http.put(
            "/players/me/webhook", json={"url": "http://127.0.0.1:9/p"}, headers=_bearer(player["key"])
        ).status_code
        == 200
    )
    rotated = http.post("/players/me/keys", headers=_bearer(player["key"]))
    assert rotated.status_code == 201, rotated.get_json()

    # A game to the end, then its rematch; a rematch made while only the archive holds the game.
    ended = games[0]
    resigned = http.post(f"/games/{ended}/resign", headers=_bearer(seat_tokens[ended][0]))
    assert resigned.status_code == 200, resigned.get_json()
    rematch = http.post(f"/games/{ended}/rematch", headers=_bearer(seat_tokens[ended][1]))
    assert rematch.status_code in (200, 201), rematch.get_json()
    store = GameStore(recording, ttl_seconds=3600, finished_ttl_seconds=60)
    alone = store.load(games[1])
    RematchStore(recording).create_alone("rematch-alone", alone.meta, alone.state, "active", 60)

    # What the workers run: heartbeats, the sweepers' compare-and-delete, fan-out, archiving.
    presence = WorkerPresence(recording)
    presence.beat("worker-1")
    assert presence.alive() == 1 and presence.is_alive("worker-1")
    for game_id in games[1:]:  # the first has ended: no deadline
        score = recording.zscore(index_of(DEADLINES, game_id), game_id)
        assert score is not None
        store.forget_deadline(game_id, repr(score).encode())
        store.mark_bot_due(game_id)
        store.forget_bot_due(game_id, recording.zscore(index_of(BOTS_DUE, game_id), game_id))
    webhooks = WebhookStore(recording, ttl_seconds=3600)
    due = webhooks.claim_due_games(time.time() + 1, 30, limit=100)
    assert set(games) <= set(due)
    endpoints, notified, _ = webhooks.read(games[1])
    endpoint = next(iter(endpoints))
    record = {"endpoint": endpoint, "event": "turn", "version": 1}
    assert webhooks.fan_out(games[1], notified or 0, (notified or 0) + 1, [("d-1", record)])
    assert webhooks.claim_sending(time.time() + 1, 30)
    webhooks.release(games[1], endpoint, time.time())
    archive = ArchiveDue(recording)
    assert archive.claim(time.time() + 1, 30, limit=10)
    archive.release(ended, time.time(), 60)
    ticket = StreamCaps(recording, per_address=10, per_token=10, lifetime=60).admit("10.0.0.1", "a-token")
    ticket.release()
    # Seeks: three make a game (the matching script, then the one that settles), one cancelled.
    seekers = [http.post("/players").get_json() for _ in range(4)]
    seek = {"title": "property", "seats": 3}
    sought = [http.post("/seeks", json=seek, headers=_bearer(p["key"])).get_json() for p in seekers[:3]]
    assert [s["status"] for s in sought] == ["waiting", "waiting", "matched"], sought
    cancelled = http.post("/seeks", json=seek, headers=_bearer(seekers[3]["key"])).get_json()
    assert http.delete(f"/seeks/{cancelled['id']}", headers=_bearer(seekers[3]["key"])).status_code == 204
    player_gone = http.delete("/players/me", headers=_bearer(rotated.get_json()["key"]))
    assert player_gone.status_code == 204

    assert http.get("/lobby").status_code == 200  # an index read on every primary
    swept = PartitionedIndex(recording, "deadlines")
    expected = {
        **scripts_in_the_code(),
        "partitioned.oldest on a node": swept._oldest_on.sha,
        "partitioned.newest on a node": swept._newest_on.sha,
    }
    never = sorted(name for name, sha in expected.items() if sha not in recording.ran)
    assert never == [], f"scripts that did not run on the cluster: {never}"
