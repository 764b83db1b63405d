"""/metrics: request counts and latencies by route template, moves, games, queue depth; summed over
gunicorn's processes (multiprocess mode) with dead workers marked; the worker's own metrics."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace

import psutil
import pytest
import redis
import requests
from rq import Queue
from rq.serializers import JSONSerializer

from service.run.embedded import EmbeddedRedis
from service.store.botqueue import ALL_BOT_QUEUE_NAME
from skyline.web import api_app

from ..conftest import LIVE_ENV, Processes, api_command, free_port, wait_http, worker_command


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a text exposition (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if found == labels:
                return float(line.rsplit(" ", 1)[1])
    return 0.0


@pytest.fixture
def private_redis(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def app_on_private_redis(settings, private_redis):
    client = redis.Redis.from_url(private_redis.url)
    return api_app(replace(settings, redis_url=private_redis.url), redis_client=client)


def test_requests_are_counted_by_route_template_and_status(client):
    before = client.get("/metrics").get_data(as_text=True)
    client.get("/catalog")
    client.get("/games/no-such-game")
    client.get("/no/such/address")
    after = client.get("/metrics")
    assert after.status_code == 200 and after.mimetype == "text/plain"
    text = after.get_data(as_text=True)

    def delta(name, **labels):
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert delta("skyline_http_requests_total", method="GET", route="/catalog", status="200") == 1
    assert delta("skyline_http_requests_total", method="GET", route="/games/{game_id}", status="404") == 1
    assert delta("skyline_http_requests_total", method="GET", route="<unmatched>", status="404") == 1
    histogram = dict(method="GET", route="/catalog", status="200")
    assert delta("skyline_http_request_duration_seconds_count", **histogram) == 1
    assert delta("skyline_http_request_duration_seconds_bucket", **histogram, le="+Inf") == 1
    assert "no-such-game" not in text, "game ids never become labels"


def test_moves_and_games_are_counted_by_title(client):
    before = client.get("/metrics").get_data(as_text=True)
    created = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    body = created.get_json()
    seat = body["to_act"][0]
    token = body["seats"][seat]["token"]
    listing = client.get(
        f"/games/{body['id']}/moves", headers={"Authorization": f"Bearer {token}"}
    ).get_json()
    move = {"move": listing["moves"][0]["move"], "version": 0}
    played = client.post(
        f"/games/{body['id']}/actions", json=move, headers={"Authorization": f"Bearer {token}"}
    )
    assert played.status_code == 200
    text = client.get("/metrics").get_data(as_text=True)
    moved = sample(text, "skyline_moves_applied_total", title="property", by="human")
    assert moved - sample(before, "skyline_moves_applied_total", title="property", by="human") == 1
    created_now = sample(text, "skyline_games_created_total", title="property")
    assert created_now - sample(before, "skyline_games_created_total", title="property") == 1


def test_queue_depth_is_read_from_redis_at_scrape_time(app_on_private_redis, private_redis):
    client = app_on_private_redis.test_client()
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "skyline_bot_queue_jobs", queue="skyline-bots", state="queued") == 0
    assert sample(text, "skyline_redis_up") == 1
    for seed in range(3):
        client.post(
            "/games", json={"title": "property", "seed": seed, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
        )
    client.post(
        "/games", json={"title": "property", "seed": 1, "seats": [{"kind": "bot"}, {"kind": "human"}]}
    )
    queue = Queue(
        ALL_BOT_QUEUE_NAME, connection=redis.Redis.from_url(private_redis.url), serializer=JSONSerializer
    )
    assert queue.count == 3
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "skyline_bot_queue_jobs", queue="skyline-bots-all-bot", state="queued") == 3
    assert sample(text, "skyline_bot_queue_jobs", queue="skyline-bots", state="queued") == 1
    assert sample(text, "skyline_bot_workers") == 0
    private_redis.halt()
    down = client.get("/metrics")
    assert down.status_code == 200 and sample(down.get_data(as_text=True), "skyline_redis_up") == 0


def test_service_never_imports_prometheus_client_at_import_time(tmp_path):
    """gunicorn's master imports ``service`` (for its config) before it forks: were
    prometheus_client imported then, the workers would not write multiprocess files."""
    code = (
        "import sys, service, service.run.gunicorn_conf, worker.jobs, worker.runner\n"
        "assert 'prometheus_client' not in sys.modules, 'imported too early'\n"
    )
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def gunicorn_children(master: subprocess.Popen) -> list[int]:
    return [child.pid for child in psutil.Process(master.pid).children()]


def test_metrics_are_summed_over_gunicorn_processes_and_dead_workers_are_marked(redis_server, tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    processes = Processes(env)
    port = free_port()
    master = processes.start(api_command(port, workers=2))
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/readyz")
        for _ in range(30):
            requests.get(url + "/catalog", timeout=10)  # a new connection each: both processes serve
        served = {int(p.stem.split("_")[-1]) for p in metrics_dir.glob("counter_*.db")}
        victim = next(pid for pid in gunicorn_children(master) if pid in served)
        assert (metrics_dir / f"gauge_livesum_{victim}.db").exists()
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (
            victim in gunicorn_children(master) or len(gunicorn_children(master)) < 2
        ):
            time.sleep(0.1)
        assert not (metrics_dir / f"gauge_livesum_{victim}.db").exists(), "child_exit marked it dead"
        for _ in range(10):
            requests.get(url + "/catalog", timeout=10)
        for _ in range(3):  # whichever process answers the scrape, it sums every process's files
            text = requests.get(url + "/metrics", timeout=10).text
            count = sample(text, "skyline_http_requests_total", method="GET", route="/catalog", status="200")
            assert count == 40, "the killed worker's requests still count"
            assert sample(text, "skyline_http_requests_in_flight") == 1, "only the scrape itself"
    finally:
        processes.stop()


def test_the_worker_serves_its_own_metrics_and_health(private_redis, app_on_private_redis):
    port = free_port()
    processes = Processes({**os.environ, "REDIS_URL": private_redis.url, "SKYLINE_WORKER_PORT": str(port)})
    processes.start(worker_command())
    client = app_on_private_redis.test_client()
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        seats = [{"kind": "bot", "bot": "random"}] * 2
        created = client.post("/games", json={"title": "property", "seed": 3, "seats": seats})
        game_id = created.get_json()["id"]
        deadline = time.monotonic() + 60
        while client.get(f"/games/{game_id}").get_json()["status"] != "finished":
            assert time.monotonic() < deadline, "the worker did not finish the game"
            time.sleep(0.1)
        version = client.get(f"/games/{game_id}").get_json()["version"]
        text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        assert sample(text, "skyline_bot_jobs_total", outcome="played") >= 1
        assert sample(text, "skyline_moves_applied_total", title="property", by="bot") == version
        assert sample(text, "skyline_bot_job_duration_seconds_count", outcome="played") >= 1
        assert requests.get(f"http://127.0.0.1:{port}/nope", timeout=10).status_code == 404
    finally:
        processes.stop()


def test_healthcheck_command_finds_the_api_or_the_worker(live, tmp_path):
    port = live.rsplit(":", 1)[1]
    command = [sys.executable, "-m", "skyline.cli", "healthcheck", "--timeout", "2"]
    env = {**os.environ, "PORT": port, "SKYLINE_WORKER_PORT": ""}
    assert subprocess.run(command, env=env, timeout=30).returncode == 0
    env = {**os.environ, "PORT": str(free_port()), "SKYLINE_WORKER_PORT": port}
    assert subprocess.run(command, env=env, timeout=30).returncode == 0
    env = {**os.environ, "PORT": str(free_port()), "SKYLINE_WORKER_PORT": str(free_port())}
    assert subprocess.run(command, env=env, capture_output=True, timeout=30).returncode == 1
