"""Thousands of live event streams against `skyline serve`, while moves are played.

Starts a Redis (the embedded binary) and `skyline serve` on it (gunicorn's gevent worker, the
bot worker), creates ``--games`` two-human Property games, and measures, in one run:
  - GET /catalog latency (p50, p99) with no stream open;
  - ``--streams`` concurrent streams held by this one process (asyncio: a socket each, no
    thread), spread evenly over the games; memory per idle stream (RSS of gunicorn's
    processes after the streams opened, minus before, divided by the streams);
  - while a second process plays ``--moves`` moves round-robin over the games (GET moves, then
    POST the first listed move), every stream's events: each must receive every move of its
    game exactly once and in order. Fan-out latency is the time from a move's 200 (in the
    player process) to its arrival at each stream (both read CLOCK_MONOTONIC);
  - GET /catalog latency again with every stream open, and Redis's ``connected_clients``.
Usage:
    python bench/streams.py [--streams 5000] [--games 50] [--moves 250] [--workers 2]
Not a test; record the printed report in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402
import redis  # noqa: E402

from bench.measure import percentile  # noqa: E402
from harness.live import free_port, wait_http  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402


def http(method: str, url: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=30) as r:
        return json.loads(r.read())


def catalog_latencies(base: str, count: int = 200) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/catalog", timeout=30) as reply:
            reply.read()
        times.append(time.perf_counter() - started)
    return times


def play(base: str, games: list[dict], moves: int, pause: float, out) -> None:
    """The player process: round-robin moves; sends (game id, version, monotonic time of the 200)."""
    done = 0
    while done < moves:
        for game in games:
            if done >= moves:
                break
            shown = http("GET", f"{base}/games/{game['id']}")
            if shown["status"] != "active":
                continue
            token = game["tokens"][str(shown["to_act"][0])]
            listing = http("GET", f"{base}/games/{game['id']}/moves", token=token)
            reply = http(
                "POST",
                f"{base}/games/{game['id']}/actions",
                {"move": listing["moves"][0]["move"], "version": listing["version"]},
                token,
            )
            out.put((game["id"], reply["version"], time.monotonic()))
            done += 1
            time.sleep(pause)
    out.put(None)


class Stream:
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.snapshot_version: int | None = None
        self.versions: list[int] = []
        self.arrivals: dict[int, float] = {}
        self.writer: asyncio.StreamWriter | None = None
        self.error: str | None = None


async def hold(port: int, stream: Stream, opened: asyncio.Event, counter: list[int], target: int) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        stream.writer = writer
        writer.write(
            f"GET /games/{stream.game_id}/events HTTP/1.1\r\nHost: bench\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            stream.error = status.decode(errors="replace").strip()
            return
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # headers
        event_id = kind = None
        while True:
            line = await reader.readline()
            if not line:
                return
            line = line.rstrip(b"\r\n")
            if not line:
                continue
            # Chunked transfer: size lines are hex and never start with id/event/data.
            if line.startswith(b"id: "):
                event_id = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:]
            elif line.startswith(b"data: "):
                if kind == b"snapshot":
                    stream.snapshot_version = event_id
                    counter[0] += 1
                    if counter[0] == target:
                        opened.set()
                elif kind == b"move" and event_id is not None:
                    stream.versions.append(event_id)
                    stream.arrivals.setdefault(event_id, time.monotonic())
                event_id = kind = None
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        stream.error = repr(error)


def rss_of(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


async def run(
    args: argparse.Namespace, base: str, port: int, games: list[dict], api_pids: list[int], redis_url: str
):
    connection = redis.Redis.from_url(redis_url)
    idle_catalog = catalog_latencies(base)
    rss_before = rss_of(api_pids)
    clients_before = int(connection.info("clients")["connected_clients"])

    streams = [Stream(games[i % len(games)]["id"]) for i in range(args.streams)]
    opened, counter = asyncio.Event(), [0]
    gate = asyncio.Semaphore(200)  # connections being opened at once

    async def open_one(stream: Stream) -> None:
        async with gate:
            task = asyncio.create_task(hold(port, stream, opened, counter, args.streams))
            deadline = time.monotonic() + 60
            while stream.snapshot_version is None and stream.error is None and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        await task

    started = time.monotonic()
    tasks = [asyncio.create_task(open_one(s)) for s in streams]
    try:
        await asyncio.wait_for(opened.wait(), timeout=600)
    except TimeoutError:
        pass
    open_seconds = time.monotonic() - started
    held = sum(1 for s in streams if s.snapshot_version is not None and s.error is None)
    await asyncio.sleep(2)
    rss_after = rss_of(api_pids)
    loop = asyncio.get_running_loop()
    busy_catalog = await loop.run_in_executor(None, catalog_latencies, base)

    queue: multiprocessing.Queue = multiprocessing.Queue()
    player = multiprocessing.Process(target=play, args=(base, games, args.moves, args.pause, queue))
    player.start()
    landed: dict[tuple[str, int], float] = {}
    clients_during = []
    while True:
        item = await loop.run_in_executor(None, queue.get)
        if item is None:
            break
        landed[(item[0], item[1])] = item[2]
        if len(landed) % 25 == 0:
            clients_during.append(int(connection.info("clients")["connected_clients"]))
    player.join()
    await asyncio.sleep(3)  # the last moves reach every stream
    still_open = sum(
        1 for s in streams if s.error is None and s.writer is not None and not s.writer.is_closing()
    )

    latencies, missed, duplicated, disordered = [], 0, 0, 0
    by_game: dict[str, list[int]] = {}
    for (game_id, version), _ in landed.items():
        by_game.setdefault(game_id, []).append(version)
    for stream in streams:
        if stream.snapshot_version is None:
            continue
        expected = [v for v in sorted(by_game.get(stream.game_id, [])) if v > stream.snapshot_version]
        got = stream.versions
        duplicated += len(got) - len(set(got))
        disordered += sum(1 for a, b in zip(got, got[1:], strict=False) if b <= a)
        missed += len(set(expected) - set(got))
        for version in expected:
            if version in stream.arrivals:
                latencies.append(stream.arrivals[version] - landed[(stream.game_id, version)])
    for task in tasks:
        task.cancel()
    for stream in streams:
        if stream.writer is not None:
            stream.writer.close()
    errors = [s.error for s in streams if s.error]
    return {
        "streams asked": args.streams,
        "streams held": held,
        "still open at the end": still_open,
        "seconds to open them all": round(open_seconds, 1),
        "refused or failed": len(errors),
        "first errors": errors[:3],
        "games": len(games),
        "moves played": len(landed),
        "deliveries checked": len(latencies),
        "missed": missed,
        "duplicated": duplicated,
        "out of order": disordered,
        "fan-out p50 ms": round(percentile(latencies, 0.5) * 1000, 1),
        "fan-out p99 ms": round(percentile(latencies, 0.99) * 1000, 1),
        "fan-out max ms": round(max(latencies, default=float("nan")) * 1000, 1),
        "RSS of the API before, MiB": round(rss_before / 2**20, 1),
        "RSS of the API with the streams, MiB": round(rss_after / 2**20, 1),
        "KiB per idle stream": round((rss_after - rss_before) / max(1, held) / 1024, 1),
        "Redis connected_clients before / during (max)": (
            f"{clients_before} / {max(clients_during, default=0)}"
        ),
        "GET /catalog p50 / p99 ms, no stream": (
            f"{statistics.median(idle_catalog) * 1000:.1f} / {percentile(idle_catalog, 0.99) * 1000:.1f}"
        ),
        "GET /catalog p50 / p99 ms, streams open": (
            f"{statistics.median(busy_catalog) * 1000:.1f} / {percentile(busy_catalog, 0.99) * 1000:.1f}"
        ),
        "catalog p99 ratio (streams / none)": round(
            percentile(busy_catalog, 0.99) / percentile(idle_catalog, 0.99), 2
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=250)
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between two moves of the player")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.streams + 100:
        raise SystemExit(f"the open-files limit ({hard}) is below {args.streams} streams")

    workdir = Path(tempfile.mkdtemp(prefix="skyline-streams-"))
    server = EmbeddedRedis(workdir / "redis", appendonly=False).start()
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": server.url,
        "SKYLINE_STREAMS_PER_ADDRESS": "0",  # one client address holds every stream here
        "SKYLINE_STREAMS_PER_TOKEN": "0",
        "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
        "SKYLINE_RATE_LIMIT_PER_TOKEN": "off",
        "SKYLINE_SSE_MAX_SECONDS": "3600",
        "SKYLINE_ACCESS_LOG": "off",
        "SKYLINE_LOG_LEVEL": "WARNING",
    }
    log = open(workdir / "serve.log", "wb")  # noqa: SIM115
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "skyline.cli",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--data-dir",
            str(workdir / "var"),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base + "/readyz", timeout=60)
        gunicorn = [
            p
            for p in psutil.Process(serve.pid).children(recursive=True)
            if "gunicorn" in " ".join(p.cmdline())
        ]
        api_pids = [p.pid for p in gunicorn]
        games = []
        for index in range(args.games):
            created = http(
                "POST",
                base + "/games",
                {"title": "property", "seed": index, "seats": [{"kind": "human"}, {"kind": "human"}]},
            )
            games.append(
                {"id": created["id"], "tokens": {str(s["seat"]): s["token"] for s in created["seats"]}}
            )
        report = asyncio.run(run(args, base, port, games, api_pids, server.url))
        print(
            f"\n## Streams (`python bench/streams.py --streams {args.streams} --games {args.games} "
            f"--moves {args.moves} --workers {args.workers}`)\n"
        )
        print("| figure | value |\n|---|---|")
        for key, value in report.items():
            print(f"| {key} | {value} |")
    finally:
        serve.send_signal(2)
        try:
            serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            serve.kill()
        log.close()
        server.stop()


if __name__ == "__main__":
    main()
