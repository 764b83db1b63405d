"""A player's "my games" with 1, 50 and 500 active games, against a live read, in one run (issue 55).

Starts one Redis (the embedded binary) and the API as `skyline serve` runs it (gunicorn, gevent),
then for each count N creates a player and N two-human Property games bound to it (its seat 0,
``{"player": "me"}``; some its turn, some not), and one client with a keep-alive connection
alternates
  - GET /games/{id}            with the player key (a random one of its games: the live read), and
  - GET /players/me/games      with the player key (all N games, the most urgent first),
printing p50/p99 of each and the ratio of the p99s. The read of "my games" costs the index and one
pipeline of the games whatever N (tests/players count the round trips); what grows with N is the
bytes moved and parsed. Usage:
    python bench/my_games.py [--counts 1,50,500] [--reads 400] [--workers 2]
Not a test; record the printed table in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.http_load import Conn  # noqa: E402
from bench.measure import percentile  # noqa: E402
from harness.live import Processes, api_command, free_port, wait_http  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402


def call(
    conn: Conn, method: str, path: str, body: dict | None = None, token: str | None = None
) -> tuple[int, dict]:
    status, payload, _ = conn.request(method, path, body, token=token)
    return status, json.loads(payload) if payload else {}


def a_player_with_games(conn: Conn, count: int, rng: random.Random) -> tuple[str, list[str]]:
    status, player = call(conn, "POST", "/players")
    assert status == 201, player
    key = player["key"]
    games = []
    for _ in range(count):
        body = {"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
        status, created = call(conn, "POST", "/games", body, token=key)
        assert status == 201, created
        games.append(created["id"])
        if rng.random() < 0.5:  # some games move on, so that "my turn" is not the same everywhere
            other = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}.get(1)
            shown = call(conn, "GET", f"/games/{created['id']}", token=key)[1]
            if other is not None and 1 in shown["to_act"]:
                moves = call(conn, "GET", f"/games/{created['id']}/moves", token=other)[1]
                move = {"move": moves["moves"][0]["move"], "version": moves["version"]}
                conn.request("POST", f"/games/{created['id']}/actions", move, token=other)
    return key, games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="1,50,500")
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    rng = random.Random(55)
    data = Path(tempfile.mkdtemp(prefix="skyline-bench-"))
    redis_server = EmbeddedRedis(data, appendonly=False).start()
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
        "SKYLINE_RATE_LIMIT_PER_TOKEN": "off",
        "SKYLINE_PLAYERS_PER_ADDRESS": "off",
        "SKYLINE_LIVE_GAMES_PER_PLAYER": "0",
    }
    processes = Processes(env)
    port = free_port()
    try:
        processes.start(api_command(port, args.workers))
        wait_http(f"http://127.0.0.1:{port}/readyz")
        conn = Conn(port)
        players = {count: a_player_with_games(conn, count, rng) for count in counts}
        print("| games | read | p50 ms | p99 ms | p99 / live p99 |")
        print("|---|---|---|---|---|")
        for count, (key, games) in players.items():
            live: list[float] = []
            mine: list[float] = []
            for _ in range(args.reads):
                status, _, elapsed = conn.request("GET", f"/games/{rng.choice(games)}", token=key)
                assert status == 200
                live.append(elapsed * 1000)
                status, payload, elapsed = conn.request("GET", "/players/me/games?limit=100", token=key)
                assert status == 200 and json.loads(payload)["counts"]["active"] == count, payload[:300]
                mine.append(elapsed * 1000)
            live_p99 = percentile(live, 0.99)
            for name, samples in (("GET /games/{id}", live), ("GET /players/me/games", mine)):
                p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
                print(f"| {count} | {name} | {p50:.2f} | {p99:.2f} | {p99 / live_p99:.2f}× |", flush=True)
    finally:
        processes.stop()
        redis_server.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
