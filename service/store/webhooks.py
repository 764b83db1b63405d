"""Webhooks in Redis: a game's endpoints, the outbox of its versions, and each endpoint's deliveries.

- ``sk:{<game>}:webhooks`` (hash): ``ep:<id>`` -> an endpoint (url, events, secret, seat,
  disabled); ``notified``: the last version whose notices were fanned out; ``start``: what
  version 0 announces (who is to act at creation). Its existence is what the commit scripts
  test: a game without webhooks pays one ``EXISTS`` per move, nothing else.
- ``webhooks-due`` (sorted set, one per partition: ``store.partitioned``): games with versions
  not yet fanned out, scored by when.
  The commit scripts (``store.games``, ``store.seats``) add the game in the same step as the
  move (``ZADD NX``): the outbox rides in the commit, no other round trip.
- ``sk:{<game>}:wh:deliveries`` (hash): delivery id (the ``webhook-id``) -> its record (type,
  seat, version, endpoint, body, attempts, last status, next attempt, state).
- ``sk:{<game>}:wh:queue:<endpoint>`` (list): the endpoint's deliveries not yet tried, in
  version order (the fan-out's): due at once.
- ``sk:{<game>}:wh:later:<endpoint>`` (sorted set): its deliveries set aside, scored by when
  each is due: a failed one until its retry, a ``deadline.near`` until its time. Each waits on
  its own schedule and holds back none of the others.
- ``webhooks-sending`` (sorted set, one per partition): ``<game> <endpoint>`` with a pending delivery, scored
  by when the endpoint is next due (now if its queue holds any, else its earliest set aside).
- ``webhooks-held`` (sorted set, one per partition): the same members, while a worker holds one, scored by
  when its lease runs out. Claiming an endpoint holds it and pushes its ``sending`` score a
  lease ahead: one delivery at a time per endpoint, and a worker killed mid-delivery leaves it
  to be claimed again when the lease runs out (at least once; receivers dedupe). A fan-out
  leaves the score of an endpoint held to its worker, which sets it when it lets go.

Every key of a game's expires with the game (``ttl_seconds``, the longest a game lives).
"""

from __future__ import annotations

import time
from typing import Any, cast

import orjson

from .connect import StoreRedis
from .keys import (
    WEBHOOKS_DUE,
    WEBHOOKS_HELD,
    WEBHOOKS_SENDING,
    deliveries_key,
    game_key,
    index_of,
    later_key,
    queue_key,
    sending_member,
    webhooks_key,
)
from .partitioned import PartitionedIndex

# The fan-out of versions (notified+1 .. ARGV[2]) of one game, if no other worker did it first.
# KEYS: webhooks hash, deliveries hash, due set, sending set, game hash, held set, then per
# endpoint named in ARGV its queue and its set aside. ARGV: expected notified, new notified,
# game id, now, ttl, count of deliveries, then per delivery: its id, its record, its endpoint's
# index (from 1), when it is due ('' : at once, queued), then the endpoints' names.
_FAN_OUT = """
local notified = redis.call('HGET', KEYS[1], 'notified')
if notified ~= ARGV[1] then return 0 end
local now, ttl, count = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local names = 6 + 4 * count
for i = 0, count - 1 do
  local id, record, e, at = ARGV[7 + 4 * i], ARGV[8 + 4 * i], tonumber(ARGV[9 + 4 * i]), ARGV[10 + 4 * i]
  local queue, later = KEYS[5 + 2 * e], KEYS[6 + 2 * e]
  redis.call('HSET', KEYS[2], id, record)
  local due = now
  if at == '' then
    redis.call('RPUSH', queue, id)
    redis.call('EXPIRE', queue, ttl)
  else
    due = tonumber(at)
    redis.call('ZADD', later, due, id)
    redis.call('EXPIRE', later, ttl)
  end
  -- Due at its earliest delivery; but an endpoint held is its worker's, which looks at what
  -- waits when it lets go.
  local member = ARGV[3] .. ' ' .. ARGV[names + e]
  local held = redis.call('ZSCORE', KEYS[6], member)
  if not held or tonumber(held) <= now then
    redis.call('ZADD', KEYS[4], 'LT', due, member)
  end
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

# A worker lets go of an endpoint. KEYS: its queue, its set aside, the sending set, the held set.
# ARGV: the member, now, not before ('' : no bound). The endpoint is due again at once if its
# queue holds any, else when the first set aside is due (not before ARGV[3]); with nothing
# pending it leaves the sending set. Returns when it is due, or false.
_RELEASE = """
redis.call('ZREM', KEYS[4], ARGV[1])
local due
if redis.call('LLEN', KEYS[1]) > 0 then
  due = tonumber(ARGV[2])
else
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if first[1] then due = tonumber(first[2]) end
end
if not due then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return false
end
if ARGV[3] ~= '' and tonumber(ARGV[3]) > due then due = tonumber(ARGV[3]) end
redis.call('ZADD', KEYS[3], due, ARGV[1])
return tostring(due)
"""


class WebhookStore:
    def __init__(self, client: StoreRedis, *, ttl_seconds: int = 14 * 24 * 3600) -> None:
        self.redis = client
        self.ttl = ttl_seconds
        self._due = PartitionedIndex(client, WEBHOOKS_DUE)
        self._sending = PartitionedIndex(client, WEBHOOKS_SENDING)
        self._fan_out = client.register_script(_FAN_OUT)
        self._release = client.register_script(_RELEASE)

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
        pipe.zadd(index_of(WEBHOOKS_DUE, game_id), {game_id: time.time()})
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
        pipe.zadd(index_of(WEBHOOKS_DUE, game_id), {game_id: time.time()}, nx=True)
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

    def attach(self, game_id: str, endpoint: dict[str, Any], after_version: int) -> None:
        """Add or replace one endpoint (a player's) of a game already committed past
        ``after_version``: a game with no endpoint yet announces what came after it, so the game
        joins the outbox now (the commit that made those versions found no webhooks to mark)."""
        key = webhooks_key(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, f"ep:{endpoint['id']}", orjson.dumps(endpoint))
        pipe.hsetnx(key, "notified", after_version)
        pipe.expire(key, self.ttl)
        pipe.zadd(index_of(WEBHOOKS_DUE, game_id), {game_id: time.time()}, nx=True)
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
        return self._due.claim(now, now + lease, limit)

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
        index = {endpoint: i for i, endpoint in enumerate(endpoints, 1)}
        args: list[Any] = [expected_notified, new_notified, game_id, time.time(), self.ttl, len(deliveries)]
        for delivery_id, record in deliveries:
            due = record.get("not_before")  # a deadline.near: set aside until its time
            args += [delivery_id, orjson.dumps(record), index[record["endpoint"]], "" if due is None else due]
        args += endpoints
        keys = [
            webhooks_key(game_id),
            deliveries_key(game_id),
            index_of(WEBHOOKS_DUE, game_id),
            index_of(WEBHOOKS_SENDING, game_id),
            game_key(game_id),
            index_of(WEBHOOKS_HELD, game_id),
            *(key for e in endpoints for key in (queue_key(game_id, e), later_key(game_id, e))),
        ]
        return bool(self._fan_out(keys=keys, args=args))

    def forget_due(self, game_id: str) -> None:
        self.redis.zrem(index_of(WEBHOOKS_DUE, game_id), game_id)

    # ---- sending ----------------------------------------------------------------------------------
    def claim_sending(self, now: float, lease: float, limit: int = 50) -> list[tuple[str, str]]:
        """The endpoints due by ``now``, each held for ``lease`` seconds by the caller."""
        members = self._sending.claim(now, now + lease, limit, holding=WEBHOOKS_HELD)
        return [cast(tuple[str, str], tuple(member.split(" ", 1))) for member in members]

    def extend_lease(self, game_id: str, endpoint: str, until: float) -> None:
        member = sending_member(game_id, endpoint)
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(index_of(WEBHOOKS_SENDING, game_id), {member: until}, xx=True)
        pipe.zadd(index_of(WEBHOOKS_HELD, game_id), {member: until}, xx=True)
        pipe.execute()

    def next_due(self, game_id: str, endpoint: str, now: float) -> tuple[str, dict[str, Any]] | None:
        """The endpoint's delivery to try now, with its record: one set aside whose time has come
        (it has waited longest), else the oldest of its queue; None if none is due."""
        queue, later = queue_key(game_id, endpoint), later_key(game_id, endpoint)
        while True:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrangebyscore(later, "-inf", now, start=0, num=1)
            pipe.lindex(queue, 0)
            waited, queued = pipe.execute()
            delivery_id = waited[0] if waited else queued
            if delivery_id is None:
                return None
            raw = self.redis.hget(deliveries_key(game_id), delivery_id)
            if raw is not None:
                return delivery_id.decode(), orjson.loads(raw)
            # Expired with its game: nothing to send.
            pipe = self.redis.pipeline(transaction=True)
            pipe.lrem(queue, 1, delivery_id)
            pipe.zrem(later, delivery_id)
            pipe.execute()

    def settle(self, game_id: str, endpoint: str, record: dict[str, Any], *, retry_at: float | None) -> None:
        """Store an attempt's outcome. Done (``retry_at`` None: delivered, given up, disabled,
        skipped), the delivery leaves the endpoint's queue; else it is set aside until ``retry_at``,
        and the deliveries after it go on meanwhile."""
        queue, later = queue_key(game_id, endpoint), later_key(game_id, endpoint)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(deliveries_key(game_id), record["id"], orjson.dumps(record))
        pipe.lrem(queue, 1, record["id"])
        if retry_at is None:
            pipe.zrem(later, record["id"])
        else:
            pipe.zadd(later, {record["id"]: retry_at})
            pipe.expire(later, self.ttl)
        pipe.execute()

    def release(
        self, game_id: str, endpoint: str, now: float, not_before: float | None = None
    ) -> float | None:
        """Let go of an endpoint held: due again when its next delivery is (not before
        ``not_before``, as a receiver's ``Retry-After`` asks). When that is, or None: none pending."""
        queue, later = queue_key(game_id, endpoint), later_key(game_id, endpoint)
        due = self._release(
            keys=[queue, later, index_of(WEBHOOKS_SENDING, game_id), index_of(WEBHOOKS_HELD, game_id)],
            args=[sending_member(game_id, endpoint), now, "" if not_before is None else not_before],
        )
        return None if due is None else float(due)

    def drop_pending(self, game_id: str, endpoint: str) -> list[str]:
        """Every pending delivery of an endpoint (disabled): their ids; its queue and set aside emptied."""
        queue, later = queue_key(game_id, endpoint), later_key(game_id, endpoint)
        pipe = self.redis.pipeline(transaction=True)
        pipe.lrange(queue, 0, -1)
        pipe.zrange(later, 0, -1)
        pipe.delete(queue, later)
        queued, waiting, _ = pipe.execute()
        return [i.decode() for i in [*queued, *waiting]]

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
