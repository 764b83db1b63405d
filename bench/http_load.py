"""HTTP throughput and latency of GET moves and POST actions, beside the floor.

Starts one Redis (the embedded binary), the API as `skyline serve` runs it (gunicorn, gevent by default
+ an RQ worker) and two floors (bench/floor.py, same gunicorn settings, each one Redis GET: a bare
WSGI callable, the raw floor, and a minimal Flask endpoint); then, for 1, 8 and 32 concurrent
clients, measures requests per second and p50/p99 latency of
  - GET /floor on each floor, GET /games/{id}/moves, and POST /games/{id}/actions,
and each one's rate as a share of the raw floor's and of the Flask floor's.
Clients are threads with keep-alive connections. For POSTs the clients play human-vs-human
Property games created and played through locally with the engine before the clock starts
(enough for the phase, shared from one pool), so the phase is pure POSTs and the clients spend
no CPU on rules while timed; should the pool run dry a game is made in the phase, and the
table's row says how many were. Usage:
    python bench/http_load.py [--seconds 8] [--workers 2] [--rounds 3]
Each figure is the median of ``--rounds`` rounds that alternate the floors, GET and POST.
Not a test; record the printed table in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import percentile  # noqa: E402
from engines.registry import GAMES  # noqa: E402
from harness.live import Processes, api_command, free_port, wait_http, worker_command  # noqa: E402
from service.config import Settings  # noqa: E402
from service.run.embedded import (
    EmbeddedRedis,  # noqa: E402
    webhook_worker_command,  # noqa: E402
)


class Conn:
    def __init__(self, port: int) -> None:
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        started = time.perf_counter()
        self.c.request(method, path, body=data, headers=headers)
        response = self.c.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        if response.getheader("Connection", "").lower() == "close":
            self.c.close()
        return response.status, payload, elapsed


class ScriptedGame:
    """A human-vs-human Property game whose moves were chosen beforehand with the engine.

    The whole game is played locally when it is created, so during a timed phase the client
    only sends requests: it does not take the servers' CPU for rules of its own.
    """

    def __init__(self, conn: Conn, seed: int, extras: dict | None = None) -> None:
        status, payload, _ = conn.request(
            "POST",
            "/games",
            {
                "title": "property",
                "seed": seed,
                "seats": [{"kind": "human"}, {"kind": "human"}],
                **(extras or {}),
            },
        )
        assert status == 201, payload
        created = json.loads(payload)
        self.id = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        state = GAMES["property"].setup(2, {}, seed)
        self.first_seat = state.to_act()[0]
        rng = random.Random(seed)
        self.script: list[tuple[int, dict]] = []
        while not state.is_over():
            seat = state.to_act()[0]
            move = rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
            self.script.append((seat, move))
        self.version = 0

    def is_over(self) -> bool:
        return self.version >= len(self.script)

    def next_action(self) -> tuple[int, dict]:
        return self.script[self.version]

    def applied(self) -> None:
        self.version += 1


class CpuMeter:
    """CPU seconds used so far by this client process and by each server's process tree (Linux)."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.tick = os.sysconf("SC_CLK_TCK")

    def _stat(self, pid: int | str) -> list[str] | None:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            return None

    def _tree(self, root: int) -> float:
        total = 0.0
        for entry in os.listdir("/proc"):
            fields = self._stat(entry) if entry.isdigit() else None
            if fields and (int(entry) == root or int(fields[1]) == root):  # the root or its children
                total += (int(fields[11]) + int(fields[12])) / self.tick
        return total

    def read(self) -> dict[str, float]:
        return {"client": time.process_time(), **{name: self._tree(pid) for name, pid in self.pids.items()}}


# What the POST phases' games carry at creation (issue 47's clock, issue 48's webhooks): the
# move path must keep its ratios (a deadline and the outbox ride in the commit script).
EXTRAS: dict[str, dict] = {
    "post_action": {},
    "post_clock": {"clock": {"turn_seconds": 86400}},
    "post_webhooks": {"webhooks": [{"url": "RECEIVER"}]},
}


def run_phase(
    kind: str,
    port: int,
    clients: int,
    seconds: float,
    games_for_get: list,
    meter: CpuMeter | None = None,
    extras: dict | None = None,
) -> dict:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    seeds = iter(range(10_000 * clients, 10_000 * clients + 1_000_000))
    conns = [Conn(port) for _ in range(clients)]
    # Games for the POST clients, made and scripted before the clock starts: one each, and a
    # pool sized for POSTs faster than any seen here (a game is ~195 moves on average).
    pool: list[ScriptedGame] = []
    if kind.startswith("post"):
        pool = [
            ScriptedGame(conns[0], next(seeds), extras)
            for _ in range(clients + math.ceil(seconds * 2000 / 150))
        ]
    first_games = [pool.pop() if pool else None for _ in conns]
    made_while_timed = 0
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        nonlocal errors, made_while_timed
        conn = conns[index]
        mine: list[float] = []
        bad = 0
        game = first_games[index]
        while time.perf_counter() < deadline:
            if kind.startswith("floor"):
                status, _, elapsed = conn.request("GET", "/floor")
            elif kind == "get_moves":
                game_id, token = random.choice(games_for_get)
                status, _, elapsed = conn.request("GET", f"/games/{game_id}/moves", token=token)
            else:
                if game is None or game.is_over():
                    with lock:
                        game = pool.pop() if pool else None
                        if game is None:
                            made_while_timed += 1
                            seed = next(seeds)
                    game = game or ScriptedGame(conn, seed, extras)
                seat, move = game.next_action()
                status, _, elapsed = conn.request(
                    "POST",
                    f"/games/{game.id}/actions",
                    {"move": move, "version": game.version},
                    token=game.tokens[seat],
                )
                if status == 200:
                    game.applied()
            if status >= 400:
                bad += 1
            mine.append(elapsed)
        with lock:
            latencies.extend(mine)
            errors += bad

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    cpu_before = meter.read() if meter else {}
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    cpu_after = meter.read() if meter else {}
    latencies.sort()
    return {
        "cpu_us": {k: 1e6 * (cpu_after[k] - cpu_before[k]) / len(latencies) for k in cpu_before},
        "kind": kind,
        "clients": clients,
        "rps": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "errors": errors,
        "made_while_timed": made_while_timed,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per client count (medians)")
    parser.add_argument(
        "--rate-limit",
        choices=["token", "off"],
        default="token",
        help="token: per-token limit on (per address off: every client shares 127.0.0.1)",
    )
    parser.add_argument(
        "--with",
        dest="extras",
        default="clock,webhooks",
        help="POST phases besides plain games: games with a clock, games with a webhook (comma-separated)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="add each request's CPU time (µs): client / its server's processes / Redis",
    )
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="skyline-bench-")
    redis_server = EmbeddedRedis(data, appendonly=True).start()
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "SKYLINE_RATE_LIMIT_PER_ADDRESS": "off",
        # The webhook games' receiver is this process, on loopback, over http.
        "SKYLINE_WEBHOOK_ALLOW_HTTP": "1",
        "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1",
        "SKYLINE_WEBHOOK_RATE_PER_SECOND": "0",
    }
    if args.rate_limit == "off":
        env["SKYLINE_RATE_LIMIT_PER_TOKEN"] = "off"
    processes = Processes(env)
    api_port, floor_port, raw_port = free_port(), free_port(), free_port()
    try:
        api = processes.start(api_command(api_port, args.workers))
        processes.start(worker_command())
        processes.start(webhook_worker_command())
        receiver = _receiver()
        EXTRAS["post_webhooks"] = {"webhooks": [{"url": receiver}]}
        floor = api_command(floor_port, args.workers)
        floor[-1] = "bench.floor:app"
        floor_server = processes.start(floor)
        raw_floor = [*api_command(raw_port, args.workers)[:-1], "bench.floor:raw"]
        raw_server = processes.start(raw_floor)
        pids = {
            "api": api.pid,
            "floor": floor_server.pid,
            "floor_raw": raw_server.pid,
            "redis": redis_server.process.pid,
        }
        meter = CpuMeter(pids) if args.cpu else None
        wait_http(f"http://127.0.0.1:{api_port}/readyz")
        wait_http(f"http://127.0.0.1:{floor_port}/floor")
        wait_http(f"http://127.0.0.1:{raw_port}/floor")
        conn = Conn(api_port)
        games_for_get = []
        # Enough seats that GET moves never meets the per-token limit (600 a minute each):
        # three 8 s rounds at 2,000 req/s spread over 400 tokens stay under it.
        for seed in range(400):
            game = ScriptedGame(conn, seed)
            games_for_get.append((game.id, game.tokens[game.first_seat]))
        for clients in [int(c) for c in args.clients.split(",")]:
            # Rounds alternate the three kinds, so a slow spell of the machine (the floor
            # itself varies by a third from run to run here) weighs on all of them alike.
            kinds = [("floor_raw", raw_port), ("floor", floor_port), ("get_moves", api_port)]
            kinds += [("post_action", api_port)]
            kinds += [(f"post_{extra}", api_port) for extra in args.extras.split(",") if extra]
            rounds: dict[str, list[dict]] = {kind: [] for kind, _ in kinds}
            for _ in range(args.rounds):
                for kind, port in kinds:
                    rounds[kind].append(
                        run_phase(kind, port, clients, args.seconds, games_for_get, meter, EXTRAS[kind])
                        if kind.startswith("post")
                        else run_phase(kind, port, clients, args.seconds, games_for_get, meter)
                    )
            raw_rps = statistics.median(r["rps"] for r in rounds["floor_raw"])
            floor_rps = statistics.median(r["rps"] for r in rounds["floor"])
            for kind, runs in rounds.items():
                rps = statistics.median(r["rps"] for r in runs)
                cells = [kind, clients, f"{rps:.0f}", f"{rps / raw_rps:.0%}", f"{rps / floor_rps:.0%}"]
                cells += [f"{statistics.median(r[key] for r in runs):.1f}" for key in ("p50_ms", "p99_ms")]
                cells.append(sum(r["errors"] for r in runs))
                made = sum(r["made_while_timed"] for r in runs)
                if made:
                    cells[-1] = f"{cells[-1]} ({made} games made while timed)"
                if meter:
                    server = kind if kind.startswith("floor") else "api"
                    parts = ("client", server, "redis")
                    cpu = [statistics.median(r["cpu_us"][part] for r in runs) for part in parts]
                    cells.append(" / ".join(f"{us:.0f}" for us in cpu))
                print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
    finally:
        processes.stop()
        redis_server.stop()


def _receiver() -> str:
    """A webhook receiver in this process: answers 204 to every notice."""
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/hook"


if __name__ == "__main__":
    cpu_column = "--cpu" in sys.argv[1:]
    print(f"gunicorn {Settings.from_env().worker_class}, {os.cpu_count()} cores")
    header = "| request | clients | req/s | of raw floor | of Flask floor | p50 ms | p99 ms | errors |"
    print(header + (" CPU µs: client / server / Redis |" if cpu_column else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if cpu_column else ""))
    main()
