"""Rate-limit counters in Redis: the limits, and the check that counts a request under them.

A sliding-window counter: each limit keeps one counter per fixed window (``N`` requests per
``W`` seconds) and weighs the previous window's count by how much of it still overlaps the
last ``W`` seconds (``service.store.slidingwindow``). The checks of every limit that applies
(address, token) and the increments are one Lua script, atomic, so concurrent processes never
admit more than a limit, and a refused request is counted under no limit — as long as the
counters may share a script: on one Redis they always do; on a Redis Cluster an address's
counters and a token's lie in two slots, each slot's checked by a script of its own, and a
request refused by a later one stays counted under the earlier (the limits are advisory). Which
requests are limited, and how a refusal is answered, is HTTP's (``service.http.ratelimit``),
which checks at the request's edge, before anything else reads or writes.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .connect import StoreRedis, script_slots
from .keys import RATE_LIMIT_PREFIX, rate_limit_key
from .slidingwindow import ADMIT_ALL


@dataclass(frozen=True)
class Limit:
    scope: str  # "address" or "token"
    requests: int
    window_seconds: int


# One limit to check for a request: the limit, and whom it counts (an address, a token's digest).
Check = tuple[Limit, str]


@dataclass(frozen=True)
class Decision:
    allowed: bool
    remaining: int
    retry_after_seconds: int
    limit: Limit


class RateLimiter:
    """Checks and counts requests against the limits, in Redis."""

    def __init__(self, client: StoreRedis, *, prefix: str = RATE_LIMIT_PREFIX) -> None:
        self.redis = client
        self.prefix = prefix
        self._script = client.register_script(ADMIT_ALL)
        self._slot = script_slots(client)

    def hit(self, limit: Limit, identity: str, now: float | None = None) -> Decision:
        """Count one request under one limit."""
        return self.check([(limit, identity)], now)

    def check(self, checks: list[Check], now: float | None = None) -> Decision:
        """Count the request under every limit; refused, it counts under none of a script's.

        The limits whose counters may share a script (every one on one Redis, those of one slot
        on a cluster) are checked by one script, and the scripts one after the other: a request
        refused by a later script's limit stays counted under the earlier ones' (advisory)."""
        by_slot: dict[int, list[Check]] = {}
        for check in checks:
            limit, identity = check
            slot = self._slot(rate_limit_key(self.prefix, limit.scope, identity))
            by_slot.setdefault(slot, []).append(check)
        remaining: list[int] = []
        for group in by_slot.values():
            keys, args = self.arguments(group, now)
            decision = self.decision(group, self._script(keys=keys, args=args))
            if not decision.allowed:
                return decision
            remaining.append(decision.remaining)
        return Decision(True, min(remaining), 0, checks[0][0])  # as one script answers

    def arguments(self, checks: list[Check], now: float | None = None) -> tuple[list[str], list[int]]:
        """The keys and arguments of ``slidingwindow.ADMIT`` for these checks, now."""
        now_ms = int((time.time() if now is None else now) * 1000)
        keys: list[str] = []
        args: list[int] = []
        for limit, identity in checks:
            window_ms = limit.window_seconds * 1000
            index = now_ms // window_ms
            base = rate_limit_key(self.prefix, limit.scope, identity)
            keys += [f"{base}:{index}", f"{base}:{index - 1}"]
            args += [limit.requests, window_ms, now_ms - index * window_ms]
        return keys, args

    @staticmethod
    def decision(checks: list[Check], reply: list[int]) -> Decision:
        allowed, refused_by, remaining, wait_ms = reply
        limit = checks[int(refused_by) - 1][0] if refused_by else checks[0][0]
        return Decision(bool(allowed), int(remaining), math.ceil(int(wait_ms) / 1000), limit)
