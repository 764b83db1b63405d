"""A read at a random version against a live read, in the same run (issue 54, point 4).

Starts one Redis (the embedded binary), one PostgreSQL (the embedded one, its default settings)
for the archive, and the API as `skyline serve` runs it (gunicorn, gevent, ``DATABASE_URL`` set),
plays long games over HTTP (New York, two human seats, random moves: the longest title; a game
stops at ``--moves``). The first ``--archived`` of them are then ended (a resignation, unless
they ended by themselves), written by one archiver (``worker.archiver.Archiver``, in this
process) and let go from Redis (a grace of 1 s, waited out): their reads come from the archive.
Then one client with a keep-alive connection alternates
  - GET /games/{id}                 (the live read: the spectator's, of a random live game),
  - GET /games/{id}/versions/{n}    (the spectator's, at a random n of a random live game), and
  - GET /games/{id}/versions/{n}    (the same, of a random archived game: from the archive),
and prints p50/p99 of each. The first reads of each game are measured apart (``cold``: no
checkpoint of it yet in the serving process; a live game's read replays from the setup, an
archived game's from the archive's snapshot at or before n); the timed phase follows.
Usage:
    python bench/version_reads.py [--games 3] [--archived 1] [--moves 3000] [--reads 3000] [--workers 2]
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis  # noqa: E402

from bench.http_load import Conn  # noqa: E402
from bench.measure import percentile  # noqa: E402
from harness.live import Processes, api_command, free_port, wait_http  # noqa: E402
from service.archive.schema import migrate  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402
from service.run.postgres import EmbeddedPostgres  # noqa: E402
from service.store.archiving import ArchiveDue
from service.store.keys import game_key, log_key  # noqa: E402
from worker.archiver import Archiver  # noqa: E402


def play_long_game(conn: Conn, moves: int, rng: random.Random) -> tuple[str, int, dict[int, str]]:
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
    return created["id"], version, tokens


def timed(conn: Conn, path: str) -> float:
    status, body, elapsed = conn.request("GET", path)
    assert status == 200, (path, status, body[:200])
    return elapsed * 1000


def end_and_archive(
    conn: Conn, games: list[tuple[str, int, dict[int, str]]], redis_url: str, database_url: str
) -> None:
    """Each game ended (a resignation, unless it is over), archived once, and gone from Redis."""
    client = redis.Redis.from_url(redis_url)
    for game_id, _, tokens in games:
        _, body, _ = conn.request("GET", f"/games/{game_id}")
        if json.loads(body)["status"] == "active":
            status, body, _ = conn.request("POST", f"/games/{game_id}/resign", {}, token=tokens[0])
            assert status == 200, body
    archiver = Archiver(
        ArchiveDue(client), database_url, interval_seconds=0, lease_seconds=600, grace_seconds=1
    )
    try:
        assert archiver.archive_once()["written"] == len(games)
    finally:
        archiver.stop()
    time.sleep(2.5)  # the grace, and Redis's expiry cycle
    for game_id, _, _ in games:
        assert not client.exists(game_key(game_id), log_key(game_id)), game_id
    client.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--archived", type=int, default=1)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--reads", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    assert 0 <= args.archived < args.games, "at least one game stays live"
    rng = random.Random(54)
    data = Path(tempfile.mkdtemp(prefix="skyline-bench-"))
    (data / "postgres").mkdir()
    redis_server = EmbeddedRedis(data, appendonly=False).start()
    postgres = EmbeddedPostgres(data / "postgres").start()
    migrate(postgres.url)
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "DATABASE_URL": postgres.url,
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
        played = [play_long_game(conn, args.moves, rng) for _ in range(args.games)]
        print(
            f"{len(played)} New York games of {[v for _, v, _ in played]} versions played in "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        archived = [(game_id, last) for game_id, last, _ in played[: args.archived]]
        live_games = [(game_id, last) for game_id, last, _ in played[args.archived :]]
        end_and_archive(conn, played[: args.archived], redis_server.url, postgres.url)
        # An ended game's version count, once its resignation is in the log.
        archived = [
            (game_id, json.loads(conn.request("GET", f"/games/{game_id}")[1])["version"])
            for game_id, _ in archived
        ]
        cold: list[float] = []
        cold_archived: list[float] = []
        for games, samples in ((live_games, cold), (archived, cold_archived)):
            for game_id, last in games:
                for n in rng.sample(range(last + 1), min(50, last + 1)):
                    samples.append(timed(conn, f"/games/{game_id}/versions/{n}"))
        live: list[float] = []
        past: list[float] = []
        past_archived: list[float] = []
        for _ in range(args.reads):
            game_id, last = rng.choice(live_games)
            live.append(timed(conn, f"/games/{game_id}"))
            game_id, last = rng.choice(live_games)
            past.append(timed(conn, f"/games/{game_id}/versions/{rng.randint(0, last)}"))
            if archived:
                game_id, last = rng.choice(archived)
                past_archived.append(timed(conn, f"/games/{game_id}/versions/{rng.randint(0, last)}"))
        print("| read | requests | p50 ms | p99 ms |")
        print("|---|---|---|---|")
        rows = (
            ("GET /games/{id} (live)", live),
            ("GET /games/{id}/versions/{n} (random n, live game: Redis)", past),
            ("GET /games/{id}/versions/{n} (random n, archived game: PostgreSQL)", past_archived),
            ("versions/{n} of a live game, first reads (cold)", cold),
            ("versions/{n} of an archived game, first reads (cold)", cold_archived),
        )
        for name, samples in rows:
            p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
            print(f"| {name} | {len(samples)} | {p50:.2f} | {p99:.2f} |")
        for name, samples in (("live game", past), ("archived game", past_archived)):
            if samples:
                print(
                    f"p99 ratio, random version of a {name} / live read: "
                    f"{percentile(samples, 0.99) / percentile(live, 0.99):.2f}; "
                    f"p50 ratio: {percentile(samples, 0.5) / percentile(live, 0.5):.2f}"
                )
    finally:
        processes.stop()
        postgres.stop()
        redis_server.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
