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
which checks at the request's edge, before anything else reads or writes. On one Redis the check
may carry the read the request makes next in its round trip (``check_along``: one pipeline, the
script first); a refused request drops what was read. On a cluster the check keeps its own round
trips (its counters' slots and the game's lie apart).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TypeVar

from redis.exceptions import NoScriptError

from .connect import StoreRedis, is_cluster, script_slots
from .keys import RATE_LIMIT_PREFIX, rate_limit_key
from .roundtrip import Command
from .slidingwindow import ADMIT_ALL

T = TypeVar("T")


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
        # One Redis: every check is one script, and a read may ride in its round trip.
        self._one_trip = not is_cluster(client)

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

    def check_along(
        self, checks: list[Check], along: Command[T], now: float | None = None
    ) -> tuple[Decision, T | None]:
        """``check``, with the read ``along`` sent in the same round trip where one script checks
        every limit (one Redis): the script, then the read, in one pipeline. The decision, and the
        read's answer when the request is admitted; None when it is refused (what was read is
        dropped), when the read's reply was an error, or on a cluster, where nothing rides (the
        step then reads for itself)."""
        if not self._one_trip:
            return self.check(checks, now), None
        keys, args = self.arguments(checks, now)
        pipe = self.redis.pipeline(transaction=False)
        pipe.execute_command("EVALSHA", self._script.sha, len(keys), *keys, *args)
        pipe.execute_command(*along.args)
        counted, reply = pipe.execute(raise_on_error=False)
        if isinstance(counted, NoScriptError):  # Redis forgot the script: it counted nothing
            counted = self._script(keys=keys, args=args)
        elif isinstance(counted, Exception):
            raise counted
        decision = self.decision(checks, counted)
        if not decision.allowed or isinstance(reply, Exception):
            return decision, None
        return decision, along.answer(reply)

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
