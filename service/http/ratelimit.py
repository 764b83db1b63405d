"""Rate limits per client address and per seat token, kept in Redis, shared by every API process.

The counters and their script are ``service.store.ratelimit``'s (a sliding window, checked and
counted atomically: concurrent processes never admit more than a limit, and a refused request
is counted under no limit); this module decides which limits apply to a request and answers a
refusal. On the routes that begin by reading a game (show, list moves, act) the check is made
by the script that reads the game (``service.store.games``), so the limit costs no round trip
of its own there; a move that skips the read (its game was committed by this process at the
version it names, see ``service.play.games``) has its check made by the commit script. A
request answered before any of these (a bad body, an illegal move judged without a read) is
counted after, and over the limit its answer becomes the 429. On a Redis Cluster nothing rides
along: an address's counters are not in the game's slot, and a script keeps to one slot. The
check is then its own commands at the request's start (one per slot of its counters: an
address's, a token's), before the game is read.

Refusals are 429 problem+json (``code: rate_limited``) with ``Retry-After`` in seconds.
Health, readiness and metrics are never limited. IPv6 clients are counted per /64 (one
host usually owns a whole /64). Behind a load balancer or ingress, set
``SKYLINE_TRUSTED_PROXY_HOPS`` so the address is read from ``X-Forwarded-For``.
If Redis cannot be reached the limiter lets the request through (and logs it): the request
itself will then meet Redis or not.
"""

from __future__ import annotations

import contextvars
import functools
import ipaddress
import logging
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Response, request

from ..play import auth
from ..store.games import LimitParts
from ..store.ratelimit import Check, Decision, Limit, RateLimiter
from ..watch import metrics
from . import errors
from .errors import problem_response
from .services import services

log = logging.getLogger(__name__)

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
    who = {"address": "this address", "players": "this address (new players)"}.get(limit.scope, "this token")
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

# The check of the request being answered in this context (a thread under gthread, a greenlet
# under gevent), waiting to ride on its game's read or commit. A context variable rather than
# Flask's ``g``: the fast lane (service.fastlane) answers requests without Flask.
_pending: contextvars.ContextVar[list[Check] | None] = contextvars.ContextVar(
    "skyline_rate_limit_checks", default=None
)


def _take_pending() -> list[Check] | None:
    checks = _pending.get()
    if checks is not None:
        _pending.set(None)
    return checks


class RequestLimits:
    """The limits of one app, applied to each request: by its Flask hooks and by the fast lane."""

    def __init__(self, limiter: RateLimiter, address_limit: Limit | None, token_limit: Limit | None) -> None:
        self.limiter = limiter
        self.address_limit = address_limit
        self.token_limit = token_limit
        # Whether a check may ride on the game's read or commit: on one Redis only (on a cluster
        # an address's counters are not in the game's slot).
        self.ride = not limiter.cluster

    def begin(
        self,
        path: str,
        remote_addr: str | None,
        authorization: str | None,
        game_id: str | None,
        rides_on_load: bool,
    ) -> Response | None:
        """At a request's start: its 429, or None (its check made, or left to ride along)."""
        _pending.set(None)  # a thread's context outlives its requests under gthread
        if path in EXEMPT_PATHS:
            return None
        checks: list[Check] = []
        if self.address_limit is not None:
            checks.append((self.address_limit, address_key(remote_addr), None))
        token = _bearer(authorization)
        if self.token_limit is not None and token is not None:
            # A seat token is counted in its game's slot on the game's routes, beside the
            # game's own keys; a player key, one for all its games, in a slot of its own.
            slot = None if auth.is_player_key(token) else game_id
            checks.append((self.token_limit, token_key(token), slot))
        if not checks:
            return None
        if rides_on_load and self.ride:
            _pending.set(checks)
            return None
        return self.decide(checks)

    def finish(self) -> Response | None:
        """At a request's end: answered before reading the game (a bad body, a malformed token),
        it is counted now, and over the limit its answer becomes the 429 (nothing was read or
        written)."""
        checks = _take_pending()
        return None if checks is None else self.decide(checks)

    def decide(self, checks: list[Check]) -> Response | None:
        decision = _unless_unavailable(lambda: self.limiter.check(checks))
        return None if decision is None or decision.allowed else _refuse(decision)

    # ---- the store's hooks: the check rides on the game's read or commit ----------------------
    def carried_by_read(self) -> LimitParts | None:
        """Take this request's pending check for the script that reads its game: the check's
        keys and arguments, and what judges the script's verdict; None when none is pending
        (or it was counted by an earlier read)."""
        checks = _take_pending()
        return None if checks is None else self._script_parts(checks)

    def _script_parts(self, checks: list[Check]) -> LimitParts:
        keys, args = self.limiter.arguments(checks)
        limiter = self.limiter

        def judge(reply: Any) -> None:
            decision = limiter.decision(checks, reply)
            if not decision.allowed:
                raise RateLimited(decision)

        return keys, args, judge

    def carried_by_commit(self, game_id: str) -> LimitParts | None:
        """Take this request's pending check for the game's commit script (a move that skipped
        the read): as ``carried_by_read``. The counters of an address lie outside the game's
        slot; like the limiter itself, the script then needs a single Redis."""
        checks = _take_pending()
        return None if checks is None else self._script_parts(checks)


def install(app: Flask, client: redis.Redis, settings: Any) -> RequestLimits | None:
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
    errors.add_handler(app, RateLimited, lambda error: _refuse(error.decision))

    @app.before_request
    def _limit() -> Response | None:
        game_id = (request.view_args or {}).get("game_id")
        return limits.begin(
            request.path,
            request.remote_addr,
            request.headers.get("Authorization"),
            game_id if isinstance(game_id, str) else None,
            request.endpoint in RIDES_ON_GAME_LOAD,
        )

    @app.after_request
    def _limit_unloaded(response: Response) -> Response:
        return limits.finish() or response

    @app.teardown_request
    def _forget(error: BaseException | None) -> None:
        _pending.set(None)

    if limits.ride:
        store = services(app).store
        store.limit_for_read = limits.carried_by_read
        store.limit_for_commit = limits.carried_by_commit
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


def install_player_creations(app: Flask, client: redis.Redis, settings: Any) -> None:
    """``POST /players`` counted per client address under a limit of its own
    (settings.players_per_address): ``skyline.player_creations`` raises RateLimited over it."""
    rate = settings.players_per_address
    if rate is None:
        return
    limiter = RateLimiter(client)
    limit = Limit("players", *rate)

    def admit(address: str) -> None:
        decision = _unless_unavailable(lambda: limiter.check([(limit, address, None)]))
        if decision is not None and not decision.allowed:
            raise RateLimited(decision)

    app.extensions["skyline.player_creations"] = admit
    errors.add_handler(app, RateLimited, lambda error: _refuse(error.decision))
