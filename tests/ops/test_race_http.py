"""50 clients race moves on one game over HTTP: exactly one lands per version, the rest get 409."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import requests

CLIENTS = 50
ROUNDS = 6


def race(live, game_id, token, version, choices, sessions) -> list[tuple[int, dict, dict]]:
    """Every client posts its move at ``version`` at the same instant."""
    barrier = threading.Barrier(len(sessions))

    def one(index: int) -> tuple[int, dict, dict]:
        barrier.wait()
        reply = sessions[index].post(
            f"{live}/games/{game_id}/actions",
            json={"move": choices[index], "version": version},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        return reply.status_code, reply.json(), choices[index]

    with ThreadPoolExecutor(len(sessions)) as pool:
        return list(pool.map(one, range(len(sessions))))


def test_fifty_clients_racing_over_http_land_exactly_one_move_per_version(live):
    created = requests.post(
        f"{live}/games",
        json={"title": "property", "seed": 17, "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=10,
    ).json()
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    sessions = [requests.Session() for _ in range(CLIENTS)]
    winners = []
    for round_ in range(ROUNDS):
        game = requests.get(f"{live}/games/{game_id}", timeout=10).json()
        assert game["version"] == round_, "no update lost, none doubled"
        token = tokens[game["to_act"][0]]
        listing = requests.get(
            f"{live}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
        rng = random.Random(round_)
        choices = [rng.choice(listing["moves"])["move"] for _ in range(CLIENTS)]  # different moves
        outcomes = race(live, game_id, token, round_, choices, sessions)
        statuses = [status for status, _, _ in outcomes]
        assert statuses.count(200) == 1, statuses
        assert statuses.count(409) == CLIENTS - 1, statuses
        assert {body["code"] for status, body, _ in outcomes if status == 409} == {"stale_version"}
        (won,) = [(body, move) for status, body, move in outcomes if status == 200]
        assert won[0]["version"] == round_ + 1
        winners.append(won[1])
    log = requests.get(f"{live}/games/{game_id}/events", timeout=10).json()
    game = requests.get(f"{live}/games/{game_id}", timeout=10).json()
    assert game["version"] == ROUNDS == len(log["events"])
    assert [entry["version"] for entry in log["events"]] == list(range(1, ROUNDS + 1))
    # Spectators see no moves; the players' own log shows that each landed move is the winner's.
    for index, entry in enumerate(log["events"]):
        mine = requests.get(
            f"{live}/games/{game_id}/events",
            params={"since": index},
            headers={"Authorization": f"Bearer {tokens[entry['seat']]}"},
            timeout=10,
        ).json()["events"][0]
        assert mine["move"] == winners[index], f"version {index + 1} holds the winning client's move"


IDEMPOTENT_ROUNDS = 30


def test_fifty_identical_requests_with_one_idempotency_key_all_get_the_first_reply(live):
    """Retries racing the request they retry: the commit checks the key before the version, so a
    request whose move landed is answered with the original reply (``replayed``), never 409."""
    created = requests.post(
        f"{live}/games",
        json={"title": "property", "seed": 23, "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=10,
    ).json()
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    sessions = [requests.Session() for _ in range(CLIENTS)]
    conflicts = 0
    for round_ in range(IDEMPOTENT_ROUNDS):
        game = requests.get(f"{live}/games/{game_id}", timeout=10).json()
        assert game["version"] == round_, "exactly one move landed per round"
        token = tokens[game["to_act"][0]]
        listing = requests.get(
            f"{live}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
        move = random.Random(round_).choice(listing["moves"])["move"]
        barrier = threading.Barrier(CLIENTS)

        def one(index: int, move=move, token=token, round_=round_, barrier=barrier):
            barrier.wait()
            reply = sessions[index].post(
                f"{live}/games/{game_id}/actions",
                json={"move": move, "version": round_},
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"round-{round_}"},
                timeout=60,
            )
            return reply.status_code, reply.json()

        with ThreadPoolExecutor(CLIENTS) as pool:
            outcomes = list(pool.map(one, range(CLIENTS)))
        statuses = [status for status, _ in outcomes]
        assert set(statuses) == {200}, f"round {round_}: {sorted(set(statuses))}"
        firsts = [body for _, body in outcomes if not body.get("replayed")]
        replays = [body for _, body in outcomes if body.get("replayed")]
        assert len(firsts) == 1, "one request applied the move; every other one is its replay"
        assert all({**body, "replayed": False} == {**firsts[0], "replayed": False} for body in replays)
        assert firsts[0]["version"] == round_ + 1
        conflicts += statuses.count(409)
    assert conflicts == 0
    log = requests.get(f"{live}/games/{game_id}/events", timeout=10).json()
    assert [entry["version"] for entry in log["events"]] == list(range(1, IDEMPOTENT_ROUNDS + 1))
