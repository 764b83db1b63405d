"""Rate limits per client address and per token, kept in Redis, shared by every API process.

The counters and their script are ``service.store.ratelimit``'s (a sliding window, checked and
counted atomically: concurrent processes never admit more than a limit); this module decides
which limits apply to a request and answers a refusal. The check is its own step at the
request's edge, on every deployment: the fast lane (``service.http.fastlane``) and Flask's
first hook decide it before the request answers, reads or writes anything else, so a refused
request answers nothing of the game and changes nothing, and the store's scripts know nothing of
limits. Only its round trip may be shared: on one Redis the fast lane sends the game's read in
the check's pipeline (``RequestLimits.check_along``, the script first), and a refused request
drops what was read. On one Redis an address's and a token's counters are checked by one script
(a refused request counts under neither); on a Redis Cluster they lie in two slots, each checked
by its own script (and the game's read keeps its own round trip), and a request the token's
limit refuses stays counted under its address: the limits are advisory.

Refusals are 429 problem+json (``code: rate_limited``) with ``Retry-After`` in seconds.
Health, readiness and metrics are never limited. IPv6 clients are counted per /64 (one
host usually owns a whole /64). Behind a load balancer or ingress, set
``SKYLINE_TRUSTED_PROXY_HOPS`` so the address is read from ``X-Forwarded-For``.
If Redis cannot be reached the limiter lets the request through (and logs it): the request
itself will then meet Redis or not.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from flask import Flask, Response, request

from engines.core import say

from ..play import auth
from ..store.connect import StoreRedis
from ..store.ratelimit import Check, Decision, Limit, RateLimiter
from ..store.roundtrip import Command
from ..watch import metrics
from . import errors
from .errors import problem_response

log = logging.getLogger(__name__)
T = TypeVar("T")

EXEMPT_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


@functools.lru_cache(maxsize=4096)  # parsing an address costs a twentieth of a move's CPU
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
    return auth.token_hash(token)[:32]


class RateLimited(Exception):
    """Raised by a check made inside a view (``skyline.player_creations``) over its limit."""

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
    who = say(f"service.rate_scope.{limit.scope if limit.scope in ('address', 'players') else 'token'}")
    response = problem_response(
        429,
        "rate_limited",
        say(
            "service.refusal.rate_limited.too_many_requests_from",
            who=who,
            requests=str(limit.requests),
            window_seconds=str(limit.window_seconds),
            retry_after_seconds=str(decision.retry_after_seconds),
        ),
    )
    response.headers["Retry-After"] = str(decision.retry_after_seconds)
    return response


class RequestLimits:
    """The limits of one app, checked at each request's edge: by Flask's first hook and by the
    fast lane."""

    def __init__(self, limiter: RateLimiter, address_limit: Limit | None, token_limit: Limit | None) -> None:
        self.limiter = limiter
        self.address_limit = address_limit
        self.token_limit = token_limit

    def check(self, path: str, remote_addr: str | None, authorization: str | None) -> Response | None:
        """Count the request under its limits: its 429, or None to answer it."""
        checks = self._checks(path, remote_addr, authorization)
        if not checks:
            return None
        decision = _unless_unavailable(lambda: self.limiter.check(checks))
        return None if decision is None or decision.allowed else _refuse(decision)

    def check_along(
        self, path: str, remote_addr: str | None, authorization: str | None, along: Command[T]
    ) -> tuple[Response | None, T | None]:
        """``check``, with the read the request makes next sent in the check's round trip (one
        Redis, ``RateLimiter.check_along``): the 429 and nothing of what was read, or None and
        the read's answer (None when nothing was read: the request reads for itself)."""
        checks = self._checks(path, remote_addr, authorization)
        if not checks:
            return None, None
        try:
            decision, answer = self.limiter.check_along(checks, along)
        except (redis.RedisError, OSError) as error:
            log.warning("rate limiter unavailable, letting the request through: %s", error)
            return None, None
        return (None, answer) if decision.allowed else (_refuse(decision), None)

    def _checks(self, path: str, remote_addr: str | None, authorization: str | None) -> list[Check]:
        """The limits the request counts under, with whom each counts (none for an exempt path)."""
        if path in EXEMPT_PATHS:
            return []
        checks: list[Check] = []
        if self.address_limit is not None:
            checks.append((self.address_limit, address_key(remote_addr)))
        token = _bearer(authorization)
        if self.token_limit is not None and token is not None:
            checks.append((self.token_limit, token_key(token)))
        return checks


def install(app: Flask, client: StoreRedis, settings: Any) -> RequestLimits | None:
    """Refuse requests over the configured limits (settings.rate_limit_per_address / _per_token)."""
    by_address = settings.rate_limit_per_address
    by_token = settings.rate_limit_per_token
    address_limit = Limit("address", *by_address) if by_address else None
    token_limit = Limit("token", *by_token) if by_token else None
    if address_limit is None and token_limit is None:
        return None
    limiter = RateLimiter(client)
    limits = RequestLimits(limiter, address_limit, token_limit)
    app.extensions["skyline.ratelimiter"] = limiter
    app.extensions["skyline.request_limits"] = limits

    @app.before_request
    def _limit() -> Response | None:
        return limits.check(request.path, request.remote_addr, request.headers.get("Authorization"))

    return limits


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


def install_player_creations(app: Flask, client: StoreRedis, settings: Any) -> None:
    """``POST /players`` counted per client address under a limit of its own
    (settings.players_per_address): ``skyline.player_creations`` raises RateLimited over it."""
    rate = settings.players_per_address
    if rate is None:
        return
    limiter = RateLimiter(client)
    limit = Limit("players", *rate)

    def admit(address: str) -> None:
        decision = _unless_unavailable(lambda: limiter.check([(limit, address)]))
        if decision is not None and not decision.allowed:
            raise RateLimited(decision)

    app.extensions["skyline.player_creations"] = admit
    errors.add_handler(app, RateLimited, lambda error: _refuse(error.decision))
