"""Fair bot scheduling on real processes: one client's many games of bots cannot keep another
client's bot opponent waiting, and they still progress; the per-address quota answers 429.
"""

from __future__ import annotations

import time

import redis

from service.store.keys import game_key

from .conftest import FailoverClient

HUMAN = {"kind": "human"}
ALL_BOT_GAMES = 50


def versions(connection: redis.Redis, game_ids: list[str]) -> list[int]:
    pipe = connection.pipeline(transaction=False)
    for game_id in game_ids:
        pipe.hget(game_key(game_id), "version")
    return [int(v) for v in pipe.execute()]


def test_fifty_games_of_bots_do_not_delay_a_humans_bot_opponent(stack_factory):
    stack = stack_factory(SKYLINE_BOT_GAMES_PER_ADDRESS=str(ALL_BOT_GAMES))
    api, _ = stack.api()
    stack.worker()
    connection = redis.Redis.from_url(stack.redis.url)
    client = FailoverClient([api])
    medium = {"kind": "bot", "level": "medium"}  # ISMCTS: about half a second a move
    bot_games = [
        client.request(
            "POST", "/games", json={"title": "property", "seed": seed, "seats": [medium, medium]}
        ).json()["id"]
        for seed in range(ALL_BOT_GAMES)
    ]
    refused = client.request("POST", "/games", json={"title": "property", "seats": [medium, medium]})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_bot_games"
    assert int(refused.headers["Retry-After"]) > 0
    time.sleep(1.0)
    before = sum(versions(connection, bot_games))

    random_bot = {"kind": "bot", "bot": "random"}
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 3, "seats": [HUMAN, random_bot]}
    )
    game = created.json()
    game_id, token = game["id"], game["seats"][0]["token"]
    waits = []
    deadline = time.monotonic() + 120
    version = 0
    while len(waits) < 20 and time.monotonic() < deadline:
        shown = client.request("GET", f"/games/{game_id}", token).json()
        if shown["status"] != "active":
            break
        if 0 not in shown["to_act"]:
            time.sleep(0.01)
            continue
        listing = client.request("GET", f"/games/{game_id}/moves", token).json()
        reply = client.request(
            "POST",
            f"/games/{game_id}/actions",
            token,
            json={"move": listing["moves"][0]["move"], "version": listing["version"]},
        )
        assert reply.status_code == 200, reply.text
        body = reply.json()
        version = body["version"]
        if 1 not in body["to_act"]:
            continue
        answered = time.monotonic()
        while versions(connection, [game_id])[0] == version:
            assert time.monotonic() - answered < 30, "the bot opponent never answered"
            time.sleep(0.005)
        waits.append(time.monotonic() - answered)
    assert len(waits) >= 20, f"only {len(waits)} bot turns measured"
    p95 = sorted(waits)[int(0.95 * len(waits)) - 1]
    assert p95 <= 2.0, f"the bot opponent answered in {p95:.2f} s at the 95th percentile: {sorted(waits)}"
    after = sum(versions(connection, bot_games))
    assert after > before, "the games of bots still progress"
