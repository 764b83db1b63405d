"""A leaderboard read, a public player's read, a rating history and a seek, against a live read,
in-process (issue 63).

Starts one Redis and one PostgreSQL (the embedded binaries), builds the API in this process (the
Flask test client: no HTTP, so the figures are the routes' own cost, as bench/route_cpu.py), fills
the archive with ``--players`` rated players of Property (settled by the archive's own write, so
the leaderboard has that many entries, none provisional), then alternates
  - GET /games/{id}               (the live read, a spectator's),
  - GET /leaderboards/property    (the first page: 50 entries),
  - GET /players/{id}             (one player's ratings),
  - GET /players/{id}/ratings/property/history (its 20 games, one page), and
  - POST /seeks                   (a 3-seat seek: every third one makes a game, through Games.create),
printing p50/p99 of each and its p50 ratio to the live read. Usage:
    python bench/ratings_reads.py [--players 300] [--reads 300]
Not a test; record the printed table in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import secrets
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import percentile  # noqa: E402
from harness.rated_games import human, rated_game  # noqa: E402
from service.archive.archive import Archive  # noqa: E402
from service.archive.schema import migrate  # noqa: E402
from service.config import Settings  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402
from service.run.postgres import EmbeddedPostgres  # noqa: E402
from skyline.web import api_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="skyline-bench-ratings-"))
    redis_server = EmbeddedRedis(folder / "redis", appendonly=False).start()
    postgres = EmbeddedPostgres(folder, settings={"fsync": "off"}).start()
    try:
        migrate(postgres.url)
        ids = [f"p_bench{n}" for n in range(args.players)]
        with Archive(postgres.url) as archive:
            for round_ in range(20):  # 20 three-seat games each: every sigma under the threshold
                for n in range(0, args.players - 2, 3):
                    trio = ids[n : n + 3]
                    ranks = [1 + (round_ + k) % 3 for k in range(3)]
                    seats = [human(k, who) for k, who in enumerate(trio)]
                    archive.write_game(rated_game(f"g{round_}-{n}", seats, ranks, minutes=round_))
        settings = replace(
            Settings.from_env(),
            redis_url=redis_server.url,
            database_url=postgres.url,
            rate_limit_per_address=None,
            rate_limit_per_token=None,
            players_per_address=None,
        )
        client = api_app(settings).test_client()
        game = client.post("/games", json={"title": "property", "seats": [{"kind": "human"}] * 3}).get_json()
        keys = [client.post("/players").get_json()["key"] for _ in range(args.reads)]
        timings: dict[str, list[float]] = {
            "live read": [],
            "leaderboard": [],
            "player": [],
            "history": [],
            "seek": [],
        }
        for n in range(args.reads):
            for name, call in (
                ("live read", lambda: client.get(f"/games/{game['id']}")),
                ("leaderboard", lambda: client.get("/leaderboards/property")),
                ("player", lambda: client.get(f"/players/{secrets.choice(ids)}")),
                ("history", lambda: client.get(f"/players/{secrets.choice(ids)}/ratings/property/history")),
                (
                    "seek",
                    lambda n=n: client.post(
                        "/seeks",
                        json={"title": "property", "seats": 3},
                        headers={"Authorization": f"Bearer {keys[n]}"},
                    ),
                ),
            ):
                started = time.perf_counter()
                reply = call()
                timings[name].append(time.perf_counter() - started)
                assert reply.status_code in (200, 201), reply.get_data()
        base = percentile(timings["live read"], 0.5)
        print(f"{'route':<12} {'p50 ms':>8} {'p99 ms':>8} {'p50 / live read':>16}")
        for name, values in timings.items():
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            print(f"{name:<12} {p50 * 1000:8.2f} {p99 * 1000:8.2f} {p50 / base:16.1f}")
    finally:
        postgres.stop()
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
