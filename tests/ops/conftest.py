"""Real processes for the production proofs: a Redis of the test's own, gunicorn APIs and RQ workers
started and killed one by one, and an HTTP client that fails over between APIs like a load balancer.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest
import requests

from engines import registry
from service.run.embedded import EmbeddedRedis, webhook_worker_command

from ..conftest import LIVE_ENV, QUICK_STOP, Processes, api_command, free_port, wait_http, worker_command


class Stack:
    """One Redis (AOF on) with any number of APIs and workers, each started with its own environment."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.redis = EmbeddedRedis(data_dir, appendonly=True).start()
        self.env = {**os.environ, **LIVE_ENV, **QUICK_STOP, "REDIS_URL": self.redis.url, **env}
        self.groups: list[Processes] = []

    def _start(self, command: list[str], env: dict[str, str]):
        processes = Processes({**self.env, **env})
        self.groups.append(processes)
        return processes.start(command)

    def api(self, workers: int = 1, **env: str) -> tuple[str, subprocess.Popen]:
        port = free_port()
        child = self._start(api_command(port, workers), env)
        url = f"http://127.0.0.1:{port}"
        wait_http(url + "/readyz")
        return url, child

    def worker(self, **env: str):
        return self._start(worker_command(), env)

    def webhook_worker(self, **env: str):
        return self._start(webhook_worker_command(), env)

    @staticmethod
    def kill(child, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to a process and all its descendants (gunicorn's master and workers)."""
        try:
            family = [*psutil.Process(child.pid).children(recursive=True), psutil.Process(child.pid)]
        except psutil.NoSuchProcess:
            return
        for process in family:
            try:
                process.send_signal(sig)
            except psutil.NoSuchProcess:
                pass
        child.wait(timeout=15)

    def close(self) -> None:
        for processes in self.groups:  # all signalled first: each group's stop waits for its own
            processes.terminate()
        for processes in self.groups:
            processes.stop()
        self.redis.stop()


@pytest.fixture
def stack_factory(tmp_path):
    stacks: list[Stack] = []

    def make(**env: str) -> Stack:
        stack = Stack(tmp_path / f"stack{len(stacks)}", **env)
        stacks.append(stack)
        return stack

    yield make
    for stack in stacks:
        stack.close()


class FailoverClient:
    """Sends each request to the next API in turn; an API that refuses connections is dropped,
    and the request goes to the next one — what a load balancer does for its clients."""

    def __init__(self, bases: list[str]) -> None:
        self.bases = list(bases)
        self.turn = 0
        self.http = requests.Session()
        self.failovers = 0
        self.served_by: dict[str, int] = {base: 0 for base in bases}

    def request(self, method: str, path: str, token: str | None = None, **kwargs) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        while self.bases:
            base = self.bases[self.turn % len(self.bases)]
            self.turn += 1
            try:
                response = self.http.request(method, base + path, headers=headers, timeout=30, **kwargs)
            except requests.ConnectionError:
                self.bases.remove(base)
                self.failovers += 1
                continue
            assert response.status_code < 500, f"{method} {path} via {base}: {response.text}"
            self.served_by[base] += 1
            return response
        raise AssertionError("no API left")


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if "token" in seat}


def play_until(
    client: FailoverClient,
    game_id: str,
    tokens: dict[int, str],
    rng: random.Random,
    *,
    stop=lambda game: False,
    timeout: float = 120.0,
) -> dict:
    """Play the human seats' moves (random legal ones) until the game ends or ``stop(game)``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = client.request("GET", f"/games/{game_id}").json()
        if game["status"] == "finished" or stop(game):
            return game
        humans = [seat for seat in game["to_act"] if seat in tokens]
        if not humans:
            time.sleep(0.02)  # a bot's turn, in a worker
            continue
        seat = rng.choice(humans)
        listing = client.request("GET", f"/games/{game_id}/moves", tokens[seat]).json()
        if not listing["moves"]:
            continue
        move = rng.choice(listing["moves"])["move"]
        reply = client.request(
            "POST",
            f"/games/{game_id}/actions",
            tokens[seat],
            json={"move": move, "version": listing["version"]},
        )
        assert reply.status_code in (200, 409), reply.text
    raise AssertionError(f"game {game_id} neither ended nor reached the stop condition in {timeout} s")


def create_game(url: str, seats: list[dict] | None = None, **body) -> dict:
    """A Property game (two humans unless ``seats`` says otherwise) created on the API at ``url``."""
    sent = {"title": "property", "seats": seats or [{"kind": "human"}, {"kind": "human"}], **body}
    reply = requests.post(f"{url}/games", json=sent, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def play_first_moves(url: str, game: dict, count: int | None = None) -> list[int]:
    """Play the first listed move of the seat to act, ``count`` times (until the game ends when
    None), in a game of human seats; the versions acknowledged (200)."""
    tokens = tokens_of(game)
    session = requests.Session()
    acknowledged: list[int] = []
    while count is None or len(acknowledged) < count:
        shown = session.get(f"{url}/games/{game['id']}", timeout=10).json()
        if shown["status"] != "active":
            break
        token = tokens[shown["to_act"][0]]
        listing = session.get(
            f"{url}/games/{game['id']}/moves", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
        reply = session.post(
            f"{url}/games/{game['id']}/actions",
            json={"move": listing["moves"][0]["move"], "version": listing["version"]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert reply.status_code == 200, reply.text
        acknowledged.append(reply.json()["version"])
        if count is None and len(acknowledged) > 5000:
            raise AssertionError("the game did not end")
    return acknowledged


SHORT_GAME_MOVES = 6  # moves played before a resignation ends a game (`end_by_resigning`)


def end_by_resigning(url: str, game: dict, moves: int = SHORT_GAME_MOVES) -> int:
    """End a two-human game as an archive sees any ended game (finished, a result, due): its first
    ``moves`` listed moves, then seat 0 resigns and the other wins. Its last version. Where the
    point is the archive, not the game, this costs a handful of requests where a Property game
    played to its end costs some five hundred (how a game ends does not reach the archiver)."""
    play_first_moves(url, game, count=moves)
    token = tokens_of(game)[0]
    reply = requests.post(
        f"{url}/games/{game['id']}/resign", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert reply.status_code == 200, reply.text
    shown = requests.get(f"{url}/games/{game['id']}", timeout=10).json()
    assert shown["status"] == "finished", shown
    assert requests.get(f"{url}/games/{game['id']}/record", timeout=10).json()["result"] is not None
    return int(shown["version"])


def assert_record_replays(client: FailoverClient, game_id: str) -> dict:
    """The record replays, move by move, to the stored result; versions are 1..n with no gap."""
    record = client.request("GET", f"/games/{game_id}/record").json()
    events = client.request("GET", f"/games/{game_id}/events").json()
    versions = [entry["version"] for entry in events["events"]]
    assert versions == list(range(1, len(record["moves"]) + 1)), "one log entry per version, none lost"
    game = registry.get(record["title"], record["rules_version"])
    state = game.setup(len(record["seats"]), record["options"], record["seed"])
    for entry in record["moves"]:
        state.apply(entry["seat"], entry["move"])
    assert state.is_over() and state.result().to_dict() == record["result"]
    return record


class Serve:
    """One `skyline serve` on a data folder and a port, its output in a file."""

    def __init__(self, data_dir: Path, port: int, log_path: Path, **env: str) -> None:
        self.data_dir, self.port, self.log_path = data_dir, port, log_path
        self.url = f"http://127.0.0.1:{port}"
        environment = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        self.env = {**environment, **LIVE_ENV, **env}
        self.process: subprocess.Popen | None = None

    def start(self, *, wait: bool = True) -> Serve:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "skyline.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--workers",
                    "1",
                    "--data-dir",
                    str(self.data_dir),
                ],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if wait:
            wait_http(self.url + "/readyz")
        return self

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def family(self) -> list[psutil.Process]:
        """The processes the service starts and supervises: its descendants but for PostgreSQL's
        own children, which the postmaster starts and ends by itself (a backend per connection,
        autovacuum workers), so they come and go in a healthy service."""
        processes = self.descendants()
        postmasters = {p.pid for p in processes if p.name() == "postgres" and p.ppid() == self.process.pid}
        return [p for p in processes if p.ppid() not in postmasters]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def redis_url(self) -> str:
        """The embedded Redis's URL, as the supervisor printed it."""
        for line in self.log().splitlines():
            if line.startswith("skyline: embedded Redis on "):
                return f"unix://{line.split()[4]}?db=0"
        raise AssertionError("no embedded Redis in the log")

    def database_url(self) -> str:
        """The embedded PostgreSQL's URL, as the supervisor last printed it (its socket folder is
        new at each start)."""
        printed = [
            line.split()[4]
            for line in self.log().splitlines()
            if line.startswith("skyline: embedded PostgreSQL on ")
        ]
        assert printed, "no embedded PostgreSQL in the log"
        return printed[-1]

    def named(self, word: str, without: str | None = None) -> list[psutil.Process]:
        """The descendants whose command line holds ``word`` ("worker", "gunicorn", "redis-server"),
        and not ``without`` (a bot worker's is a webhook worker's without ``--webhooks``)."""
        found = []
        for process in alive(self.descendants()):
            try:
                line = " ".join(process.cmdline())
                if word in line and (without is None or without not in line):
                    found.append(process)
            except psutil.NoSuchProcess:
                pass
        return found

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    left = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                left.append(process)
        except psutil.NoSuchProcess:
            pass
    return left


def wait_gone(processes: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    deadline = time.monotonic() + timeout
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(processes)


def data_folder() -> Path:
    """A data folder for `skyline serve` outside pytest's: as root, the embedded PostgreSQL runs as
    another user who must reach its folder, and every pytest session on the machine takes the search
    bit off /tmp/pytest-of-root again (tests/archive/conftest.py does the same)."""
    return Path(tempfile.mkdtemp(prefix="skyline-serve-test-"))


@pytest.fixture
def serves(tmp_path):
    started: list[Serve] = []
    folders: list[Path] = []

    def make(data_dir: Path | None = None, port: int | None = None, **env: str) -> Serve:
        if data_dir is None:
            folders.append(data_folder())
            data_dir = folders[-1] / "var"
        serve = Serve(data_dir, port or free_port(), tmp_path / f"serve{len(started)}.log", **env)
        started.append(serve)
        return serve

    yield make
    for serve in started:
        if serve.process is not None and serve.process.poll() is None:
            family = alive(serve.descendants())
            serve.process.send_signal(signal.SIGINT)
            try:
                serve.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                serve.kill()
            for process in alive(family):
                process.kill()
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
