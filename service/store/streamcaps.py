"""Caps on open event streams, per address and per seat token, across every API process.

Each open stream is a member of a sorted set per scope (its address, its token), scored by the
time it will have closed at the latest (its bounded lifetime plus a margin): a process that
dies without closing its streams leaves members that simply expire. Opening a stream over a
cap is refused with 429 ``too_many_streams`` and ``Retry-After`` (when the oldest stream of that
scope ends at the latest).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field

import redis

from .connect import StoreRedis
from .keys import streams_key

# KEYS[1]: the scope's set. ARGV: now, this stream's expiry, member, cap.
# Returns 0 when admitted, else the expiry of the scope's oldest stream.
_OPEN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(oldest[2])
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIREAT', KEYS[1], math.ceil(tonumber(ARGV[2])))
return 0
"""

MARGIN_SECONDS = 30


class TooManyStreams(Exception):
    def __init__(self, scope: str, cap: int, retry_after: int) -> None:
        super().__init__(scope)
        self.scope, self.cap, self.retry_after = scope, cap, retry_after


@dataclass
class Ticket:
    """An admitted stream's places; ``release`` gives them back (once)."""

    client: StoreRedis
    member: str
    keys: list[str] = field(default_factory=list)

    def release(self) -> None:
        keys, self.keys = self.keys, []
        if not keys:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            for key in keys:
                pipe.zrem(key, self.member)
            pipe.execute()
        except redis.RedisError:
            pass  # the members expire by themselves


class StreamCaps:
    def __init__(self, client: StoreRedis, *, per_address: int, per_token: int, lifetime: float) -> None:
        self.client = client
        self.per_address = per_address
        self.per_token = per_token
        self.lifetime = lifetime
        self._open = client.register_script(_OPEN)

    def admit(self, address: str, token: str | None) -> Ticket:
        now = time.time()
        expiry = now + self.lifetime + MARGIN_SECONDS
        ticket = Ticket(self.client, secrets.token_hex(8))
        scopes = []
        if self.per_address > 0:
            scopes.append(("address", streams_key("address", address), self.per_address))
        if token and self.per_token > 0:
            digest = hashlib.sha256(token.encode()).hexdigest()[:24]
            scopes.append(("token", streams_key("token", digest), self.per_token))
        for scope, key, cap in scopes:
            oldest = self._open(keys=[key], args=[repr(now), repr(expiry), ticket.member, cap])
            if oldest not in (0, b"0", "0"):
                ticket.release()
                wait = max(1, int(float(oldest) - MARGIN_SECONDS - now + 1))
                raise TooManyStreams(scope, cap, wait)
            ticket.keys.append(key)
        return ticket
