"""A game through the service on the lowest versions pyproject.toml allows.

Run by tests/deploy/test_dependency_floors.py with the interpreter of a virtualenv holding each
dependency at its floor (no pytest there: plain asserts). It plays what each dependency serves:
the app factory and a game through Flask, flask-smorest, webargs and marshmallow (a refusal as
problem+json too), orjson, the docs page (flask-swagger-ui, apispec, PyYAML), CORS (flask-cors),
metrics (prometheus-client), a bot turn by a burst worker (RQ, redis-py, hiredis), and gunicorn
with the production config (gevent worker, gunicorn's refusals as problem+json, a graceful stop).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.config import Settings, environment  # noqa: E402
from service.run.embedded import EmbeddedRedis, gunicorn_command  # noqa: E402
from skyline.web import api_app  # noqa: E402

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "bot": "random"}


def through_flask(redis_url: str) -> str:
    """A human's move, the docs, CORS, metrics and a refusal; returns the game, whose bot is to act."""
    client = api_app(Settings(redis_url=redis_url, rate_limit_per_address=None)).test_client()
    assert client.get("/catalog").status_code == 200
    created = client.post("/games", json={"title": "property", "seed": 1, "seats": [HUMAN, BOT]})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    token = next(seat["token"] for seat in game["seats"] if "token" in seat)
    auth = {"Authorization": f"Bearer {token}"}
    listing = client.get(f"/games/{game['id']}/moves", headers=auth).get_json()
    move = {"move": listing["moves"][0]["move"], "version": listing["version"]}
    moved = client.post(f"/games/{game['id']}/actions", json=move, headers=auth)
    assert moved.status_code == 200, moved.get_data(as_text=True)
    refused = client.post("/games", json={"title": "property", "seats": [HUMAN, BOT], "colour": "red"})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json", refused.data
    assert client.get("/docs/").status_code == 200 and client.get("/openapi.json").status_code == 200
    cors = client.get("/catalog", headers={"Origin": "https://app.example"})
    assert cors.headers["Access-Control-Allow-Origin"] == "*"
    assert b"skyline_http_requests_total" in client.get("/metrics").data
    assert moved.get_json()["status"] == "active"
    return game["id"]


def through_a_worker(redis_url: str, game_id: str) -> None:
    """`skyline worker --burst` plays the bot's turn."""
    done = subprocess.run(
        [sys.executable, "-m", "skyline.cli", "worker", "--burst"],
        env=environment(REDIS_URL=redis_url, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    jobs = [json.loads(line) for line in done.stdout.splitlines() if '"bot_job"' in line]
    assert any(job.get("game_id") == game_id and job["outcome"] == "played" for job in jobs), done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def through_gunicorn(redis_url: str, folder: Path) -> None:
    """gunicorn with service.run.gunicorn_conf: a game created, a refusal of gunicorn's own as
    problem+json, and a clean stop on SIGTERM well within the graceful timeout."""
    port = free_port()
    (folder / "metrics").mkdir()
    env = environment(
        REDIS_URL=redis_url,
        PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
        PYTHONPATH=str(ROOT),
        SKYLINE_LOG_FORMAT="json",
    )
    log_path = folder / "gunicorn.log"
    with open(log_path, "wb") as log:
        api = subprocess.Popen(
            gunicorn_command("127.0.0.1", port, 1),
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=1) as reply:
                    assert reply.status == 200
                    break
            except OSError:
                assert api.poll() is None and time.monotonic() < deadline, log_path.read_text()[-3000:]
                time.sleep(0.2)
        body = json.dumps({"title": "property", "seats": [HUMAN, HUMAN]}).encode()
        request = urllib.request.Request(
            base + "/games", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            assert reply.status == 201
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = raw.recv(65536)
        assert answer.startswith(b"HTTP/1.1 414") and b"application/problem+json" in answer, answer[:300]
        stopping = time.monotonic()
        os.killpg(api.pid, signal.SIGTERM)
        assert api.wait(timeout=30) == 0
        assert time.monotonic() - stopping < 10
        said = log_path.read_text(errors="replace")
        assert "Traceback" not in said, said[-3000:]
    finally:
        if api.poll() is None:
            os.killpg(api.pid, signal.SIGKILL)
            api.wait()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder) / "data", appendonly=False).start()
        try:
            game_id = through_flask(server.url)
            through_a_worker(server.url, game_id)
            through_gunicorn(server.url, Path(folder))
        finally:
            server.stop()
    print("floor smoke: passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
