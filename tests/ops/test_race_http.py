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
