"""Seats over HTTP on real processes (gunicorn with two workers, an RQ worker, a real Redis):
twenty clients join one last seat at once and exactly one gets it; a left seat's token is dead."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import redis
import requests

from service.store.keys import LOBBY, game_key, log_key

CLIENTS = 20


def _race(url: str, count: int, body_of) -> list[tuple[int, dict]]:
    barrier = threading.Barrier(count)
    sessions = [requests.Session() for _ in range(count)]

    def one(index: int) -> tuple[int, dict]:
        barrier.wait()
        reply = sessions[index].post(url, json=body_of(index), timeout=60)
        return reply.status_code, reply.json()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def test_twenty_clients_joining_the_last_seat_at_once_one_gets_it(live, redis_server):
    client = redis.Redis.from_url(redis_server.url)
    for named in (True, False):  # naming the seat, and taking the first open one
        created = requests.post(
            f"{live}/games",
            json={
                "title": "property",
                "listed": True,
                "seats": [
                    {"kind": "human", "name": "Ada"},
                    {"kind": "open"},
                    {"kind": "bot", "level": "random"},
                ],
            },
            timeout=10,
        ).json()
        game_id = created["id"]
        replies = _race(
            f"{live}/games/{game_id}/join",
            CLIENTS,
            lambda i, named=named: {"seat": 1, "name": f"P{i}"} if named else {"name": f"P{i}"},
        )
        won = [body for status, body in replies if status == 201]
        lost = [body for status, body in replies if status != 201]
        assert len(won) == 1, replies
        assert won[0]["seat"] == 1 and won[0]["status"] == "active" and won[0]["version"] == 1
        assert {status for status, _ in replies} == {201, 409}
        assert {body["code"] for body in lost} <= {"seat_taken", "game_not_waiting"}
        # Observed in Redis: one join, one version, the winner's name, out of the lobby.
        assert client.hget(game_key(game_id), "version") == b"1"
        assert client.llen(log_key(game_id)) == 1
        assert client.zscore(LOBBY, game_id) is None
        shown = requests.get(
            f"{live}/games/{game_id}", headers={"Authorization": f"Bearer {won[0]['token']}"}, timeout=10
        ).json()
        assert shown["you"] == 1 and shown["seats"][1]["name"] in {f"P{i}" for i in range(CLIENTS)}
        assert shown["status"] in ("active", "finished")


def test_a_left_seat_is_open_again_and_its_token_is_refused(live):
    created = requests.post(
        f"{live}/games",
        json={"title": "fresh-fish", "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]},
        timeout=10,
    ).json()
    game_id = created["id"]
    joined = requests.post(f"{live}/games/{game_id}/join", json={"seat": 2}, timeout=10).json()
    auth = {"Authorization": f"Bearer {joined['token']}"}
    assert requests.get(f"{live}/games/{game_id}", headers=auth, timeout=10).json()["you"] == 2
    left = requests.post(f"{live}/games/{game_id}/leave", headers=auth, timeout=10)
    assert left.status_code == 200 and left.json()["seat"] == 2
    for method, path in (("get", ""), ("get", "/moves"), ("post", "/leave"), ("post", "/abort")):
        refused = requests.request(method, f"{live}/games/{game_id}{path}", headers=auth, timeout=10)
        assert refused.status_code == 401 and refused.json()["code"] == "invalid_token", (path, refused.text)
    again = requests.post(f"{live}/games/{game_id}/join", json={"seat": 2}, timeout=10)
    assert again.status_code == 201 and again.json()["token"] != joined["token"]
