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
- Outcomes: 2xx delivered; ``410 Gone`` disables the endpoint; 429 and 503 retry after their
  ``Retry-After`` when it is longer than the schedule's delay; anything else (a timeout, a
  refused connection, a refused URL, another status) retries on the schedule: 5 s, 5 min,
  30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up. ``SKYLINE_WEBHOOK_RETRY_SCHEDULE``
  (seconds, comma-separated) replaces the schedule, for tests.

Not wired yet (issue 48, part C, in progress): the RQ queue that runs ``attempt`` and
schedules the retries, and the outbox it reads.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import os
import socket
import ssl
import time
from dataclasses import dataclass

from service.play.webhooks import Resolver, Target, WebhookRefused, check_url, resolve, secret_key

SCHEDULE = (5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400)
TIMEOUT_SECONDS = 10.0
MAX_REPLY_BYTES = 64 * 1024
USER_AGENT = "Skyline-Webhooks/1"


def schedule() -> tuple[float, ...]:
    """The delays between attempts: the specification's, or ``SKYLINE_WEBHOOK_RETRY_SCHEDULE``."""
    text = os.environ.get("SKYLINE_WEBHOOK_RETRY_SCHEDULE", "").strip()
    if not text:
        return SCHEDULE
    return tuple(float(part) for part in text.split(",") if part.strip())


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
    """Attempt ``attempt_number`` (1 for the first) of one notice to one endpoint."""
    delays = schedule() if delays is None else delays
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
    return Outcome("retry", status, delay, error)
