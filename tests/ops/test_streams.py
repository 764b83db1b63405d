"""Live event streams on a real gunicorn (gevent): many open streams never starve the API, each
receives its game's moves once and in order, Redis connections do not grow with streams, and
the per-address cap answers 429.
"""

from __future__ import annotations

import socket
import time

import redis
import requests

from .conftest import FailoverClient

STREAMS = 40  # more than the 2 x 8 threads the API had before streams were greenlets
POOL = 4  # Redis connections per API process
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def open_stream(port: int, game_id: str, token: str | None = None) -> socket.socket:
    """A raw socket holding one event stream, as a browser's EventSource would."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(
        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: localhost\r\n"
        f"Accept: text/event-stream\r\n{auth}\r\n".encode()
    )
    return sock


def read_until(sock: socket.socket, needle: bytes, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while needle not in data and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def connected_clients(connection: redis.Redis) -> int:
    return int(connection.info("clients")["connected_clients"])


def test_forty_open_streams_leave_the_api_responsive_and_each_gets_every_move(stack_factory):
    stack = stack_factory(
        SKYLINE_STREAMS_PER_ADDRESS=str(STREAMS + 5),
        SKYLINE_SSE_HEARTBEAT_SECONDS="1",
        SKYLINE_REDIS_CONNECTIONS=str(POOL),
    )
    api, _ = stack.api(workers=2)
    port = int(api.rsplit(":", 1)[1])
    connection = redis.Redis.from_url(stack.redis.url)
    client = FailoverClient([api])
    created = client.request("POST", "/games", json={"title": "property", "seed": 9, "seats": HUMANS}).json()
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    for _ in range(3):  # every process has made its Redis connections and its subscription
        requests.get(f"{api}/healthz", timeout=5)
    warm = [open_stream(port, game_id) for _ in range(4)]
    for sock in warm:
        assert b"event: snapshot" in read_until(sock, b"event: snapshot")

    streams = [open_stream(port, game_id) for _ in range(STREAMS - len(warm))] + warm
    for sock in streams[: STREAMS - len(warm)]:
        assert b"event: snapshot" in read_until(sock, b"event: snapshot")
    started = time.monotonic()
    assert requests.get(f"{api}/healthz", timeout=5).status_code == 200
    assert requests.get(f"{api}/catalog", timeout=5).status_code == 200
    healthz_seconds = time.monotonic() - started
    assert healthz_seconds < 1.0, f"/healthz and /catalog took {healthz_seconds:.2f} s"

    metrics = requests.get(f"{api}/metrics", timeout=5).text
    gauge = [line for line in metrics.splitlines() if line.startswith("skyline_event_streams_open")]
    assert gauge and float(gauge[0].split()[-1]) >= STREAMS, gauge

    # Two moves; every stream gets both, once each, in order.
    for _ in range(2):
        game = client.request("GET", f"/games/{game_id}").json()
        token = tokens[game["to_act"][0]]
        listing = client.request("GET", f"/games/{game_id}/moves", token).json()
        started = time.monotonic()
        reply = client.request(
            "POST",
            f"/games/{game_id}/actions",
            token,
            json={"move": listing["moves"][0]["move"], "version": listing["version"]},
        )
        assert reply.status_code == 200
        assert time.monotonic() - started < 1.0, "a move answers within a second"
    for sock in streams:
        data = read_until(sock, b"id: 2\n")
        assert data.count(b"event: move") == 2 and data.index(b"id: 1\n") < data.index(b"id: 2\n")
    # Two API processes with a pool each, the worker's few, this test's one: not one per stream.
    assert connected_clients(connection) <= 2 * POOL + 6, "streams hold no Redis connection of their own"

    # The cap: STREAMS + 5 per address.
    extra = [open_stream(port, game_id) for _ in range(5)]
    for sock in extra:
        assert b"event: snapshot" in read_until(sock, b"event: snapshot")
    refused = requests.get(
        f"{api}/games/{game_id}/events", headers={"Accept": "text/event-stream"}, timeout=5, stream=True
    )
    assert refused.status_code == 429
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert refused.json()["code"] == "too_many_streams"
    assert int(refused.headers["Retry-After"]) >= 1
    # Closing streams gives their places back.
    for sock in extra:
        sock.close()
    deadline = time.monotonic() + 5
    status = 429
    while status == 429 and time.monotonic() < deadline:
        time.sleep(0.3)
        with requests.get(
            f"{api}/games/{game_id}/events", headers={"Accept": "text/event-stream"}, timeout=5, stream=True
        ) as again:
            status = again.status_code
    assert status == 200, "a closed stream's place is given back (within a heartbeat)"
    for sock in streams:
        sock.close()
