"""Issue 45: a stop with open event streams is graceful.

Ctrl-C (and a pod's SIGTERM) ends every stream at once with a last ``retry:`` hint, lets the
requests in flight finish, and every process is gone in seconds, with no SIGKILL. A client that
comes back with ``Last-Event-ID`` to a new instance gets every move it missed.
"""

from __future__ import annotations

import re
import signal
import socket
import threading
import time

import pytest
import requests

from .conftest import alive, wait_gone
from .test_supervision import unexpected_lines

pytestmark = pytest.mark.xdist_group("supervisor")

STREAMS = 50
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def open_stream(port: int, game_id: str, last_event_id: int | None = None) -> socket.socket:
    """A raw socket holding one event stream, as a browser's EventSource would."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    resume = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
    sock.sendall(
        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: localhost\r\n"
        f"Accept: text/event-stream\r\n{resume}\r\n".encode()
    )
    return sock


def read_until(sock: socket.socket, done, timeout: float) -> bytes:
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while not done(data) and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data


def read_to_the_end(sock: socket.socket, timeout: float) -> tuple[bytes, bool]:
    """Everything until the server closes the connection; whether it did within the time."""
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return data, False
        if not chunk:
            return data, True
        data += chunk
    return data, False


def dechunk(data: bytes) -> tuple[bytes, bool]:
    """The body of a chunked HTTP reply (headers skipped), and whether its last chunk came."""
    body, rest = b"", data.split(b"\r\n\r\n", 1)[1]
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return body, True
        body, rest = body + rest[:size], rest[size + 2 :]
    return body, False


def event_ids(data: bytes) -> list[int]:
    return [int(v) for v in re.findall(rb"^id: (\d+)$", data, re.MULTILINE)]


class Mover:
    """Plays the game's moves from a thread, as fast as it can, until the server goes away."""

    def __init__(self, url: str, game: dict) -> None:
        self.url, self.game = url, game
        self.tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
        self.acknowledged: list[int] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        session = requests.Session()  # kept-alive connections, as a real client holds them
        game_id = self.game["id"]
        while not self._stop.is_set():
            try:
                got = session.get(f"{self.url}/games/{game_id}", timeout=5)
                if got.status_code != 200:
                    self.errors.append(f"game: {got.status_code} {got.text[:300]}")
                    return
                shown = got.json()
                if shown["status"] != "active":
                    self.errors.append(f"the game ended at version {shown['version']}")
                    return
                token = self.tokens[shown["to_act"][0]]
                auth = {"Authorization": f"Bearer {token}"}
                listed = session.get(f"{self.url}/games/{game_id}/moves", headers=auth, timeout=5)
                if listed.status_code != 200:
                    self.errors.append(f"moves: {listed.status_code} {listed.text[:300]}")
                    return
                listing = listed.json()
                reply = session.post(
                    f"{self.url}/games/{game_id}/actions",
                    json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                    headers=auth,
                    timeout=5,
                )
            except requests.ConnectionError:
                return  # the server has stopped accepting
            except (requests.RequestException, ValueError, KeyError, IndexError) as error:
                self.errors.append(repr(error))
                return
            if reply.status_code == 200 and "version" in reply.json():
                self.acknowledged.append(reply.json()["version"])
            else:
                self.errors.append(f"{reply.status_code} {reply.text[:200]}")
            self._stop.wait(0.02)  # a brisk player: the game lasts well past the stop

    def start(self) -> Mover:
        self._thread.start()
        return self

    def join(self) -> None:
        self._stop.set()
        self._thread.join(timeout=20)


def test_ctrl_c_with_fifty_streams_and_moves_in_flight_is_graceful_and_streams_resume(serves):
    serve = serves(SKYLINE_STREAMS_PER_ADDRESS=str(STREAMS + 10), SKYLINE_SSE_MAX_SECONDS="600").start()
    game = requests.post(
        serve.url + "/games", json={"title": "property", "seed": 5, "seats": HUMANS}, timeout=10
    )
    game = game.json()
    streams = [open_stream(serve.port, game["id"]) for _ in range(STREAMS)]
    beginnings = [read_until(sock, lambda d: b"event: snapshot" in d, 10) for sock in streams]
    assert all(b"event: snapshot" in data for data in beginnings)
    mover = Mover(serve.url, game).start()
    time.sleep(1.0)
    assert mover.acknowledged, "moves land before the stop"

    family = serve.descendants()
    stop_started = time.monotonic()
    serve.process.send_signal(signal.SIGINT)
    endings = [read_to_the_end(sock, 5.0) for sock in streams]
    for sock in streams:
        sock.close()
    assert serve.process.wait(timeout=10) == 0
    assert not wait_gone(family, max(0.0, 5.0 - (time.monotonic() - stop_started))), alive(family)
    stopped_in = time.monotonic() - stop_started
    mover.join()

    assert stopped_in < 5.0, f"every process gone in {stopped_in:.1f} s"
    log = serve.log()
    assert "killing" not in log and "Worker graceful timeout" not in log, log[-2000:]
    assert not unexpected_lines(log), unexpected_lines(log)[:3]  # no error, no 500 on the way out
    assert not mover.errors, mover.errors[:3]
    last_seen = []
    for beginning, (data, closed) in zip(beginnings, endings, strict=True):
        body, complete = dechunk(beginning + data)
        assert closed and complete, "the server ended every stream, and closed it"
        assert re.search(rb"\nretry: \d+\n\n$", body), body[-300:]
        last_seen.append(event_ids(body)[-1])
    last = mover.acknowledged[-1]
    assert max(last_seen) <= last

    # A new instance on the same data; moves go on; each stream resumes where it was cut.
    serve.start()
    more = requests.Session()
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    for _ in range(3):
        shown = more.get(f"{serve.url}/games/{game['id']}", timeout=5).json()
        auth = {"Authorization": f"Bearer {tokens[shown['to_act'][0]]}"}
        listing = more.get(f"{serve.url}/games/{game['id']}/moves", headers=auth, timeout=5).json()
        reply = more.post(
            f"{serve.url}/games/{game['id']}/actions",
            json={"move": listing["moves"][0]["move"], "version": listing["version"]},
            headers=auth,
            timeout=5,
        )
        assert reply.status_code == 200
        last = reply.json()["version"]
    for seen in sorted(set(last_seen)):
        sock = open_stream(serve.port, game["id"], last_event_id=seen)
        data = read_until(sock, lambda d, s=seen: f"id: {last}\n".encode() in d, 10)
        sock.close()
        assert b"event: snapshot" not in data
        assert event_ids(data) == list(range(seen + 1, last + 1)), f"resumed after {seen}: every move since"
    assert set(mover.acknowledged) <= set(range(1, last + 1))
