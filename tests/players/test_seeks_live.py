"""200 seeks at once on real processes (tests/ops fixtures): two gunicorn workers, a webhook worker,
a Redis of the test's own. 200 players seek 3-seat games of one title at the same time: 66 games
are formed, two seeks wait, no player is in two games, no seek is used twice, and every seeker of
a game is told by its own player webhook (``game.started``)."""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service.run.embedded import webhook_worker_command
from tests.ops.conftest import stack_factory  # noqa: F401  (the fixture, from the ops tests)
from tests.worker.test_webhooks import Receiver

from .test_live import bearer, new_player

SEEKERS = 200


def test_200_seeks_at_once_form_66_games_each_player_once_each_seeker_told(stack_factory) -> None:  # noqa: F811
    # One receiving URL for all 200 players' webhooks: no bound on its deliveries a second, and a
    # delivery the test's receiver dropped under the load retried within seconds, not minutes.
    stack = stack_factory(
        SKYLINE_WEBHOOK_ALLOW_HTTP="1",
        SKYLINE_WEBHOOK_ALLOW_PRIVATE="1",
        SKYLINE_WEBHOOK_RATE_PER_SECOND="0",
        SKYLINE_WEBHOOK_RETRY_SCHEDULE="1,1,2,2,4",
    )
    base, _ = stack.api(workers=2)
    stack._start(webhook_worker_command(), {})
    hook = Receiver()
    try:
        with ThreadPoolExecutor(32) as pool:
            players = list(pool.map(lambda _: new_player(base), range(SEEKERS)))

            def hooked(player: dict) -> str:
                put = requests.put(
                    f"{base}/players/me/webhook",
                    json={"url": hook.url},
                    headers=bearer(player["key"]),
                    timeout=30,
                )
                assert put.status_code == 200, put.text
                return str(put.json()["webhook_secret"])

            secrets = list(pool.map(hooked, players))

            def seek(player: dict) -> dict:
                reply = requests.post(
                    f"{base}/seeks",
                    json={"title": "property", "seats": 3},
                    headers=bearer(player["key"]),
                    timeout=60,
                )
                assert reply.status_code == 201, reply.text
                return dict(reply.json())

            started = time.monotonic()
            list(pool.map(seek, players))
            took = time.monotonic() - started
            mine = list(
                pool.map(
                    lambda p: requests.get(f"{base}/seeks", headers=bearer(p["key"]), timeout=30).json()[
                        "seeks"
                    ],
                    players,
                )
            )
        statuses = Counter(seeks[0]["status"] for seeks in mine)
        assert all(len(seeks) == 1 for seeks in mine)
        assert statuses == {"matched": 198, "waiting": 2}, statuses
        by_game: dict[str, list[str]] = {}
        for player, seeks in zip(players, mine, strict=True):
            if seeks[0]["status"] == "matched":
                by_game.setdefault(seeks[0]["game"], []).append(player["id"])
        assert len(by_game) == 66 and all(len(set(seated)) == 3 for seated in by_game.values())
        for game_id in by_game:
            game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
            assert game["status"] == "active" and len(game["seats"]) == 3
        # Every seeker of a game hears game.started on its own webhook, signed with its own secret.
        wanted = {(game_id, player) for game_id, seated in by_game.items() for player in seated}
        secret_of = {player["id"]: secret for player, secret in zip(players, secrets, strict=True)}
        told: set[tuple[str, str]] = set()
        deadline = time.monotonic() + 90
        seen = 0
        while told != wanted and time.monotonic() < deadline:
            received = list(hook.received)
            for headers, body in received[seen:]:
                for player, secret in secret_of.items():
                    try:
                        notice = Webhook(secret).verify(body, headers)
                    except WebhookVerificationError:
                        continue
                    if notice["type"] == "game.started":
                        told.add((notice["data"]["game_id"], player))
                    break
            seen = len(received)
            time.sleep(0.2)
        missing = wanted - told
        key_of = {player["id"]: player["key"] for player in players}
        states = [
            requests.get(f"{base}/players/me/webhook", headers=bearer(key_of[who]), timeout=10).json()[
                "deliveries"
            ]
            for _, who in sorted(missing)[:3]
        ]
        games_missing = Counter(game_id for game_id, _ in missing)
        assert told == wanted, (
            f"{len(missing)} seekers not told, of games {games_missing}; "
            f"{len(hook.received)} received; {states}"
        )
        print(f"200 seeks at once: {took:.2f} s")
    finally:
        hook.close()
