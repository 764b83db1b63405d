"""A read at a random version against a live read, in the same run (issue 54, point 4).

Starts one Redis (the embedded binary) and the API as `skyline serve` runs it (gunicorn, gevent),
plays long games over HTTP (New York, two human seats, random moves: the longest title; a game
stops at ``--moves``), then, one client with a keep-alive connection, alternates
  - GET /games/{id}                 (the live read: the spectator's, of a random game), and
  - GET /games/{id}/versions/{n}    (the spectator's, at a random n of a random game),
and prints p50/p99 of each. The first pass over the versions is measured apart (``cold``: no
checkpoint yet in the serving process, a read replays from the setup); the timed phase follows.
Usage:
    python bench/version_reads.py [--games 3] [--moves 3000] [--reads 3000] [--workers 2]
Not a test; record the printed table in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.http_load import Conn  # noqa: E402
from bench.measure import percentile  # noqa: E402
from harness.live import Processes, api_command, free_port, wait_http  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402


def play_long_game(conn: Conn, moves: int, rng: random.Random) -> tuple[str, int]:
    status, body, _ = conn.request(
        "POST", "/games", {"title": "new-york", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    assert status == 201, body
    created = json.loads(body)
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    version = 0
    for _ in range(moves):
        status, body, _ = conn.request("GET", f"/games/{created['id']}")
        shown = json.loads(body)
        if shown["status"] != "active":
            break
        seat = shown["to_act"][0]
        _, body, _ = conn.request("GET", f"/games/{created['id']}/moves", token=tokens[seat])
        listing = json.loads(body)
        choice = rng.choice(listing["moves"])["move"]
        status, body, _ = conn.request(
            "POST",
            f"/games/{created['id']}/actions",
            {"move": choice, "version": listing["version"]},
            token=tokens[seat],
        )
        assert status == 200, body
        version = json.loads(body)["version"]
    return created["id"], version


def timed(conn: Conn, path: str) -> float:
    status, body, elapsed = conn.request("GET", path)
    assert status == 200, (path, status, body[:200])
    return elapsed * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--reads", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(54)
    data = tempfile.mkdtemp(prefix="skyline-bench-")
    redis_server = EmbeddedRedis(data, appendonly=False).start()
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
        "SKYLINE_RATE_LIMIT_PER_TOKEN": "off",
    }
    processes = Processes(env)
    port = free_port()
    try:
        processes.start(api_command(port, args.workers))
        wait_http(f"http://127.0.0.1:{port}/readyz")
        conn = Conn(port)
        started = time.perf_counter()
        games = [play_long_game(conn, args.moves, rng) for _ in range(args.games)]
        print(
            f"{len(games)} New York games of {[v for _, v in games]} versions played in "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        cold: list[float] = []
        for game_id, last in games:
            for n in rng.sample(range(last + 1), min(50, last + 1)):
                cold.append(timed(conn, f"/games/{game_id}/versions/{n}"))
        live: list[float] = []
        past: list[float] = []
        for _ in range(args.reads):
            game_id, last = rng.choice(games)
            live.append(timed(conn, f"/games/{game_id}"))
            game_id, last = rng.choice(games)
            past.append(timed(conn, f"/games/{game_id}/versions/{rng.randint(0, last)}"))
        print("| read | requests | p50 ms | p99 ms |")
        print("|---|---|---|---|")
        for name, samples in (
            ("GET /games/{id} (live)", live),
            ("GET /games/{id}/versions/{n} (random n)", past),
            ("versions/{n}, first reads (cold)", cold),
        ):
            p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
            print(f"| {name} | {len(samples)} | {p50:.2f} | {p99:.2f} |")
        print(
            f"p99 ratio, random version / live: {percentile(past, 0.99) / percentile(live, 0.99):.2f}; "
            f"p50 ratio: {percentile(past, 0.5) / percentile(live, 0.5):.2f}"
        )
    finally:
        processes.stop()
        redis_server.stop()


if __name__ == "__main__":
    main()
