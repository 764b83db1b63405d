"""Webhooks in Redis: a game's endpoints, the outbox of its versions, and each endpoint's deliveries.

- ``sk:{<game>}:webhooks`` (hash): ``ep:<id>`` -> an endpoint (url, events, secret, seat,
  disabled); ``notified``: the last version whose notices were fanned out; ``start``: what
  version 0 announces (who is to act at creation). Its existence is what the commit scripts
  test: a game without webhooks pays one ``EXISTS`` per move, nothing else.
- ``sk:webhooks-due`` (sorted set): games with versions not yet fanned out, scored by when.
  The commit scripts (``store.games``, ``store.seats``) add the game in the same step as the
  move (``ZADD NX``): the outbox rides in the commit, no other round trip.
- ``sk:{<game>}:wh:deliveries`` (hash): delivery id (the ``webhook-id``) -> its record (type,
  seat, version, endpoint, body, attempts, last status, next attempt, state).
- ``sk:{<game>}:wh:queue:<endpoint>`` (list): the endpoint's pending deliveries, oldest first:
  an endpoint gets a game's notices one at a time, in version order.
- ``sk:webhooks-sending`` (sorted set): ``<game> <endpoint>`` with a pending delivery, scored
  by its next attempt. Claiming one pushes its score a lease ahead: a worker killed mid-delivery
  leaves it to be claimed again when the lease runs out (at least once; receivers dedupe).

Every key of a game's expires with the game (``ttl_seconds``, the longest a game lives).
"""

from __future__ import annotations

import time
from typing import Any

import orjson
import redis

from .keys import (
    WEBHOOKS_DUE,
    WEBHOOKS_SENDING,
    deliveries_key,
    game_key,
    queue_key,
    sending_member,
    webhooks_key,
)

# Claim up to ARGV[3] games or endpoints due by ARGV[1]: each one's score moves to ARGV[2] (a
# lease), so that no other worker claims it meanwhile.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
return due
"""

# The fan-out of versions (notified+1 .. ARGV[2]) of one game, if no other worker did it first.
# KEYS: webhooks hash, deliveries hash, due set, sending set, game hash, then one queue per
# endpoint named in ARGV. ARGV: expected notified, new notified, game id, now, ttl, count of
# deliveries, then per delivery: its id, its record, its endpoint's index among the queue keys.
_FAN_OUT = """
local notified = redis.call('HGET', KEYS[1], 'notified')
if notified ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[5])
local count = tonumber(ARGV[6])
for i = 0, count - 1 do
  local id, record, queue = ARGV[7 + 3 * i], ARGV[8 + 3 * i], tonumber(ARGV[9 + 3 * i])
  redis.call('HSET', KEYS[2], id, record)
  redis.call('RPUSH', KEYS[5 + queue], id)
  redis.call('EXPIRE', KEYS[5 + queue], ttl)
  redis.call('ZADD', KEYS[4], 'NX', ARGV[4], ARGV[3] .. ' ' .. ARGV[6 + 3 * count + queue])
end
redis.call('HSET', KEYS[1], 'notified', ARGV[2])
redis.call('EXPIRE', KEYS[1], ttl)
if count > 0 then redis.call('EXPIRE', KEYS[2], ttl) end
-- A move committed meanwhile stays due; otherwise the game leaves the outbox.
local version = redis.call('HGET', KEYS[5], 'version')
if version and tonumber(version) > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
else
  redis.call('ZREM', KEYS[3], ARGV[3])
end
return 1
"""

# After an attempt at the head of an endpoint's queue. KEYS: deliveries hash, queue, sending set.
# ARGV: delivery id, its record, 'pop' or 'keep', the member, the endpoint's next score (while
# deliveries wait: the retry's time, or the lease of the job going on with the next one).
_SETTLE = """
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if ARGV[3] == 'pop' and redis.call('LINDEX', KEYS[2], 0) == ARGV[1] then
  redis.call('LPOP', KEYS[2])
end
if redis.call('LLEN', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[3], ARGV[4])
else
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
end
return redis.call('LLEN', KEYS[2])
"""


class WebhookStore:
    def __init__(self, client: redis.Redis, *, ttl_seconds: int = 14 * 24 * 3600) -> None:
        self.redis = client
        self.ttl = ttl_seconds
        self._claim = client.register_script(_CLAIM)
        self._fan_out = client.register_script(_FAN_OUT)
        self._settle = client.register_script(_SETTLE)

    # ---- endpoints ------------------------------------------------------------------------------
    def register(self, game_id: str, endpoints: list[dict[str, Any]], start: dict[str, Any]) -> None:
        """A new game's endpoints; version 0 (what ``start`` says) is due to be announced."""
        key = webhooks_key(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(
            key,
            mapping={
                **{f"ep:{e['id']}": orjson.dumps(e) for e in endpoints},
                "notified": -1,
                "start": orjson.dumps(start),
            },
        )
        pipe.expire(key, self.ttl)
        pipe.zadd(WEBHOOKS_DUE, {game_id: time.time()})
        pipe.execute()

    def register_once(self, game_id: str, endpoints: list[dict[str, Any]], start: dict[str, Any]) -> None:
        """As ``register``, but a field already there is kept: whoever calls it first sets the game's
        endpoints, and a second call (another player asking for the same rematch) changes nothing."""
        key = webhooks_key(game_id)
        pipe = self.redis.pipeline(transaction=True)
        for endpoint in endpoints:
            pipe.hsetnx(key, f"ep:{endpoint['id']}", orjson.dumps(endpoint))
        pipe.hsetnx(key, "notified", -1)
        pipe.hsetnx(key, "start", orjson.dumps(start))
        pipe.expire(key, self.ttl)
        pipe.zadd(WEBHOOKS_DUE, {game_id: time.time()}, nx=True)
        pipe.execute()

    def put_endpoint(self, game_id: str, endpoint: dict[str, Any], version: int) -> None:
        """Add or replace one endpoint (a seat's); a game with no endpoint yet starts its outbox
        after ``version``: a seat hears of what comes next, not of the past."""
        key = webhooks_key(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, f"ep:{endpoint['id']}", orjson.dumps(endpoint))
        pipe.hsetnx(key, "notified", version)
        pipe.expire(key, self.ttl)
        pipe.execute()

    def remove_endpoint(self, game_id: str, endpoint_id: str) -> bool:
        return bool(self.redis.hdel(webhooks_key(game_id), f"ep:{endpoint_id}"))

    def disable(self, game_id: str, endpoint_id: str) -> None:
        """A receiver answered 410 Gone: no more notices to it."""
        raw = self.redis.hget(webhooks_key(game_id), f"ep:{endpoint_id}")
        if raw is not None:
            endpoint = {**orjson.loads(raw), "disabled": True}
            self.redis.hset(webhooks_key(game_id), f"ep:{endpoint_id}", orjson.dumps(endpoint))

    def read(self, game_id: str) -> tuple[dict[str, dict[str, Any]], int | None, dict[str, Any]]:
        """The game's endpoints by id, its last notified version (None: no webhooks), and ``start``."""
        fields = self.redis.hgetall(webhooks_key(game_id))
        endpoints: dict[str, dict[str, Any]] = {}
        notified = None
        start: dict[str, Any] = {}
        for name, value in fields.items():
            name = name.decode() if isinstance(name, bytes) else name
            if name.startswith("ep:"):
                endpoints[name[3:]] = orjson.loads(value)
            elif name == "notified":
                notified = int(value)
            elif name == "start":
                start = orjson.loads(value)
        return endpoints, notified, start

    # ---- the outbox --------------------------------------------------------------------------
    def claim_due_games(self, now: float, lease: float, limit: int = 50) -> list[str]:
        return [m.decode() for m in self._claim(keys=[WEBHOOKS_DUE], args=[now, now + lease, limit])]

    def fan_out(
        self,
        game_id: str,
        expected_notified: int,
        new_notified: int,
        deliveries: list[tuple[str, dict[str, Any]]],
    ) -> bool:
        """Write the deliveries of versions up to ``new_notified`` and mark them notified, in one
        step; False if another worker fanned them out first."""
        endpoints = sorted({record["endpoint"] for _, record in deliveries})
        index = {endpoint: i for i, endpoint in enumerate(endpoints)}
        args: list[Any] = [expected_notified, new_notified, game_id, time.time(), self.ttl, len(deliveries)]
        for delivery_id, record in deliveries:
            args += [delivery_id, orjson.dumps(record), index[record["endpoint"]] + 1]
        args += endpoints
        keys = [
            webhooks_key(game_id),
            deliveries_key(game_id),
            WEBHOOKS_DUE,
            WEBHOOKS_SENDING,
            game_key(game_id),
            *(queue_key(game_id, endpoint) for endpoint in endpoints),
        ]
        return bool(self._fan_out(keys=keys, args=args))

    def forget_due(self, game_id: str) -> None:
        self.redis.zrem(WEBHOOKS_DUE, game_id)

    # ---- sending -------------------------------------------------------------------------------
    def claim_sending(self, now: float, lease: float, limit: int = 50) -> list[tuple[str, str]]:
        members = self._claim(keys=[WEBHOOKS_SENDING], args=[now, now + lease, limit])
        return [tuple(m.decode().split(" ", 1)) for m in members]  # type: ignore[misc]

    def extend_lease(self, game_id: str, endpoint: str, until: float) -> None:
        self.redis.zadd(WEBHOOKS_SENDING, {sending_member(game_id, endpoint): until}, xx=True)

    def head(self, game_id: str, endpoint: str) -> tuple[str, dict[str, Any]] | None:
        """The oldest pending delivery of an endpoint, with its record."""
        delivery_id = self.redis.lindex(queue_key(game_id, endpoint), 0)
        if delivery_id is None:
            self.settle_empty(game_id, endpoint)
            return None
        raw = self.redis.hget(deliveries_key(game_id), delivery_id)
        if raw is None:  # expired with its game
            self.redis.lpop(queue_key(game_id, endpoint))
            return self.head(game_id, endpoint)
        return delivery_id.decode(), orjson.loads(raw)

    def settle(
        self,
        game_id: str,
        endpoint: str,
        delivery_id: str,
        record: dict[str, Any],
        *,
        done: bool,
        next_at: float,
    ) -> int:
        """Store an attempt's outcome; a delivery done (delivered, given up, disabled) leaves the
        queue. While deliveries wait, the endpoint is due again at ``next_at``."""
        return int(
            self._settle(
                keys=[deliveries_key(game_id), queue_key(game_id, endpoint), WEBHOOKS_SENDING],
                args=[
                    delivery_id,
                    orjson.dumps(record),
                    "pop" if done else "keep",
                    sending_member(game_id, endpoint),
                    next_at,
                ],
            )
        )

    def settle_empty(self, game_id: str, endpoint: str) -> None:
        self._settle(
            keys=[deliveries_key(game_id), queue_key(game_id, endpoint), WEBHOOKS_SENDING],
            args=["", b"", "keep", sending_member(game_id, endpoint), 0],
        )

    def drop_queue(self, game_id: str, endpoint: str) -> list[str]:
        """Every pending delivery of an endpoint (disabled): their ids, the queue emptied."""
        key = queue_key(game_id, endpoint)
        pipe = self.redis.pipeline(transaction=True)
        pipe.lrange(key, 0, -1)
        pipe.delete(key)
        pipe.zrem(WEBHOOKS_SENDING, sending_member(game_id, endpoint))
        ids, _, _ = pipe.execute()
        return [i.decode() for i in ids]

    def deliveries(self, game_id: str) -> list[dict[str, Any]]:
        """Every delivery record of a game (newest version first)."""
        records = [orjson.loads(raw) for raw in self.redis.hvals(deliveries_key(game_id))]
        records.sort(key=lambda r: (r["version"], r["id"]), reverse=True)
        return records

    def record(self, game_id: str, delivery_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(deliveries_key(game_id), delivery_id)
        return None if raw is None else orjson.loads(raw)

    def put_record(self, game_id: str, record: dict[str, Any]) -> None:
        self.redis.hset(deliveries_key(game_id), record["id"], orjson.dumps(record))
