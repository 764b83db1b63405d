"""The move path on a Redis Cluster against one Redis, in one run, and each primary's share.

    python bench/cluster_moves.py [--games 300] [--moves 3000] [--rounds 3] [--rate-limits off|on]

Starts, from the same redis-server 7 binary (Debian's), a three-primary cluster with a replica
each (harness/cluster.py) and one standalone Redis, both on TCP loopback with no persistence, so
that the figures compare like with like. Builds the API's app in this process on each (as
`skyline serve` does: the store's client, `SKYLINE_REDIS_CLUSTER=1` for the cluster) and plays
scripted Property games through the WSGI test client: ``--games`` two-human games, then
``--moves`` moves round-robin over them (GET the seat's moves, POST the first listed one), the
two stores' rounds interleaved. Prints per store the median over rounds of moves per second
and of the POST's p50/p99 latency, and the cluster's ratio to one Redis. Then, from each
primary's ``INFO commandstats`` before and after the cluster's rounds: its share of the
commands on the games' keys (the games, hence the commands, spread over the partitions and the
partitions over the primaries). Last, what ``WAIT 1`` after each commit would cost
(docs/deploy.md). Not a test.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import percentile  # noqa: E402
from harness.cluster import LocalCluster, find_cluster_binaries  # noqa: E402
from harness.live import free_port  # noqa: E402
from service.config import Settings  # noqa: E402
from service.store.connect import store_client  # noqa: E402
from skyline.web import api_app  # noqa: E402

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def standalone(server: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return process, f"redis://127.0.0.1:{port}/0"


class Table:
    """Games of one store, played through the app's test client."""

    def __init__(self, settings: Settings, client: redis.Redis, games: int) -> None:
        self.app = api_app(settings, redis_client=client, enqueue_bots=False)
        self.http = self.app.test_client()
        self.games: list[tuple[str, dict[int, str]]] = []
        for _ in range(games):
            created = self.http.post("/games", json={"title": "property", "seats": HUMANS}).get_json()
            self.games.append((created["id"], {s["seat"]: s["token"] for s in created["human_seats"]}))

    def play(self, moves: int) -> tuple[float, list[float]]:
        """Moves per second over ``moves`` moves round-robin, and each POST's seconds."""
        latencies: list[float] = []
        began = time.perf_counter()
        played = 0
        while played < moves:
            for index, (game_id, tokens) in enumerate(self.games):
                listing: dict[str, Any] | None = None
                for token in tokens.values():
                    shown = self.http.get(
                        f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}
                    )
                    body = shown.get_json()
                    if body["moves"]:
                        listing = {**body, "token": token}
                        break
                if listing is None:  # over: a new game in its place
                    created = self.http.post("/games", json={"title": "property", "seats": HUMANS}).get_json()
                    self.games[index] = (
                        created["id"],
                        {s["seat"]: s["token"] for s in created["human_seats"]},
                    )
                    continue
                start = time.perf_counter()
                reply = self.http.post(
                    f"/games/{game_id}/actions",
                    json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                    headers={"Authorization": f"Bearer {listing['token']}"},
                )
                latencies.append(time.perf_counter() - start)
                assert reply.status_code == 200, reply.get_json()
                played += 1
                if played >= moves:
                    break
        return played / (time.perf_counter() - began), latencies


# What a node answers for the cluster and its clients, not for the games: left out of the shares.
_HOUSEKEEPING = (
    "cluster",
    "info",
    "role",
    "replconf",
    "psync",
    "ping",
    "hello",
    "command",
    "script",
    "client",
)


def command_calls(client: redis.Redis) -> int:
    """The calls of the commands on the games' keys this node has answered."""
    stats = client.info("commandstats")
    return sum(
        int(value["calls"])
        for name, value in stats.items()
        if name.startswith("cmdstat_") and not name[len("cmdstat_") :].split("|")[0].startswith(_HOUSEKEEPING)
    )


def wait_cost(client: redis.Redis, writes: int = 2000) -> None:
    """What ``WAIT 1`` after a write would add to a commit: a write alone against a write followed
    by a WAIT for one replica's acknowledgement, on one primary, interleaved."""
    node = client.get_node_from_key("sk:{p0}:wait-probe")  # type: ignore[attr-defined]
    alone: list[float] = []
    waited: list[float] = []
    for n in range(writes):
        start = time.perf_counter()
        client.set("sk:{p0}:wait-probe", n)
        if n % 2:
            client.execute_command("WAIT", 1, 1000, target_nodes=node)  # type: ignore[call-arg]
            waited.append(time.perf_counter() - start)
        else:
            alone.append(time.perf_counter() - start)
    print("| a write | p50 ms | p99 ms |")
    print("|---|---|---|")
    for name, samples in (("alone", alone), ("then WAIT 1 1000", waited)):
        print(f"| {name} | {percentile(samples, 0.5) * 1000:.3f} | {percentile(samples, 0.99) * 1000:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate-limits", choices=("off", "on"), default="off")
    options = parser.parse_args()
    logging.disable(logging.INFO)
    binaries = find_cluster_binaries()
    if binaries is None:
        raise SystemExit("needs redis-server 7+ and redis-cli on PATH (apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    cluster = LocalCluster(folder / "cluster").start()
    (folder / "single").mkdir()
    process, single_url = standalone(binaries[0], folder / "single")
    try:
        base = replace(Settings.from_env(), access_log=False, bot_games_per_address=0, recent_games=0)
        if options.rate_limits == "off":
            base = replace(base, rate_limit_per_address=None, rate_limit_per_token=None)
        single_settings = replace(base, redis_url=single_url)
        queue = "redis://127.0.0.1:1/0"  # never used: bots are not enqueued here
        cluster_settings = replace(base, redis_url=cluster.url, redis_cluster=True, rq_redis_url=queue)
        tables = {
            "one Redis": Table(single_settings, store_client(single_url, cluster=False), options.games),
            "cluster": Table(cluster_settings, store_client(cluster.url, cluster=True), options.games),
        }
        primaries = {p.port: p.client() for p in cluster.primaries()}
        before = {port: command_calls(c) for port, c in primaries.items()}
        rates: dict[str, list[float]] = {name: [] for name in tables}
        p50s: dict[str, list[float]] = {name: [] for name in tables}
        p99s: dict[str, list[float]] = {name: [] for name in tables}
        for _ in range(options.rounds):
            for name, table in tables.items():
                rate, latencies = table.play(options.moves)
                rates[name].append(rate)
                p50s[name].append(percentile(latencies, 0.5) * 1000)
                p99s[name].append(percentile(latencies, 0.99) * 1000)
        after = {port: command_calls(c) for port, c in primaries.items()}
        print(
            f"{options.games} games, {options.moves} moves a round, {options.rounds} rounds,"
            f" rate limits {options.rate_limits}"
        )
        print("| store | moves/s | POST p50 ms | POST p99 ms |")
        print("|---|---|---|---|")
        for name in tables:
            print(
                f"| {name} | {statistics.median(rates[name]):.0f} | {statistics.median(p50s[name]):.2f} "
                f"| {statistics.median(p99s[name]):.2f} |"
            )
        ratio = statistics.median(rates["cluster"]) / statistics.median(rates["one Redis"])
        print(f"cluster / one Redis, moves per second: {ratio:.2f}")
        calls = {port: after[port] - before[port] for port in primaries}
        total = sum(calls.values())
        print("| primary | commands | share |")
        print("|---|---|---|")
        for port, count in sorted(calls.items()):
            print(f"| 127.0.0.1:{port} | {count} | {count / total:.3f} |")
        worst = max(abs(count / total - 1 / 3) for count in calls.values())
        print(f"largest distance from a third: {worst:.3f} (a tenth of a third: {1 / 30:.3f})")
        wait_cost(store_client(cluster.url, cluster=True))
    finally:
        process.terminate()
        process.wait()
        cluster.stop()


if __name__ == "__main__":
    main()
