"""End-to-end time of a bot's decision through the real stack, per game, at a given level.

Starts Redis, the API (gunicorn) and one RQ worker; a client plays a human seat against
bots at ``--level`` (default hard), choosing random legal moves, and watches the game
(polling GET every 5 ms). Each bot decision is timed from the version it answers becoming
visible to the version its move makes becoming visible: queueing, loading, thinking and
the compare-and-set included. Prints p50/p95/max per game, and for each decision slower
than 1.5 times the level's clock the worker's job that made it (queue wait, run time). Usage:
    python bench/bot_latency.py [--level hard] [--turns 25]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import percentile  # noqa: E402
from engines.bots import LEVELS  # noqa: E402
from engines.registry import GAMES  # noqa: E402
from harness.live import Processes, api_command, free_port, wait_http, worker_command  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402


def measure(
    base: str, title: str, level: str, turns: int, rng: random.Random
) -> list[tuple[float, str, int]]:
    """Per bot decision, its seconds (from the version the bot had to answer being visible to
    the version its move made being visible; only single-step changes are counted), the game
    and the version its move made."""
    game = GAMES[title]
    seats = min(max(2, game.min_seats), game.max_seats)
    options = game.option_combinations(seats)[0]
    lineup = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (seats - 1)
    samples: list[tuple[float, str, int]] = []
    http = requests.Session()
    while len(samples) < turns:
        created = http.post(
            f"{base}/games", json={"title": title, "seats": lineup, "options": options}
        ).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}
        seen_version, seen_at, bot_to_move = -1, 0.0, False
        while len(samples) < turns:
            shown = http.get(f"{base}/games/{game_id}", headers=headers).json()
            now = time.perf_counter()
            if shown["version"] != seen_version:
                if bot_to_move and shown["version"] == seen_version + 1:
                    samples.append((now - seen_at, game_id, shown["version"]))
                seen_version, seen_at = shown["version"], now
                bot_to_move = bool(shown["to_act"]) and 0 not in shown["to_act"]
            if shown["status"] == "finished":
                break
            if 0 not in shown["to_act"]:
                time.sleep(0.005)
                continue
            listing = http.get(f"{base}/games/{game_id}/moves", headers=headers).json()
            move = rng.choice(listing["moves"])["move"]
            http.post(
                f"{base}/games/{game_id}/actions",
                headers=headers,
                json={"move": move, "version": listing["version"]},
            )
    return samples


def explain(slow: list[tuple[str, float, str, int]], worker_log: Path) -> None:
    """For each decision slower than 1.5 times its level's clock, the worker's job that made
    it (its JSON log line): how long it waited in the queue and how long it ran."""
    if not slow:
        return
    jobs = []
    for line in worker_log.read_text().splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            if entry.get("event") == "bot_job":
                jobs.append(entry)
    print("\nSlow decisions and the jobs that made them (worker log):")
    for title, seconds, game_id, version in slow:
        made = [
            job
            for job in jobs
            if job.get("game_id") == game_id
            and job.get("version", -1) < version <= job.get("reached_version", -1)
        ]
        found = (
            "; ".join(
                f"job from version {job['version']}: waited {job.get('queue_wait_ms')} ms, ran "
                f"{job.get('duration_ms')} ms, {job.get('moves')} moves"
                for job in made
            )
            or "no job found"
        )
        print(f"- {title} {game_id} version {version}: {seconds:.2f} s — {found}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="hard")
    parser.add_argument("--turns", type=int, default=25)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="skyline-bench-")
    redis_server = EmbeddedRedis(data, appendonly=True).start()
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
        "SKYLINE_RATE_LIMIT_PER_TOKEN": "off",
    }
    processes = Processes(env)
    port = free_port()
    try:
        processes.start(api_command(port))
        processes.start(worker_command())
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/readyz")
        budget = LEVELS[args.level].seconds or 0.0
        slow: list[tuple[str, float, str, int]] = []
        print("| game | level | turns | p50 s | p95 s | max s |")
        print("|---|---|---|---|---|---|")
        for title in args.game or sorted(GAMES):
            decisions = measure(base, title, args.level, args.turns, random.Random(title))
            samples = sorted(seconds for seconds, _, _ in decisions)
            p95 = percentile(samples, 0.95)
            print(
                f"| {title} | {args.level} | {len(samples)} | {statistics.median(samples):.2f} | {p95:.2f} "
                f"| {samples[-1]:.2f} |",
                flush=True,
            )
            slow.extend((title, *decision) for decision in decisions if budget and decision[0] > 1.5 * budget)
        explain(slow, Path(processes.logs[1].name))
    finally:
        processes.stop()
        redis_server.stop()


if __name__ == "__main__":
    main()
