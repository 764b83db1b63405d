"""Players on real processes (tests/ops fixtures): gunicorn APIs, a bot worker and a webhook worker
on a Redis of the test's own. The order and counts of "my games" over three titles (a bot's turn
played by the worker), an invitation raced by 20 other players, a rotated key refused at once on
the other API, a deleted player's seat played on by its token; the player's webhook, signed, once
per event across its games and never for another player's."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import requests
from standardwebhooks.webhooks import Webhook

from service.run.embedded import webhook_worker_command
from tests.ops.conftest import stack_factory  # noqa: F401  (the fixture, from the ops tests)
from tests.worker.test_webhooks import Receiver


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_player(base: str) -> dict[str, str]:
    reply = requests.post(f"{base}/players", timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def create(base: str, key: str | None, title: str, seats: list[dict], **extra) -> dict:
    body = {"title": title, "seats": seats, **extra}
    reply = requests.post(f"{base}/games", json=body, headers=bearer(key) if key else {}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def my_games(base: str, key: str) -> dict:
    reply = requests.get(f"{base}/players/me/games", headers=bearer(key), timeout=10)
    assert reply.status_code == 200, reply.text
    return reply.json()


ME = {"kind": "human", "player": "me"}
HUMAN = {"kind": "human"}


def test_my_games_order_counts_invitation_race_rotation_and_deletion(stack_factory):  # noqa: F811
    stack = stack_factory()
    first, _ = stack.api(workers=2)
    second, _ = stack.api(workers=1)
    stack.worker()
    ada = new_player(first)
    key = ada["key"]
    games = {
        "deadline": create(first, key, "property", [ME, HUMAN], seed=1, clock={"turn_seconds": 60}),
        "turn": create(second, key, "new-york", [ME, HUMAN], seed=0),
        # The bot acts first; once the worker has played, it is Ada's turn.
        "after_bot": create(first, key, "property", [ME, {"kind": "bot", "level": "easy"}], seed=0),
        "theirs": create(second, key, "fresh-fish", [ME, HUMAN], seed=0),
    }
    time.sleep(0.01)
    games["waiting"] = create(first, key, "fresh-fish", [ME, {"kind": "open"}])
    time.sleep(0.01)
    invitation = create(second, None, "new-york", [HUMAN, {"kind": "open", "player": ada["id"]}])
    games["invitation"] = invitation

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        body = my_games(second, key)
        shown = {g["id"]: g for g in body["games"]}
        if shown[games["after_bot"]["id"]]["my_turn"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the worker never played the bot's turn")
    order = [g["id"] for g in body["games"]]
    mine_first = [games["deadline"]["id"]]
    my_turns = {games["turn"]["id"], games["after_bot"]["id"]}
    assert order[0] == mine_first[0]
    assert set(order[1:3]) == my_turns
    assert order[3:] == [games["waiting"]["id"], games["theirs"]["id"], invitation["id"]]
    assert body["counts"] == {"my_turn": 3, "active": 4, "invitations": 1}
    assert {g["title"] for g in body["games"]} == {"property", "new-york", "fresh-fish"}

    # The invitation: 20 other players race for the seat, with the invitee among them.
    others = [new_player(first) for _ in range(20)]

    def join(player: dict[str, str], base: str) -> tuple[int, str | None]:
        url = f"{base}/games/{invitation['id']}/join"
        reply = requests.post(url, json={"seat": 1}, headers=bearer(player["key"]), timeout=30)
        return reply.status_code, reply.json().get("code")

    with ThreadPoolExecutor(max_workers=21) as pool:
        raced = [pool.submit(join, player, (first, second)[n % 2]) for n, player in enumerate(others)]
        invitee = pool.submit(join, ada, second)
        statuses = [future.result() for future in raced]
    # Refused, every one: the invited seat is not theirs (403), or, once the invitee has taken it,
    # it is taken (409) - which of the two depends only on when each request lands.
    assert set(statuses) <= {(403, "seat_invited"), (409, "seat_taken")}, statuses
    assert len(statuses) == 20 and invitee.result()[0] == 201
    shown = requests.get(f"{first}/games/{invitation['id']}", headers=bearer(key), timeout=10).json()
    assert shown["you"] == 1 and shown["status"] == "active"
    assert my_games(first, key)["counts"]["invitations"] == 0

    # A rotated key is refused at once on the other API; the new one works on both.
    rotated = requests.post(f"{first}/players/me/keys", headers=bearer(key), timeout=10).json()
    for base in (second, first):
        old = requests.get(f"{base}/games/{games['turn']['id']}", headers=bearer(key), timeout=10)
        assert old.status_code == 401 and old.json()["code"] == "invalid_player_key"
        assert requests.get(f"{base}/players/me/games", headers=bearer(rotated["key"]), timeout=10).ok

    # Deleted, the player's seats play on with their tokens.
    assert (
        requests.delete(f"{second}/players/me", headers=bearer(rotated["key"]), timeout=10).status_code == 204
    )
    token = games["turn"]["human_seats"][0]["token"]
    listing = requests.get(
        f"{first}/games/{games['turn']['id']}/moves", headers=bearer(token), timeout=10
    ).json()
    played = requests.post(
        f"{second}/games/{games['turn']['id']}/actions",
        json={"move": listing["moves"][0]["move"], "version": listing["version"]},
        headers=bearer(token),
        timeout=10,
    )
    assert played.status_code == 200, played.text


def test_the_players_webhook_gets_one_signed_notice_per_event_across_games_and_none_of_others(
    stack_factory,  # noqa: F811
):
    stack = stack_factory(SKYLINE_WEBHOOK_ALLOW_HTTP="1", SKYLINE_WEBHOOK_ALLOW_PRIVATE="1")
    base, _ = stack.api(workers=1)
    stack._start(webhook_worker_command(), {})
    ada_hook, cy_hook = Receiver(), Receiver()
    try:
        ada, cy = new_player(base), new_player(base)
        put = requests.put(
            f"{base}/players/me/webhook", json={"url": ada_hook.url}, headers=bearer(ada["key"])
        )
        secret = put.json()["webhook_secret"]
        requests.put(f"{base}/players/me/webhook", json={"url": cy_hook.url}, headers=bearer(cy["key"]))
        first = create(base, ada["key"], "property", [ME, HUMAN], seed=1)
        second = create(base, ada["key"], "new-york", [ME, HUMAN], seed=0)
        cys = create(base, cy["key"], "property", [ME, HUMAN], seed=1)
        resigned = requests.post(
            f"{base}/games/{first['id']}/resign", headers=bearer(first["human_seats"][1]["token"]), timeout=10
        )
        assert resigned.status_code == 200
        expected = {
            (first["id"], "game.started", 0),
            (first["id"], "game.turn", 0),
            (second["id"], "game.started", 0),
            (second["id"], "game.turn", 0),
            (first["id"], "seat.resigned", 1),
            (first["id"], "game.finished", 1),
        }
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            by_id = {headers["webhook-id"]: (headers, body) for headers, body in ada_hook.received}
            got = [Webhook(secret).verify(body, headers) for headers, body in by_id.values()]
            seen = [(n["data"]["game_id"], n["type"], n["data"]["version"]) for n in got]
            if len(seen) >= len(expected) and cy_hook.received:
                break
            time.sleep(0.1)
        time.sleep(1)  # anything more would have come by now
        by_id = {headers["webhook-id"]: (headers, body) for headers, body in ada_hook.received}
        got = [Webhook(secret).verify(body, headers) for headers, body in by_id.values()]
        seen = sorted((n["data"]["game_id"], n["type"], n["data"]["version"]) for n in got)
        assert seen == sorted(expected)  # one notice per event, Ada's games only
        cy_games = {orjson.loads(body)["data"]["game_id"] for _, body in cy_hook.received}
        assert cy_games == {cys["id"]}
        listed = requests.get(f"{base}/players/me/webhook", headers=bearer(ada["key"]), timeout=10).json()
        assert sorted((d["game_id"], d["type"], d["version"]) for d in listed["deliveries"]) == sorted(
            expected
        )
        assert all(d["state"] == "delivered" for d in listed["deliveries"])
    finally:
        ada_hook.close()
        cy_hook.close()
