"""Webhook notices signed and delivered to a real HTTP receiver, verified with ``standardwebhooks``.

The receiver is a plain HTTP server on loopback, so these deliveries allow http and private
addresses explicitly (``allow_http``, ``allow_private``), as ``SKYLINE_WEBHOOK_ALLOW_HTTP`` and
``SKYLINE_WEBHOOK_ALLOW_PRIVATE`` do; the refusals without them are tested on their own.
"""

from __future__ import annotations

import http.server
import json
import threading
import time

import orjson
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service.config import Settings
from service.play import webhooks as hooks
from worker import webhooks as delivery

OPEN = {"allow_http": True, "allow_private": True}
PUBLIC = "93.184.215.14"  # a global address, for resolvers that stand in for DNS


class Receiver:
    """A real HTTP server answering each POST with the next of ``answers`` (then 200), or for a
    notice of a type in ``answers_by_type`` the next of that type's; ``arrivals`` holds when each
    request came (``time.monotonic()``)."""

    def __init__(self, answers=(), hang: float = 0.0, headers=None, answers_by_type=None) -> None:
        self.answers = list(answers)
        self.answers_by_type = {kind: list(statuses) for kind, statuses in (answers_by_type or {}).items()}
        self.hang = hang
        self.extra_headers = headers or {}
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.arrivals: list[float] = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.arrivals.append(time.monotonic())
                receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                if receiver.hang:
                    time.sleep(receiver.hang)
                kind = json.loads(body or b"{}").get("type") if body.startswith(b"{") else None
                answers = receiver.answers_by_type.get(kind) or receiver.answers
                status = answers.pop(0) if answers else 200
                self.send_response(status)
                for name, value in receiver.extra_headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # A short poll: shutdown() waits for the loop's next look, 0.5 s by default, at every close.
        poll = {"poll_interval": 0.02}
        threading.Thread(target=self.server.serve_forever, kwargs=poll, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver_factory():
    made = []

    def make(*args, **kwargs):
        made.append(Receiver(*args, **kwargs))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


def _notice():
    [(seat, notice)] = hooks.notices_for("g1", "property", 3, [1], [0, 1], "active")
    assert seat == 1
    return orjson.dumps(notice)


def _deliver_until_done(url, secret, message_id, body, delays=(0, 0, 0, 0), **kwargs):
    outcomes = []
    for number in range(1, 20):
        outcome = delivery.attempt(url, secret, message_id, body, number, delays=delays, **OPEN, **kwargs)
        outcomes.append(outcome)
        if outcome.result != "retry":
            break
    return outcomes


def test_every_delivery_verifies_with_standardwebhooks(receiver_factory):
    receiver = receiver_factory()
    secret = hooks.new_secret()
    assert secret.startswith("whsec_")
    body = _notice()
    outcome = delivery.attempt(receiver.url, secret, "msg_1", body, 1, **OPEN)
    assert outcome.result == "delivered" and outcome.status == 200
    [(headers, got)] = receiver.received
    assert got == body
    verified = Webhook(secret).verify(got, headers)
    assert verified["type"] == "game.turn"
    assert verified["data"] == {"game_id": "g1", "title": "property", "version": 3, "to_act": [1], "seat": 1}
    assert headers["webhook-id"] == "msg_1"
    with pytest.raises(WebhookVerificationError):
        Webhook(hooks.new_secret()).verify(got, headers)  # another secret: refused


def test_failing_twice_then_200_gets_the_same_id_three_times(receiver_factory):
    receiver = receiver_factory(answers=[500, 502])
    secret = hooks.new_secret()
    outcomes = _deliver_until_done(receiver.url, secret, "msg_retry", _notice())
    assert [o.result for o in outcomes] == ["retry", "retry", "delivered"]
    ids = [headers["webhook-id"] for headers, _ in receiver.received]
    assert ids == ["msg_retry"] * 3
    for headers, body in receiver.received:
        Webhook(secret).verify(body, headers)


def test_410_disables_the_endpoint(receiver_factory):
    receiver = receiver_factory(answers=[410])
    outcomes = _deliver_until_done(receiver.url, hooks.new_secret(), "msg_gone", _notice())
    assert [o.result for o in outcomes] == ["disabled"]
    assert len(receiver.received) == 1


def test_retry_after_is_honoured_on_429_and_503(receiver_factory):
    for status in (429, 503):
        receiver = receiver_factory(answers=[status], headers={"Retry-After": "120"})
        outcome = delivery.attempt(receiver.url, hooks.new_secret(), "m", _notice(), 1, delays=(5,), **OPEN)
        assert (outcome.result, outcome.status, outcome.retry_in) == ("retry", status, 120)


def test_the_spec_schedule_then_giving_up():
    spec = (5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400)
    assert delivery.SCHEDULE == Settings.from_env({}).webhook_retry_schedule == spec
    delays = Settings.from_env({"SKYLINE_WEBHOOK_RETRY_SCHEDULE": "0.1,0.2"}).webhook_retry_schedule
    assert delays == (0.1, 0.2)
    # Nothing listens on port 9 of loopback: every attempt fails, twice retried, then given up.
    url = "http://127.0.0.1:9/hook"
    results = [
        delivery.attempt(url, hooks.new_secret(), "m", b"{}", n, delays=delays, **OPEN) for n in (1, 2, 3)
    ]
    assert [(o.result, o.retry_in) for o in results] == [("retry", 0.1), ("retry", 0.2), ("failed", None)]
    unreachable = delivery.attempt(url, hooks.new_secret(), "m", b"{}", 1, **OPEN)
    assert unreachable.retry_in == spec[0], "without delays, the specification's schedule"


def test_a_receiver_that_hangs_costs_one_timeout(receiver_factory):
    receiver = receiver_factory(hang=5)
    started = time.monotonic()
    outcome = delivery.attempt(receiver.url, hooks.new_secret(), "m", _notice(), 1, timeout=1, **OPEN)
    assert time.monotonic() - started < 3
    assert outcome.result == "retry" and outcome.status is None and "timed out" in outcome.error.lower()


def test_redirects_are_not_followed(receiver_factory):
    receiver = receiver_factory(answers=[302], headers={"Location": "http://127.0.0.1:9/elsewhere"})
    outcome = delivery.attempt(receiver.url, hooks.new_secret(), "m", _notice(), 1, **OPEN)
    assert (outcome.result, outcome.status) == ("retry", 302)
    assert len(receiver.received) == 1


# ---- which URLs may receive ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://example.com/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://[::1]/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.4/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://224.0.0.1/hook",
        "https://0.0.0.0/hook",
        "ftp://example.com/hook",
        "https://user:pw@example.com/hook",
        "https:///hook",
        "not a url",
        "",
        42,
    ],
)
def test_urls_refused_without_the_settings(url):
    with pytest.raises(hooks.WebhookRefused):
        hooks.check_url(
            url,
            resolver=lambda host, port: (
                [host.strip("[]")] if host[0].isdigit() or ":" in host else ["127.0.0.1"]
            ),
        )


def test_a_public_https_url_is_accepted_and_the_settings_relax_the_rest():
    target = hooks.check_url("https://hooks.example/in?x=1", resolver=lambda h, p: [PUBLIC])
    assert (target.host, target.port, target.path, target.address) == (
        "hooks.example",
        443,
        "/in?x=1",
        PUBLIC,
    )
    assert (
        hooks.check_url("http://127.0.0.1:8000/h", allow_http=True, allow_private=True).address == "127.0.0.1"
    )
    with pytest.raises(hooks.WebhookRefused, match="SKYLINE_WEBHOOK_ALLOW_PRIVATE"):
        hooks.check_url("http://127.0.0.1:8000/h", allow_http=True)
    with pytest.raises(hooks.WebhookRefused, match="SKYLINE_WEBHOOK_ALLOW_HTTP"):
        hooks.check_url("http://hooks.example/h", allow_private=True, resolver=lambda h, p: [PUBLIC])


def test_a_host_that_turns_private_is_refused_at_delivery(receiver_factory):
    """Checked at registration, then its DNS changes: the delivery refuses and sends nothing."""
    receiver = receiver_factory()
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    hooks.check_url("https://hooks.example/h", resolver=lambda h, p: next(answers))
    outcome = delivery.attempt(
        "https://hooks.example/h", hooks.new_secret(), "m", b"{}", 1, resolver=lambda h, p: next(answers)
    )
    assert outcome.result == "retry" and "127.0.0.1, not a public address" in outcome.error
    assert receiver.received == []


def test_the_connection_goes_to_the_address_checked_not_to_a_second_lookup(receiver_factory):
    """The name resolves nowhere in real DNS (.invalid): the delivery arrives only because the
    connection goes to the address the check resolved, with the name still in the Host header."""
    receiver = receiver_factory()
    port = receiver.server.server_address[1]
    lookups = []

    def resolver(host, port):
        lookups.append(host)
        return ["127.0.0.1"]

    url = f"http://hooks.invalid:{port}/hook"
    outcome = delivery.attempt(url, hooks.new_secret(), "m", b"{}", 1, resolver=resolver, **OPEN)
    assert outcome.result == "delivered" and lookups == ["hooks.invalid"]
    [(headers, _)] = receiver.received
    assert headers["host"] == f"hooks.invalid:{port}"


# ---- what a version announces -------------------------------------------------------------------
def test_notices_carry_public_facts_only():
    turn = hooks.notices_for("g", "fresh-fish", 7, [0, 2], [0, 1], "active")
    assert [(seat, n["type"]) for seat, n in turn] == [(0, "game.turn")]  # seat 2 is a bot
    events = [
        {"type": "seat_resigned", "seat": 1, "hand": ["secret"]},
        {"type": "card_drawn", "card": "grey-4"},
    ]
    done = hooks.notices_for(
        "g",
        "property",
        9,
        [],
        [0, 1],
        "finished",
        events,
        {"ranks": [2, 1], "winners": [1], "scores": [3, 9], "breakdown": [{"cards": ["grey-4"]}]},
    )
    kinds = [n["type"] for _, n in done]
    assert kinds == ["seat.resigned", "game.finished"]
    allowed = {"game_id", "title", "version", "to_act", "seat", "result", "by", "deadline", "replaced_by"}
    for _, notice in turn + done:
        assert set(notice) == {"type", "timestamp", "data"}
        assert set(notice["data"]) <= allowed, notice
    # The end tells the ranking, not the scores or their breakdown (a count of cards).
    assert done[-1][1]["data"]["result"] == {"ranks": [2, 1], "winners": [1]}
    assert "secret" not in json.dumps([n for _, n in done])
    assert "grey-4" not in json.dumps([n for _, n in done])


def test_the_delivery_id_is_stable_per_notice_and_endpoint():
    one = hooks.delivery_id("g", 3, "game.turn", 1, "e1")
    assert one == hooks.delivery_id("g", 3, "game.turn", 1, "e1")
    assert (
        len(
            {
                one,
                hooks.delivery_id("g", 4, "game.turn", 1, "e1"),
                hooks.delivery_id("g", 3, "game.turn", 0, "e1"),
            }
        )
        == 3
    )
