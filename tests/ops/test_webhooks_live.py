"""Webhooks end to end, on real processes: gunicorn, a bot worker and a webhook worker on a real
Redis, and a real HTTP receiver that verifies every signature with the ``standardwebhooks``
library (issue 48).

The receiver listens on loopback over http, so these servers run with
``SKYLINE_WEBHOOK_ALLOW_HTTP`` and ``SKYLINE_WEBHOOK_ALLOW_PRIVATE`` (the refusal without them
is its own test), a retry schedule of a fraction of a second and a short lease, so that what
takes hours in production takes seconds here.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
import requests

from service.run.embedded import EmbeddedRedis, webhook_worker_command, worker_command
from tests.conftest import LIVE_ENV, Processes, api_command, free_port, play_until_over, wait_http
from tests.worker.test_webhooks import Receiver

pytestmark = pytest.mark.xdist_group("webhooks-live")
LEASE = 3.0
# The first retry of slow_retry's webhook worker: long enough to tell a notice sent when due from
# one held back behind a failed one, on a busy machine.
SLOW_RETRY = 8.0


@pytest.fixture(scope="module")
def hooked(tmp_path_factory):
    """A live API, a bot worker and a webhook worker on a Redis of their own (the games of bots
    here must not wait behind the suite's human games); yields (url, processes, webhook worker)."""
    redis_server = EmbeddedRedis(tmp_path_factory.mktemp("hooked-redis"), appendonly=False).start()
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "SKYLINE_WEBHOOK_ALLOW_HTTP": "1",
        "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1",
        "SKYLINE_WEBHOOK_RETRY_SCHEDULE": "0.3,0.3,0.3,0.3,0.3",
        "SKYLINE_WEBHOOK_LEASE_SECONDS": str(LEASE),
    }
    processes = Processes(env)
    port = free_port()
    processes.start(api_command(port))
    processes.start(worker_command())
    webhook_worker = processes.start(webhook_worker_command())
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/readyz")
    yield url, processes, webhook_worker
    processes.stop()
    redis_server.stop()


@pytest.fixture(scope="module")
def slow_retry(tmp_path_factory):
    """A live API and a webhook worker (no bot worker: its games are of humans) whose retries wait
    SLOW_RETRY seconds; yields the API's URL."""
    redis_server = EmbeddedRedis(tmp_path_factory.mktemp("slow-retry-redis"), appendonly=False).start()
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "SKYLINE_WEBHOOK_ALLOW_HTTP": "1",
        "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1",
        "SKYLINE_WEBHOOK_RETRY_SCHEDULE": f"{SLOW_RETRY},{SLOW_RETRY}",
        "SKYLINE_WEBHOOK_LEASE_SECONDS": str(LEASE),
    }
    processes = Processes(env)
    port = free_port()
    processes.start(api_command(port, workers=1))
    processes.start(webhook_worker_command())
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/readyz")
    yield url
    processes.stop()
    redis_server.stop()


def _verified(receiver: Receiver, secret: str) -> list[tuple[str, dict]]:
    """Every request the receiver got, each verified with standardwebhooks: (webhook-id, notice)."""
    from standardwebhooks.webhooks import Webhook

    verifier = Webhook(secret)
    out = []
    for headers, body in list(receiver.received):
        notice = verifier.verify(body, headers)  # raises on a bad signature
        out.append((headers["webhook-id"], notice))
    return out


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait(predicate, limit: float = 30.0, what: str = "the deliveries"):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not arrive in {limit} s")


def _create(url: str, hook_url: str, **extra) -> dict:
    body = {
        "title": "property",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        "webhooks": [{"url": hook_url}],
        **extra,
    }
    reply = requests.post(f"{url}/games", json=body, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def test_a_game_to_the_end_notifies_each_turn_once_in_version_order(hooked):
    url, _, _ = hooked
    receiver = Receiver()
    try:
        created = _create(url, receiver.url)
        secret = created["webhook_secret"]
        assert secret.startswith("whsec_")
        token = created["human_seats"][0]["token"]
        final = play_until_over(url, created["id"], {0: token})
        notices = _wait(
            lambda: (got := _verified(receiver, secret)) and got[-1][1]["type"] == "game.finished" and got,
            what="game.finished",
        )
        ids = [webhook_id for webhook_id, _ in notices]
        assert len(ids) == len(set(ids)), "a notice was delivered twice with no failure"
        turns = [n for _, n in notices if n["type"] == "game.turn"]
        versions = [n["data"]["version"] for _, n in notices]
        assert versions == sorted(versions), "notices arrived out of version order"
        # One game.turn per version where the human seat was to act: each listing that had moves.
        events = requests.get(f"{url}/games/{created['id']}/events", timeout=10).json()["events"]
        human_to_act = {0} if 0 in created["to_act"] else set()
        log_versions = [0] + [e["version"] for e in events]
        assert {t["data"]["version"] for t in turns} >= human_to_act
        assert all(t["data"]["seat"] == 0 and 0 in t["data"]["to_act"] for t in turns)
        assert len(turns) >= 3 and max(versions) == final["version"] == log_versions[-1]
        ended = notices[-1][1]
        assert ended["data"]["result"]["ranks"] == final["result"]["ranks"]
        # The listing of what was sent, for the creation's secret, page by page (a long game
        # sends more than one page holds).
        listed, cursor = [], None
        while True:
            reply = requests.get(
                f"{url}/games/{created['id']}/webhooks/deliveries",
                params={"limit": 40, **({"cursor": cursor} if cursor else {})},
                headers=_auth(secret),
                timeout=10,
            )
            assert reply.status_code == 200, reply.text
            listed += reply.json()["deliveries"]
            cursor = reply.json()["next"]
            if cursor is None:
                break
        assert {d["id"] for d in listed} == set(ids), (sorted(d["id"] for d in listed), sorted(ids))
        assert all(d["state"] == "delivered" and d["attempts"] == 1 for d in listed)
        # A seat token lists its own webhook's deliveries: it registered none, 404.
        mine = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries", headers=_auth(token), timeout=10
        )
        assert mine.status_code == 404 and mine.json()["code"] == "webhook_not_found"
    finally:
        receiver.close()


def _play_one(url: str, game_id: str, tokens: dict[int, str]) -> int:
    """The seat to act plays its first listed move; the new version."""
    seat = requests.get(f"{url}/games/{game_id}", timeout=10).json()["to_act"][0]
    listing = requests.get(f"{url}/games/{game_id}/moves", headers=_auth(tokens[seat]), timeout=10).json()
    moved = requests.post(
        f"{url}/games/{game_id}/actions",
        json={"move": listing["moves"][0]["move"], "version": listing["version"]},
        headers=_auth(tokens[seat]),
        timeout=10,
    )
    assert moved.status_code == 200, moved.text
    return moved.json()["version"]


def test_a_failed_notice_holds_back_none_of_the_later_ones(slow_retry):
    """A receiver answers 500 to game.started: the game.turn notices of the moves made at once
    arrive when due, not behind it; game.started arrives again on its own schedule, later, with
    the same webhook-id; the listing says so meanwhile; version and timestamp order them all."""
    url = slow_retry
    receiver = Receiver(answers_by_type={"game.started": [500]})
    try:
        created = _create(url, receiver.url, seats=[{"kind": "human"}, {"kind": "human"}])
        game_id, secret = created["id"], created["webhook_secret"]
        tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
        _wait(lambda: receiver.received, what="the first attempt")
        failed_at = receiver.arrivals[0]
        assert json.loads(receiver.received[0][1])["type"] == "game.started"
        last = max(_play_one(url, game_id, tokens) for _ in range(3))

        def turns_arrived():
            """(when it arrived, its version) of each game.turn, once the last move's is in."""
            notices = _verified(receiver, secret)
            got = [(receiver.arrivals[i], n["data"]["version"]) for i, (_, n) in enumerate(notices)]
            got = [g for g, (_, n) in zip(got, notices, strict=True) if n["type"] == "game.turn"]
            return got if got and got[-1][1] == last else None

        turns = _wait(turns_arrived, limit=SLOW_RETRY, what="the game.turn notices")
        assert [version for _, version in turns] == list(range(last + 1)), "not in version order"
        assert all(at < failed_at + SLOW_RETRY for at, _ in turns), "a game.turn waited behind game.started"
        retried = len(receiver.received) > len(turns) + 1
        (started,) = [d for d in _deliveries(url, game_id, secret) if d["type"] == "game.started"]
        if not retried:
            assert (started["state"], started["attempts"], started["last_status"]) == ("pending", 1, 500)
            assert started["next_attempt"] is not None
        # The failed one, again, on its own schedule, with the same webhook-id.
        _wait(lambda: len(receiver.received) > len(turns) + 1, limit=3 * SLOW_RETRY, what="the retry")
        notices = _verified(receiver, secret)
        assert notices[-1][1]["type"] == "game.started" and notices[-1][0] == notices[0][0]
        assert receiver.arrivals[-1] - failed_at >= SLOW_RETRY - 0.5
        listed = _deliveries(url, game_id, secret)
        (started,) = [d for d in listed if d["type"] == "game.started"]
        assert (started["state"], started["attempts"], started["last_status"]) == ("delivered", 2, 200)
        turns_listed = [(d["state"], d["attempts"]) for d in listed if d["type"] == "game.turn"]
        assert turns_listed == [("delivered", 1)] * len(turns)
        # Received out of version order (the retry last); by version, their timestamps agree.
        received = [(n["data"]["version"], n["timestamp"]) for _, n in notices[1:]]
        assert received != sorted(received)
        assert [stamp for _, stamp in sorted(received)] == sorted(stamp for _, stamp in received)
    finally:
        receiver.close()


def _deliveries(url: str, game_id: str, secret: str) -> list[dict]:
    reply = requests.get(f"{url}/games/{game_id}/webhooks/deliveries", headers=_auth(secret), timeout=10)
    assert reply.status_code == 200, reply.text
    return reply.json()["deliveries"]


def test_a_host_with_a_label_over_63_characters_is_refused_with_no_traceback(hooked):
    """gevent's resolver printed a traceback for the UnicodeError such a name raised inside
    getaddrinfo, on every request; the name is refused before any lookup now."""
    url, processes, _ = hooked
    api_log = processes.logs[0].name  # the API, started first
    seen = os.path.getsize(api_log)
    two_humans = {"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = requests.post(f"{url}/games", json=two_humans, timeout=10).json()
    token = created["human_seats"][0]["token"]
    for host in ("a" * 64 + ".example.com", "a..example.com"):
        refused = requests.post(
            f"{url}/games",
            json={**two_humans, "webhooks": [{"url": f"https://{host}/h"}]},
            timeout=10,
        )
        assert refused.status_code == 422 and refused.json()["code"] == "webhook_url_refused", refused.text
        put = requests.put(
            f"{url}/games/{created['id']}/webhook",
            json={"url": f"https://{host}/h"},
            headers=_auth(token),
            timeout=10,
        )
        assert put.status_code == 422 and "not a DNS name" in put.json()["detail"], put.text
    assert requests.get(f"{url}/games/{created['id']}", timeout=10).json()["version"] == created["version"]
    time.sleep(0.5)  # the log is written by the API's process
    with open(api_log, encoding="utf-8", errors="replace") as log:
        log.seek(seen)
        written = log.read()
    assert "Traceback" not in written and "UnicodeError" not in written, written[-2000:]


def test_a_receiver_failing_twice_gets_the_same_webhook_id_three_times(hooked):
    url, _, _ = hooked
    receiver = Receiver(answers_by_type={"game.started": [500, 503]})
    try:
        created = _create(url, receiver.url, seats=[{"kind": "human"}, {"kind": "human"}])
        secret = created["webhook_secret"]
        _wait(lambda: len(receiver.received) >= 4, what="three attempts and the next notice")
        notices = _verified(receiver, secret)
        first = notices[0][0]
        assert notices[0][1]["type"] == "game.started" and notices[0][1]["data"]["version"] == 0
        # The next notice (game.turn) arrives too. Whether it went before the retries is
        # test_a_failed_notice_holds_back_none_of_the_later_ones's to prove, with a retry slow
        # enough to tell: here the retries come after a fraction of a second, which a loaded
        # machine's worker can take to reach the next notice.
        order = [i for i, _ in notices]
        assert order.count(first) == 3 and "game.turn" in [body["type"] for _, body in notices], order
        time.sleep(0.5)
        ids = [i for i, _ in _verified(receiver, secret)]
        assert ids.count(first) == 3, "delivered again after a 200"
        assert len(ids) == len(set(ids)) + 2, "another notice was delivered twice"
        listed = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries", headers=_auth(secret), timeout=10
        ).json()["deliveries"]
        (started,) = [d for d in listed if d["id"] == first]
        assert (started["attempts"], started["state"], started["last_status"]) == (3, "delivered", 200), (
            listed
        )
    finally:
        receiver.close()


def test_410_gone_stops_every_later_delivery(hooked):
    url, _, _ = hooked
    receiver = Receiver(answers=[410])
    try:
        created = _create(url, receiver.url)
        play_until_over(url, created["id"], {0: created["human_seats"][0]["token"]})
        time.sleep(1.5)
        assert len(receiver.received) == 1, "a notice was sent after 410 Gone"
        listed = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries",
            headers=_auth(created["webhook_secret"]),
            timeout=10,
        ).json()["deliveries"]
        assert {d["state"] for d in listed} == {"disabled"}
    finally:
        receiver.close()


def test_a_hanging_receiver_costs_a_timeout_not_a_stalled_bot(hooked):
    """A receiver that never answers in time: the game of bots it watches still plays to the end
    at its own pace (bots are another worker's), and the delivery is retried after the timeout."""
    url, _, _ = hooked
    receiver = Receiver(hang=12)  # past the 10 s timeout
    try:
        created = requests.post(
            f"{url}/games",
            json={
                "title": "property",
                "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
                "webhooks": [{"url": receiver.url, "events": ["game.finished", "game.started", "game.turn"]}],
            },
            timeout=10,
        ).json()
        started = time.monotonic()
        _wait(
            lambda: requests.get(f"{url}/games/{created['id']}", timeout=10).json()["status"] == "finished",
            limit=60,
            what="the end of the bots' game",
        )
        assert time.monotonic() - started < 30
    finally:
        receiver.close()


def test_a_webhook_worker_killed_mid_delivery_delivers_it_later(hooked):
    url, processes, webhook_worker = hooked
    receiver = Receiver(hang=2.5)  # answers 200, late: the worker is killed while it waits
    try:
        created = _create(url, receiver.url, seats=[{"kind": "human"}, {"kind": "human"}])
        _wait(lambda: receiver.received, what="the first attempt")
        os.kill(webhook_worker.pid, signal.SIGKILL)
        webhook_worker.wait(timeout=10)
        receiver.hang = 0
        # A new worker (what `skyline serve` or Kubernetes does after a crash).
        replacement = processes.start(webhook_worker_command())
        notices = _wait(
            lambda: len(receiver.received) >= 2 and _verified(receiver, created["webhook_secret"])
        )
        assert notices[0][0] == notices[1][0], "the retry after the kill is not the same notice"
        listed = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries",
            headers=_auth(created["webhook_secret"]),
            timeout=10,
        ).json()["deliveries"]
        assert _wait(
            lambda: (
                requests.get(
                    f"{url}/games/{created['id']}/webhooks/deliveries",
                    headers=_auth(created["webhook_secret"]),
                    timeout=10,
                ).json()["deliveries"][0]["state"]
                == "delivered"
            )
        )
        assert listed
        assert replacement.poll() is None and all(
            child.poll() is None for child in processes.children if child is not webhook_worker
        ), "a surviving process died"
    finally:
        receiver.close()


def test_a_seat_registers_its_own_webhook_and_hears_only_its_own_notices(hooked):
    url, _, _ = hooked
    receiver = Receiver()
    try:
        created = requests.post(
            f"{url}/games",
            json={"title": "fresh-fish", "seats": [{"kind": "human"}, {"kind": "human"}]},
            timeout=10,
        ).json()
        tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
        put = requests.put(
            f"{url}/games/{created['id']}/webhook",
            json={"url": receiver.url},
            headers=_auth(tokens[1]),
            timeout=10,
        )
        assert put.status_code == 200, put.text
        secret = put.json()["webhook_secret"]
        assert put.json()["seat"] == 1
        # Seat 0 moves; then seat 1 is to act: its notice arrives, and only its own.
        for _ in range(6):
            for token in tokens.values():
                listing = requests.get(
                    f"{url}/games/{created['id']}/moves", headers=_auth(token), timeout=10
                ).json()
                if listing["moves"]:
                    requests.post(
                        f"{url}/games/{created['id']}/actions",
                        json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                        headers=_auth(token),
                        timeout=10,
                    )
        notices = _wait(lambda: _verified(receiver, secret))
        assert all(n["type"] == "game.turn" and n["data"]["seat"] == 1 for _, n in notices)
        listed = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries", headers=_auth(tokens[1]), timeout=10
        ).json()["deliveries"]
        assert listed and {d["type"] for d in listed} == {"game.turn"}
        other = requests.get(
            f"{url}/games/{created['id']}/webhooks/deliveries", headers=_auth(tokens[0]), timeout=10
        )
        assert other.status_code == 404, "seat 0 registered no webhook"
        gone = requests.delete(f"{url}/games/{created['id']}/webhook", headers=_auth(tokens[1]), timeout=10)
        assert gone.status_code == 204
        # Deleted: its deliveries are gone with it, and deleting again finds nothing.
        for method in ("get", "delete"):
            path = "webhooks/deliveries" if method == "get" else "webhook"
            again = requests.request(
                method, f"{url}/games/{created['id']}/{path}", headers=_auth(tokens[1]), timeout=10
            )
            assert again.status_code == 404 and again.json()["code"] == "webhook_not_found"
    finally:
        receiver.close()


def test_payloads_hold_public_facts_only(hooked):
    """No token, no secret, nothing of a seat's view: every payload's data holds only the public
    facts listed in service.play.webhooks (ids, versions, seats, deadlines, the ranking)."""
    url, _, _ = hooked
    receiver = Receiver()
    try:
        created = _create(url, receiver.url, title="fresh-fish")
        final = play_until_over(url, created["id"], {0: created["human_seats"][0]["token"]})
        notices = _wait(
            lambda: (
                (got := _verified(receiver, created["webhook_secret"]))
                and got[-1][1]["type"] == "game.finished"
                and got
            )
        )
        allowed = {
            *("game_id", "title", "version", "to_act", "seat", "by", "deadline", "replaced_by", "result"),
            "text",  # the sentence a person reads: the title's name and a seat number, nothing more
        }
        raw = b"".join(body for _, body in receiver.received).decode()
        assert created["human_seats"][0]["token"] not in raw and created["webhook_secret"] not in raw
        hidden = json.dumps(final["view"])  # the seat's view: none of it is in a notice
        for _, notice in notices:
            assert set(notice) == {"type", "timestamp", "data"}
            assert set(notice["data"]) <= allowed, set(notice["data"]) - allowed
            if "result" in notice["data"]:
                assert set(notice["data"]["result"]) <= {"ranks", "winners", "reason", "resigned"}
            assert "Fresh Fish" in notice["data"]["text"], notice["data"]["text"]
        assert '"view"' not in raw and len(hidden) > 50
    finally:
        receiver.close()


def test_a_loopback_http_url_is_refused_without_the_settings(client):
    """The in-process app runs with the defaults: https only, public addresses only."""
    for hook in (
        "http://127.0.0.1:9/hook",
        "https://127.0.0.1/hook",
        "https://10.0.0.1/x",
        "ftp://example.com/",
    ):
        reply = client.post(
            "/games",
            json={
                "title": "property",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "webhooks": [{"url": hook}],
            },
        )
        assert reply.status_code == 422 and reply.json["code"] == "webhook_url_refused", (hook, reply.json)


def test_a_clock_sends_the_turn_its_deadline_near_and_the_timeout(hooked):
    """A human seat that never moves, with a 10 s clock: game.turn (with its deadline), then
    deadline.near a quarter of the turn before it, then turn.timed_out when the server plays the
    stand-in's move, all with no client request."""
    url, _, _ = hooked
    receiver = Receiver()
    try:
        created = _create(
            url,
            receiver.url,
            seats=[{"kind": "human"}, {"kind": "human"}],
            clock={"turn_seconds": 10},
        )
        notices = _wait(
            lambda: (
                (got := _verified(receiver, created["webhook_secret"]))
                and any(n["type"] == "turn.timed_out" for _, n in got)
                and got
            ),
            limit=40,
            what="turn.timed_out",
        )
        # Each notice goes on its own schedule (a slow first delivery holds back no other): they
        # are told apart by when they happened, as docs/notify-your-app.md says to order them.
        notices = sorted(notices, key=lambda got: (got[1]["timestamp"], got[1]["type"] != "game.started"))
        kinds = [n["type"] for _, n in notices]
        turn = next(n for _, n in notices if n["type"] == "game.turn")
        near = next(n for _, n in notices if n["type"] == "deadline.near")
        assert kinds[0] == "game.started" and "deadline" in turn["data"]
        assert (
            near["data"]["deadline"] == turn["data"]["deadline"]
            and near["data"]["seat"] == turn["data"]["seat"]
        )
        assert kinds.index("deadline.near") < kinds.index("turn.timed_out")
    finally:
        receiver.close()


def test_a_rematch_is_told_to_the_game_s_endpoints_with_their_secrets(hooked):
    """The rematch's tokens go to the players who ask; an app asleep learns of the new game from
    the endpoints its game had: the creation's and a seat's, each with the secret it already has."""
    url, _, _ = hooked
    game_receiver, seat_receiver = Receiver(), Receiver()
    try:
        created = _create(url, game_receiver.url, seats=[{"kind": "human"}, {"kind": "human"}])
        game_id, game_secret = created["id"], created["webhook_secret"]
        tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
        put = requests.put(
            f"{url}/games/{game_id}/webhook",
            json={"url": seat_receiver.url},
            headers=_auth(tokens[1]),
            timeout=10,
        )
        seat_secret = put.json()["webhook_secret"]
        resigned = requests.post(f"{url}/games/{game_id}/resign", headers=_auth(tokens[0]), timeout=10)
        assert resigned.status_code == 200 and resigned.json()["status"] == "finished", resigned.text
        asked = {
            seat: requests.post(f"{url}/games/{game_id}/rematch", headers=_auth(tokens[seat]), timeout=10)
            for seat in (1, 0)
        }
        assert all(reply.status_code == 201 for reply in asked.values()), {
            s: r.text for s, r in asked.items()
        }
        rematch = asked[0].json()["id"]
        assert asked[1].json()["id"] == rematch != game_id
        new_tokens = {seat: reply.json()["token"] for seat, reply in asked.items()}

        def of_rematch(receiver, secret):
            return [n for _, n in _verified(receiver, secret) if n["data"]["game_id"] == rematch]

        # The creation's endpoint: both joins (seat 1 asked first), the start, the first turn.
        told = _wait(
            lambda: (
                (got := of_rematch(game_receiver, game_secret))
                and any(n["type"] == "game.turn" for n in got)
                and got
            ),
            what="the rematch's notices",
        )
        assert [n["type"] for n in told[:3]] == ["seat.joined", "seat.joined", "game.started"], told
        assert [n["data"]["seat"] for n in told[:2]] == [1, 0]
        assert all(n["data"]["rematch_of"] == game_id for n in told)
        # Seat 1's own endpoint, in the rematch too: its turns only, under its secret.
        first = requests.get(f"{url}/games/{rematch}", timeout=10).json()["to_act"][0]
        if first == 0:  # seat 0 moves; then seat 1 is to act
            listing = requests.get(
                f"{url}/games/{rematch}/moves", headers=_auth(new_tokens[0]), timeout=10
            ).json()
            moved = requests.post(
                f"{url}/games/{rematch}/actions",
                json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                headers=_auth(new_tokens[0]),
                timeout=10,
            )
            assert moved.status_code == 200, moved.text
        mine = _wait(lambda: of_rematch(seat_receiver, seat_secret), what="seat 1's turn in the rematch")
        assert all(n["type"] == "game.turn" and n["data"]["seat"] == 1 for n in mine), mine
        # Its deliveries are listed for the new game with the new token of the seat.
        listed = requests.get(
            f"{url}/games/{rematch}/webhooks/deliveries", headers=_auth(new_tokens[1]), timeout=10
        )
        assert listed.status_code == 200 and listed.json()["deliveries"], listed.text
        # Seat 1 asks again (a lost token): the same game, and the endpoints are set once, so
        # nothing already sent is sent again (a second fan-out from version 0 would). The new
        # version says who is to act, as the game does: seat 1, whose turn is told again at it.
        before = len(of_rematch(game_receiver, game_secret))
        again = requests.post(f"{url}/games/{game_id}/rematch", headers=_auth(tokens[1]), timeout=10)
        assert again.status_code == 201 and again.json()["id"] == rematch, again.text
        rejoined = _wait(
            lambda: (got := of_rematch(game_receiver, game_secret)) and len(got) > before + 1 and got,
            what="the second join's notices",
        )
        time.sleep(1.0)
        notices = [
            (i, n) for i, n in _verified(game_receiver, game_secret) if n["data"]["game_id"] == rematch
        ]
        assert len({i for i, _ in notices}) == len(notices) == len(rejoined) == before + 2, notices
        shown = requests.get(f"{url}/games/{rematch}", timeout=10).json()
        told = [n for _, n in notices[-2:]]
        assert [(n["type"], n["data"]["seat"]) for n in told] == [("seat.joined", 1), ("game.turn", 1)]
        assert all(n["data"]["to_act"] == shown["to_act"] == [1] for n in told)
        assert all(n["data"]["version"] == shown["version"] for n in told)
    finally:
        game_receiver.close()
        seat_receiver.close()
