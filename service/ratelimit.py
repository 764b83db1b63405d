"""Rate limits per client address and per seat token, kept in Redis, shared by every API process.

A sliding-window counter: each limit keeps one counter per fixed window (``N`` requests per
``W`` seconds) and weighs the previous window's count by how much of it still overlaps the
last ``W`` seconds. The checks of every limit that applies (address, token) and the increments
are one Lua script — atomic, so concurrent processes never admit more than a limit. A refused
request is counted under no limit. On the routes that begin by reading a game (show, list
moves, act) the script is sent in the same round trip as that read, so the limit costs no
round trip of its own there; a request answered before any read (a bad body) is counted
after, and over the limit its answer becomes the 429. (The keys of the two limits
live in different slots: like RQ, the limiter needs a single Redis, not a Redis Cluster.)

Refusals are 429 problem+json (``code: rate_limited``) with ``Retry-After`` in seconds.
Health, readiness and metrics are never limited. IPv6 clients are counted per /64 (one
host usually owns a whole /64). Behind a load balancer or ingress, set
``SKYLINE_TRUSTED_PROXY_HOPS`` so the address is read from ``X-Forwarded-For``.
If Redis cannot be reached the limiter lets the request through (and logs it): the request
itself will then meet Redis or not.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, g, has_app_context, request
from redis.client import Pipeline
from redis.exceptions import NoScriptError

from . import metrics
from .errors import problem_response

log = logging.getLogger(__name__)

EXEMPT_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

_SLIDING_WINDOWS = """
-- For limit i: KEYS[2i-1] its window's counter, KEYS[2i] its previous window's counter;
-- ARGV[3i-2] the limit, ARGV[3i-1] the window (ms), ARGV[3i] time elapsed in the window (ms).
-- All or nothing: the request counts under every limit, or (refused) under none.
local count = #KEYS / 2
local remaining = nil
for i = 1, count do
  local limit = tonumber(ARGV[3 * i - 2])
  local window = tonumber(ARGV[3 * i - 1])
  local elapsed = tonumber(ARGV[3 * i])
  local current = tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0')
  local previous = tonumber(redis.call('GET', KEYS[2 * i]) or '0')
  local used = previous * (window - elapsed) / window + current
  if used + 1 > limit then
    -- Refused: how long until the estimate falls below the limit again.
    local wait
    if current + 1 <= limit then
      -- Still in this window: wait until enough of the previous window has slid out.
      wait = window - elapsed - (limit - 1 - current) * window / previous
    else
      -- Only in a later window: this window then weighs as the previous one.
      wait = (window - elapsed) + window * (1 - (limit - 1) / current)
    end
    if wait < 1 then wait = 1 end
    return {0, i, 0, math.ceil(wait)}
  end
  local left = math.floor(limit - used - 1)
  if remaining == nil or left < remaining then remaining = left end
end
for i = 1, count do
  redis.call('INCR', KEYS[2 * i - 1])
  redis.call('PEXPIRE', KEYS[2 * i - 1], 2 * tonumber(ARGV[3 * i - 1]))
end
return {1, 0, remaining, 0}
"""


@dataclass(frozen=True)
class Limit:
    scope: str  # "address" or "token"
    requests: int
    window_seconds: int


@dataclass(frozen=True)
class Decision:
    allowed: bool
    remaining: int
    retry_after_seconds: int
    limit: Limit


def address_key(address: str | None) -> str:
    """The identity an address is counted under: the address, or its /64 for IPv6."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def token_key(token: str) -> str:
    # Never a secret in a key name: a digest of it.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]


class RateLimiter:
    """Checks and counts requests against the limits, in Redis."""

    def __init__(self, client: redis.Redis, *, prefix: str = "sk:rl") -> None:
        self.redis = client
        self.prefix = prefix
        self._script = client.register_script(_SLIDING_WINDOWS)

    def hit(self, limit: Limit, identity: str, now: float | None = None) -> Decision:
        """Count one request under one limit."""
        return self.check([(limit, identity)], now)

    def check(self, checks: list[tuple[Limit, str]], now: float | None = None) -> Decision:
        """Count the request under every limit, in one round trip; refused, it counts under none."""
        keys, args = self._arguments(checks, now)
        return self._decision(checks, self._script(keys=keys, args=args))

    def queue(
        self, pipe: Pipeline, checks: list[tuple[Limit, str]], now: float | None = None
    ) -> Callable[[Any], Decision]:
        """Queue the check on ``pipe`` (sent with other commands); return what reads its reply.

        The script is sent by its digest alone: redis-py would otherwise ask Redis whether it
        knows the script before every pipeline, a round trip of its own. When Redis has lost
        it (a restart), the reply is NOSCRIPT and the check is done again the ordinary way.
        """
        keys, args = self._arguments(checks, now)
        pipe.evalsha(self._script.sha, len(keys), *keys, *args)

        def decide(reply: Any) -> Decision:
            if isinstance(reply, NoScriptError):
                return self._decision(checks, self._script(keys=keys, args=args))
            if isinstance(reply, Exception):
                raise reply
            return self._decision(checks, reply)

        return decide

    def _arguments(self, checks: list[tuple[Limit, str]], now: float | None) -> tuple[list[str], list[int]]:
        now_ms = int((time.time() if now is None else now) * 1000)
        keys: list[str] = []
        args: list[int] = []
        for limit, identity in checks:
            window_ms = limit.window_seconds * 1000
            index = now_ms // window_ms
            base = f"{self.prefix}:{{{limit.scope}:{identity}}}"
            keys += [f"{base}:{index}", f"{base}:{index - 1}"]
            args += [limit.requests, window_ms, now_ms - index * window_ms]
        return keys, args

    @staticmethod
    def _decision(checks: list[tuple[Limit, str]], reply: list[int]) -> Decision:
        allowed, refused_by, remaining, wait_ms = reply
        limit = checks[int(refused_by) - 1][0] if refused_by else checks[0][0]
        return Decision(bool(allowed), int(remaining), math.ceil(int(wait_ms) / 1000), limit)


class RateLimited(Exception):
    """Raised where a check that rode along another command finds the request over a limit."""

    def __init__(self, decision: Decision) -> None:
        super().__init__("rate limited")
        self.decision = decision


def _bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def refusal(decision: Decision) -> Response:
    limit = decision.limit
    who = "this address" if limit.scope == "address" else "this token"
    response = problem_response(
        429,
        "rate_limited",
        f"Too many requests from {who}: at most {limit.requests} per {limit.window_seconds} s. "
        f"Retry after {decision.retry_after_seconds} s.",
    )
    response.headers["Retry-After"] = str(decision.retry_after_seconds)
    return response


# Operations whose first Redis command is a read of the game: their check rides in the same
# round trip as that read (``rides_along``), so limiting them costs no round trip of its own.
RIDES_ON_GAME_LOAD = frozenset({"games.GameResource", "games.Moves", "games.Actions"})
_PENDING = "skyline_rate_limit_checks"


def install(app: Flask, client: redis.Redis, settings: Any) -> None:
    """Refuse requests over the configured limits (settings.rate_limit_per_address / _per_token)."""
    limits: list[Limit] = []
    by_address = settings.rate_limit_per_address
    by_token = settings.rate_limit_per_token
    address_limit = Limit("address", *by_address) if by_address else None
    token_limit = Limit("token", *by_token) if by_token else None
    limits = [x for x in (address_limit, token_limit) if x is not None]
    if not limits:
        return
    limiter = RateLimiter(client)
    app.extensions["skyline.ratelimiter"] = limiter
    app.register_error_handler(RateLimited, lambda error: _refuse(error.decision))

    def decide(checks: list[tuple[Limit, str]]) -> Response | None:
        decision = _unless_unavailable(lambda: limiter.check(checks))
        return None if decision is None or decision.allowed else _refuse(decision)

    @app.before_request
    def _limit() -> Response | None:
        if request.path in EXEMPT_PATHS:
            return None
        checks: list[tuple[Limit, str]] = []
        if address_limit is not None:
            checks.append((address_limit, address_key(request.remote_addr)))
        token = _bearer(request.headers.get("Authorization"))
        if token_limit is not None and token is not None:
            checks.append((token_limit, token_key(token)))
        if not checks:
            return None
        if request.endpoint in RIDES_ON_GAME_LOAD:
            setattr(g, _PENDING, checks)
            return None
        return decide(checks)

    @app.after_request
    def _limit_unloaded(response: Response) -> Response:
        # Answered before reading the game (a bad body, a malformed token): counted now, and
        # over the limit the answer becomes the 429 (nothing was read or written).
        checks = g.pop(_PENDING, None)
        if checks is None:
            return response
        return decide(checks) or response

    def rides_along(pipe: Pipeline) -> Callable[[Any], None] | None:
        """Queue this request's pending check on the game read's pipeline; None when none is."""
        checks = g.pop(_PENDING, None) if has_app_context() else None
        if checks is None:  # none pending, or already counted by an earlier read
            return None
        decide_reply = limiter.queue(pipe, checks)

        def judge(reply: Any) -> None:
            decision = _unless_unavailable(lambda: decide_reply(reply))
            if decision is not None and not decision.allowed:
                raise RateLimited(decision)

        return judge

    app.extensions["skyline.games"].store.ride_along = rides_along


def _unless_unavailable(get_decision: Callable[[], Decision]) -> Decision | None:
    """The limiter's decision, or None (let the request through) when Redis cannot give one."""
    try:
        return get_decision()
    except (redis.RedisError, OSError) as error:
        log.warning("rate limiter unavailable, letting the request through: %s", error)
        return None


def _refuse(decision: Decision) -> Response:
    metrics.rate_limited(decision.limit.scope)
    return refusal(decision)


def document(spec: Any, response_name: str = "TooManyRequests") -> None:
    """Declare 429 (with Retry-After) on every rate-limited operation of the contract."""
    spec.components.response(
        response_name,
        {
            "description": "Too many requests from this address or token; retry after the given delay.",
            "headers": {
                "Retry-After": {
                    "description": "Seconds to wait before retrying.",
                    "schema": {"type": "integer", "minimum": 1},
                }
            },
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        },
    )
    for path, operations in spec._paths.items():
        if path in EXEMPT_PATHS:
            continue
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"]["429"] = {"$ref": f"#/components/responses/{response_name}"}
