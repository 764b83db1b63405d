"""CPU per request of the API's WSGI app in this process, without a server: where a route's time goes.

    python bench/route_cpu.py [--requests 3000] [--rate-limit both|token|off] [--rounds 3]
        [--profile moves|actions [--sort tottime|cumulative] [--top 35]]

Starts one embedded Redis, builds the app as `skyline serve` does (access log to /dev/null,
metrics in single-process mode), and calls it with WSGI environs built here: GET /floor-like
(one Redis GET through a bare WSGI callable, the floor without Flask), GET /healthz (every
hook, no Redis), GET moves and POST actions of scripted Property games (as bench/http_load.py
plays them). Rate limits: both (the defaults' shape, per address and per token), token (as
bench/http_load.py runs), off. Prints the median over ``--rounds`` of CPU µs per request (this
process only: the client side costs nothing here, Redis's time is not counted). Figures from
one run compare with each other, not with another run; run it on older commits (PYTHONPATH
set to their checkout) to see what a change bought. Not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import logging
import pstats
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.registry import GAMES  # noqa: E402
from service.config import Settings, parse_rate  # noqa: E402
from service.http.services import services  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402
from skyline.web import api_app  # noqa: E402

FRENCH = {"Accept-Language": "fr-CA;q=0.9, en;q=0.8"}


def environ(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> dict:
    path, _, query = path.partition("?")
    env = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body:
        env["CONTENT_TYPE"] = "application/json"
        env["CONTENT_LENGTH"] = str(len(body))
    for name, value in (headers or {}).items():
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


def call(app, env: dict) -> tuple[str, bytes]:
    status: list[str] = []

    def start_response(s, headers, exc_info=None):
        status.append(s)

    chunks = app(env, start_response)
    body = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return status[0], body


class Script:
    def __init__(self, app, seed: int) -> None:
        body = orjson.dumps(
            {"title": "property", "seed": seed, "seats": [{"kind": "human"}, {"kind": "human"}]}
        )
        status, payload = call(app, environ("POST", "/games", body))
        assert status.startswith("201"), payload
        created = orjson.loads(payload)
        self.id = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
        state = GAMES["property"].setup(2, {}, seed)
        rng = random.Random(seed)
        self.steps = []
        while not state.is_over():
            seat = state.to_act()[0]
            move = rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
            self.steps.append((seat, move))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rate-limit", choices=["both", "token", "off"], default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", choices=["moves", "actions"], help="profile this route's requests")
    parser.add_argument("--sort", default="tottime", help="the profile's order (pstats: tottime, cumulative)")
    parser.add_argument("--top", type=int, default=35, help="how many of the profile's lines to print")
    args = parser.parse_args()
    logging.getLogger("skyline.access").addHandler(logging.NullHandler())
    logging.getLogger("skyline.access").propagate = False
    logging.getLogger("skyline.access").setLevel(logging.INFO)
    with tempfile.TemporaryDirectory() as folder:
        redis_server = EmbeddedRedis(Path(folder), appendonly=False).start()
        try:
            rate = parse_rate("100000000/60")
            settings = replace(
                Settings.from_env(),
                redis_url=redis_server.url,
                rate_limit_per_address=rate if args.rate_limit == "both" else None,
                rate_limit_per_token=rate if args.rate_limit != "off" else None,
                bot_games_per_address=0,
            )
            app = api_app(settings)
            run(app, redis_server.url, args)
        finally:
            redis_server.stop()


def run(app, redis_url: str, args) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.set("bench:floor", orjson.dumps({"version": 1, "moves": []}))

    def floor(env, start_response):
        start_response("200 OK", [("Content-Type", "application/json")])
        return [client.get("bench:floor")]

    n = args.requests
    results: dict[str, list[float]] = {}

    def timed(name, make_env, target=app, count=n):
        started = time.process_time()
        for i in range(count):
            status, payload = call(target, make_env(i))
            assert status[:1] in "23", (name, status, payload[:300])
        results.setdefault(name, []).append((time.process_time() - started) / count * 1e6)

    game = Script(app, 1)
    token = game.tokens[game.steps[0][0]]
    bearer = {"Authorization": f"Bearer {token}"}
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    moves_path = f"/games/{game.id}/moves"
    for _ in range(args.rounds):
        timed("floor (bare WSGI, one GET)", lambda i: environ("GET", "/floor"), target=floor)
        timed("GET /healthz", lambda i: environ("GET", "/healthz"))
        if profiler and args.profile == "moves":
            profiler.enable()
        timed("GET moves", lambda i: environ("GET", f"/games/{game.id}/moves", headers=bearer))
        if profiler:
            profiler.disable()
        # The same listing in French (issue 64: at most 1.1x the English), from the listing kept
        # per language and, with no listing kept, listed and labelled anew on every request.
        timed("GET moves (fr)", lambda i: environ("GET", moves_path, headers=FRENCH | bearer))
        listings = services(app).games.listings
        kept, listings.capacity = listings.capacity, 0
        listings._entries.clear()
        timed("GET moves, listed anew", lambda i: environ("GET", moves_path, headers=bearer))
        timed("GET moves, listed anew (fr)", lambda i: environ("GET", moves_path, headers=FRENCH | bearer))
        listings.capacity = kept
        plays = scripted_plays(app, n)

        def post(i, plays=plays):
            script, version, seat, move = plays[i]
            body = orjson.dumps({"move": move, "version": version})
            return environ(
                "POST",
                f"/games/{script.id}/actions",
                body,
                {"Authorization": f"Bearer {script.tokens[seat]}"},
            )

        if profiler and args.profile == "actions":
            profiler.enable()
        timed("POST actions", post, count=len(plays))
        if profiler:
            profiler.disable()
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())
    for name, runs in results.items():
        print(f"{name:32s} {statistics.median(runs):8.0f} µs CPU / request")
    median = {name: statistics.median(runs) for name, runs in results.items()}
    for english in ("GET moves", "GET moves, listed anew"):
        french = english + " (fr)"
        print(f"{french:32s} {median[french] / median[english]:8.2f} x the English")


def scripted_plays(app, count: int) -> list:
    """``count`` moves of fresh scripted games, each game's moves in order."""
    scripts = [Script(app, random.randrange(2**31)) for _ in range(count // 40 + 2)]
    plays = [(s, version, seat, move) for s in scripts for version, (seat, move) in enumerate(s.steps)]
    plays.sort(key=lambda play: play[1])  # every game's moves in order, games interleaved
    return plays[:count]


if __name__ == "__main__":
    main()
