"""Delivering one webhook notice, as the Standard Webhooks specification asks.

- Headers ``webhook-id`` (the same on every retry: receivers dedupe on it),
  ``webhook-timestamp`` (seconds) and ``webhook-signature`` (``v1,`` and the base64
  HMAC-SHA256 of ``id.timestamp.body`` under the ``whsec_`` secret's key).
- The URL is checked again before each attempt (``service.play.webhooks.check_url``: DNS can
  change), and the connection goes to the very address checked (TLS still verifies the host
  name): a name that resolves to a public address for the check and to a private one for the
  connection cannot slip through.
- A 10 s timeout per attempt, no redirect followed (a 3xx is a failure), the reply read no
  further than 64 KB.
- Outcomes: 2xx delivered; ``410 Gone`` disables the endpoint (what waits for it is dropped);
  anything else (a timeout, a refused connection, a refused URL, another status) retries on
  the schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives that notice up
  (``failed``; the endpoint goes on with the others). 429 and 503 retry after their
  ``Retry-After`` when it is longer than the schedule's delay, and the whole endpoint waits
  that long (the receiver asked for quiet). ``SKYLINE_WEBHOOK_RETRY_SCHEDULE`` (seconds,
  comma-separated) replaces the schedule, for tests.

The webhook worker (``skyline worker --webhooks``, its own process, so that a slow receiver
never delays a bot turn) runs RQ jobs from the ``skyline-webhooks`` queue and a dispatcher
thread (``Dispatcher``):

- it fans out the games the commit scripts marked due (``sk:webhooks-due``) into deliveries,
  one queue per (game, endpoint), in version order (``service.play.webhooks.Webhooks``);
- it claims each (game, endpoint) whose next notice is due (``sk:webhooks-sending``), holding
  it for a lease of ``SKYLINE_WEBHOOK_LEASE_SECONDS`` (default 60; ``sk:webhooks-held``), and
  enqueues ``deliver_next`` for it. A worker killed mid-delivery leaves the claim to run out:
  the delivery is claimed and sent again (the same ``webhook-id``), so a notice is delivered
  at least once.
- ``deliver_next`` sends the endpoint's due notices one at a time, in version order, up to a
  few per job. A notice that fails is set aside until its own next attempt, and the job ends
  (a failing receiver does not keep the worker for a job's worth of timeouts): the endpoint is
  due again at once for the notices after it, which go when due, not behind it. So while
  deliveries succeed an endpoint receives a game's notices in version order; after a failure
  the retried one arrives later, and receivers order by ``data.version`` and ``timestamp``.
  Deliveries per endpoint URL are bounded (``SKYLINE_WEBHOOK_RATE_PER_SECOND``, default 20;
  one more waits a second).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import logging
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from rq import Queue
from rq.serializers import JSONSerializer

from service.config import WEBHOOK_RETRY_SCHEDULE
from service.play.errors import WebhookRefused
from service.play.services import Services
from service.play.webhooks import (
    Resolver,
    Target,
    check_url,
    resolve,
    secret_key,
)
from service.store.keys import game_key, webhook_rate_key

from . import metrics
from .services import services as process_services

log = logging.getLogger("skyline.webhooks")
QUEUE_NAME = "skyline-webhooks"
# A job sends at most this many notices of one endpoint, or for this long, then gives the
# worker back (the endpoint is claimed again at once if more wait).
NOTICES_PER_JOB = 20
SECONDS_PER_JOB = 30.0

SCHEDULE = WEBHOOK_RETRY_SCHEDULE
TIMEOUT_SECONDS = 10.0
MAX_REPLY_BYTES = 64 * 1024
USER_AGENT = "Skyline-Webhooks/1"


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to."""

    result: str  # "delivered", "retry", "disabled", "failed" (out of attempts)
    status: int | None  # the receiver's status, if it answered
    retry_in: float | None = None  # seconds until the next attempt, when "retry"
    error: str | None = None
    quiet_for: float | None = None  # seconds the receiver asked to be left alone (Retry-After)


def _retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(min(int(value), 86400))
    return None


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to one address already checked, with the host's name for SNI and certificates."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post(
    target: Target, headers: dict[str, str], body: bytes, timeout: float = TIMEOUT_SECONDS
) -> tuple[int, dict[str, str], bytes]:
    """One POST, no redirect followed, at most MAX_REPLY_BYTES of the reply read."""
    kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = kind(target, timeout)
    deadline = time.monotonic() + timeout
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        reply = connection.getresponse()
        data = b""
        while len(data) < MAX_REPLY_BYTES and time.monotonic() < deadline:
            chunk = reply.read1(MAX_REPLY_BYTES - len(data)) if hasattr(reply, "read1") else b""
            if not chunk:
                break
            data += chunk
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, data
    finally:
        connection.close()


def attempt(
    url: str,
    secret: str,
    message_id: str,
    body: bytes,
    attempt_number: int,
    *,
    allow_http: bool = False,
    allow_private: bool = False,
    resolver: Resolver = resolve,
    timeout: float = TIMEOUT_SECONDS,
    delays: tuple[float, ...] | None = None,
) -> Outcome:
    """Attempt ``attempt_number`` (1 for the first) of one notice to one endpoint; ``delays``: the
    schedule of the retries (SKYLINE_WEBHOOK_RETRY_SCHEDULE's; the specification's by default)."""
    delays = SCHEDULE if delays is None else delays
    status: int | None = None
    retry_after: float | None = None
    error: str | None = None
    try:
        target = check_url(url, allow_http=allow_http, allow_private=allow_private, resolver=resolver)
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "webhook-id": message_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(secret, message_id, timestamp, body),
        }
        status, reply_headers, _ = post(target, headers, body, timeout)
        if 200 <= status < 300:
            return Outcome("delivered", status)
        if status == 410:
            return Outcome("disabled", status)
        if status in (429, 503):
            retry_after = _retry_after(reply_headers.get("retry-after"))
        error = f"status {status}"
    except WebhookRefused as refused:
        error = refused.message
    except (OSError, http.client.HTTPException) as failure:  # timeouts, refused connections, TLS
        error = f"{type(failure).__name__}: {failure}"[:200]
    if attempt_number > len(delays):
        return Outcome("failed", status, None, error)
    delay = delays[attempt_number - 1]
    if retry_after is not None:
        delay = max(delay, retry_after)
    return Outcome("retry", status, delay, error, quiet_for=retry_after)


# ---- the queue's jobs and the dispatcher ---------------------------------------------------------
class Context:
    """What the jobs and the dispatcher of one process share: its ``Services``, and RQ's queue of
    deliveries on the queues' Redis (RQ_REDIS_URL); the endpoints, the outbox and the leases stay
    on the store's."""

    def __init__(self, services: Services) -> None:
        settings = services.settings
        self.redis = services.redis
        self.settings = settings
        self.store = services.webhook_store
        self.webhooks = services.webhooks
        self.queue = Queue(QUEUE_NAME, connection=services.queue_redis, serializer=JSONSerializer)
        self.rate_per_second = settings.webhook_rate_per_second
        # How long a claimed endpoint is left to its worker: above one attempt's timeout.
        self.lease = settings.webhook_lease_seconds


_context: list[tuple[Services, Context]] = []


def context() -> Context:
    """The context of this process's ``Services`` (worker.services), made at its first use (again
    when other Services were installed since: a test's)."""
    services = process_services()
    if not _context or _context[0][0] is not services:
        _context[:] = [(services, Context(services))]
    return _context[0][1]


def _rate_admits(ctx: Context, url: str) -> bool:
    """At most ``rate_per_second`` deliveries a second to one URL, across games and workers."""
    if ctx.rate_per_second <= 0:
        return True
    digest = hashlib.sha256(url.encode()).hexdigest()[:32]
    key = webhook_rate_key(digest, int(time.time()))
    pipe = ctx.redis.pipeline()
    pipe.incr(key)
    pipe.expire(key, 2)
    count, _ = pipe.execute()
    return int(count) <= ctx.rate_per_second


def _deadline_stands(ctx: Context, game_id: str, record: dict[str, Any]) -> bool:
    """The seat's deadline is still the one the notice announces (the seat has not acted)."""
    raw = ctx.redis.hget(game_key(game_id), "deadlines")
    deadlines = orjson.loads(raw) if raw else {}
    current = deadlines.get(str(record["seat"]))
    return current is not None and abs(float(current) - record["deadline_at"]) < 1.5


def deliver_next(game_id: str, endpoint_id: str) -> dict[str, Any]:
    """Send the due notices of one endpoint of one game, one at a time (an RQ job, holding the
    endpoint); then let go of it, due again when its next notice is."""
    ctx = context()
    result, not_before = _deliver_due(ctx, game_id, endpoint_id)
    ctx.store.release(game_id, endpoint_id, time.time(), not_before)
    return result


def _deliver_due(ctx: Context, game_id: str, endpoint_id: str) -> tuple[dict[str, Any], float | None]:
    """What the job did, and the time before which the endpoint may not be tried again (None: when
    its next notice is due)."""
    store = ctx.store
    sent = 0
    started = time.monotonic()
    while sent < NOTICES_PER_JOB and time.monotonic() - started < SECONDS_PER_JOB:
        now = time.time()
        due = store.next_due(game_id, endpoint_id, now)
        if due is None:
            return {"outcome": "waiting", "sent": sent}, None
        delivery_id, record = due
        endpoints, _, _ = store.read(game_id)
        endpoint = endpoints.get(endpoint_id)
        if "deadline_at" in record and not _deadline_stands(ctx, game_id, record):
            # The seat acted (or the deadline moved): nothing is near any more.
            record.update(state="skipped", next_attempt=None)
            store.settle(game_id, endpoint_id, record, retry_at=None)
            metrics.webhook_delivered("skipped")
            continue
        if endpoint is None or endpoint.get("disabled"):
            # Removed, or answered 410: what waits for it will not be sent.
            record.update(state="disabled" if endpoint is not None else "cancelled", next_attempt=None)
            store.settle(game_id, endpoint_id, record, retry_at=None)
            metrics.webhook_delivered(record["state"])
            continue
        if not _rate_admits(ctx, endpoint["url"]):
            return {"outcome": "rate_limited", "sent": sent}, now + 1.0
        store.extend_lease(game_id, endpoint_id, now + ctx.lease)
        outcome = attempt(
            endpoint["url"],
            endpoint["secret"],
            delivery_id,
            record["body"].encode(),
            record["attempts"] + 1,
            allow_http=ctx.settings.webhook_allow_http,
            allow_private=ctx.settings.webhook_allow_private,
            delays=ctx.settings.webhook_retry_schedule,
        )
        retry_at = time.time() + (outcome.retry_in or 0.0) if outcome.result == "retry" else None
        state = {"delivered": "delivered", "disabled": "disabled", "failed": "failed", "retry": "pending"}
        record.update(
            attempts=record["attempts"] + 1,
            last_status=outcome.status,
            last_error=outcome.error,
            state=state[outcome.result],
            next_attempt=retry_at,
        )
        store.settle(game_id, endpoint_id, record, retry_at=retry_at)
        metrics.webhook_delivered(outcome.result)
        log.info(
            "webhook delivery",
            extra={
                "event": "webhook_delivery",
                "game_id": game_id,
                "endpoint": endpoint_id,
                "webhook_id": delivery_id,
                "attempt": record["attempts"],
                "outcome": outcome.result,
                "status": outcome.status,
                "error": outcome.error,
            },
        )
        if outcome.result == "disabled":
            store.disable(game_id, endpoint_id)
            for dropped in store.drop_pending(game_id, endpoint_id):
                other = store.record(game_id, dropped)
                if other is not None:
                    store.put_record(game_id, {**other, "state": "disabled", "next_attempt": None})
            return {"outcome": "disabled", "sent": sent}, None
        if outcome.result == "retry":
            # Set aside until its retry; the notices after it are due at once, in the next job,
            # unless the receiver asked for quiet.
            quiet_until = None if outcome.quiet_for is None else time.time() + outcome.quiet_for
            return {"outcome": "retry", "sent": sent}, quiet_until
        sent += 1
    return {"outcome": "more", "sent": sent}, None


class Dispatcher:
    """A thread of each webhook worker: fans out due games and enqueues the due endpoints."""

    def __init__(self, ctx: Context, interval: float = 0.2) -> None:
        self.ctx = ctx
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self, now: float | None = None) -> dict[str, int]:
        now = time.time() if now is None else now
        lease = self.ctx.lease
        fanned = 0
        for game_id in self.ctx.store.claim_due_games(now, lease):
            fanned += self.ctx.webhooks.fan_out(game_id)
        enqueued = 0
        for game_id, endpoint_id in self.ctx.store.claim_sending(now, lease):
            self.ctx.queue.enqueue(
                deliver_next,
                game_id,
                endpoint_id,
                job_timeout=int(SECONDS_PER_JOB + TIMEOUT_SECONDS + 30),
                result_ttl=60,
                failure_ttl=24 * 3600,
            )
            enqueued += 1
        return {"deliveries": fanned, "enqueued": enqueued}

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except (redis.RedisError, OSError) as error:  # Redis away: try again shortly
                log.warning("webhook dispatcher: %s", error)
                self._stop.wait(1.0)
            except Exception:
                log.exception("webhook dispatcher failed; going on")
                self._stop.wait(1.0)
            self._stop.wait(self.interval)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="webhook-dispatcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
