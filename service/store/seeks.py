"""Seeks in Redis: one script finds a new seek's opponents or makes it wait, atomically.

Every key of a title's seeks is in one hash slot (``{seeks:<title>}``, service/store/keys.py), so
the matching script runs whole on one Redis or one Cluster node: 200 seeks at once form their
games one script at a time, a seek is taken by one script only, and no player is taken twice.

A seek's life: ``waiting`` (in its pool) → ``matching`` (taken by a script; the caller creates the
game) → ``matched`` (with its game), or ``waiting`` again if the game could not be made
(``release``); ``cancelled`` (DELETE) and ``expired`` (its time ran out while it waited: the
script leaves it out of the pools, and a read shows it expired) end it. A process killed between
taking seeks and creating their game leaves them ``matching``: they read as expired once their
time ran out (docs/ratings.md).
"""

from __future__ import annotations

from typing import Any

import orjson

from .connect import StoreRedis
from .keys import player_seeks_key, seek_keys_prefix, seek_pool_key, seeks_gone_key, seeks_key

# How long a seek is kept after it ended or expired, for its seeker to read.
KEEP_SECONDS = 24 * 3600

# KEYS: seeks, pool, the seeker's own, gone. ARGV: the seek (JSON), now, cap, how many others,
# how long an ended seek is kept, the keys' prefix (a player's own seeks, dropped with a seek).
# The seek's JSON has: id, player, rating, low, high, expires. Returns {"cap"} (the seeker holds
# ``cap`` waiting seeks), {"waiting"}, or {"matched", id, id...} (the others, in arrival order).
_SEEK = """
local seek = cjson.decode(ARGV[1])
local now = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
local others = tonumber(ARGV[4])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)) do
  local raw = redis.call('HGET', KEYS[1], id)
  if raw then
    local old = cjson.decode(raw)
    redis.call('ZREM', ARGV[6] .. ':of:' .. old.player, id)
    redis.call('HDEL', KEYS[1], id)
  end
  redis.call('ZREM', KEYS[4], id)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local held = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. now, '+inf')) do
  local raw = redis.call('HGET', KEYS[1], id)
  if raw and cjson.decode(raw).status == 'waiting' then held = held + 1 end
end
if held >= cap then return {'cap'} end
local function fits(a, b)
  return a.rating >= b.low and a.rating <= b.high and b.rating >= a.low and b.rating <= a.high
end
local chosen, taken = {}, {}
taken[seek.player] = true
if others > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, 999)) do
    local other = cjson.decode(redis.call('HGET', KEYS[1], id))
    if not taken[other.player] and fits(seek, other) then
      local ok = true
      for _, c in ipairs(chosen) do
        if not fits(c, other) then ok = false break end
      end
      if ok then
        table.insert(chosen, other)
        taken[other.player] = true
        if #chosen == others then break end
      end
    end
  end
end
redis.call('ZADD', KEYS[3], seek.expires, seek.id)
redis.call('ZADD', KEYS[4], seek.expires + tonumber(ARGV[5]), seek.id)
if #chosen < others then
  seek.status = 'waiting'
  redis.call('HSET', KEYS[1], seek.id, cjson.encode(seek))
  redis.call('ZADD', KEYS[2], seek.expires, seek.id)
  return {'waiting'}
end
local reply = {'matched'}
seek.status = 'matching'
redis.call('HSET', KEYS[1], seek.id, cjson.encode(seek))
for _, other in ipairs(chosen) do
  other.status = 'matching'
  redis.call('HSET', KEYS[1], other.id, cjson.encode(other))
  redis.call('ZREM', KEYS[2], other.id)
  table.insert(reply, other.id)
end
return reply
"""

# KEYS: seeks, pool. ARGV: id, player, now. A waiting seek of the player's leaves its pool,
# cancelled: "done"; else its status as it stands ("missing": none of the player's).
_CANCEL = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 'missing' end
local seek = cjson.decode(raw)
if seek.player ~= ARGV[2] then return 'missing' end
if seek.status ~= 'waiting' then return seek.status end
if seek.expires <= tonumber(ARGV[3]) then return 'expired' end
seek.status = 'cancelled'
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(seek))
redis.call('ZREM', KEYS[2], ARGV[1])
return 'done'
"""

# KEYS: seeks, then each seek's pool. ARGV: the game's id ('' : the game could not be made, the
# seeks wait again, in their pools), then the seeks' ids. Only seeks still ``matching`` change.
_SETTLE = """
for i = 3, #ARGV do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw then
    local seek = cjson.decode(raw)
    if seek.status == 'matching' then
      if ARGV[1] == '' then
        seek.status = 'waiting'
        redis.call('ZADD', KEYS[i - 1], seek.expires, seek.id)
      else
        seek.status = 'matched'
        seek.game = ARGV[1]
      end
      redis.call('HSET', KEYS[1], ARGV[i], cjson.encode(seek))
    end
  end
end
return 0
"""


class SeekStore:
    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self._seek = client.register_script(_SEEK)
        self._cancel = client.register_script(_CANCEL)
        self._settle = client.register_script(_SETTLE)

    def seek(
        self, title: str, kind: str, seek: dict[str, Any], now: float, cap: int, others: int
    ) -> list[str] | None:
        """Match ``seek`` or make it wait: the others' ids when matched (its game is the caller's
        to make, then ``settle``), [] when it waits, None when the seeker is at its cap."""
        reply = self._seek(
            keys=[
                seeks_key(title),
                seek_pool_key(title, kind),
                player_seeks_key(title, seek["player"]),
                seeks_gone_key(title),
            ],
            args=[orjson.dumps(seek), repr(now), cap, others, KEEP_SECONDS, seek_keys_prefix(title)],
        )
        outcome = [part.decode() if isinstance(part, bytes) else str(part) for part in reply]
        if outcome[0] == "cap":
            return None
        return outcome[1:]

    def read(self, title: str, seek_ids: list[str]) -> list[dict[str, Any] | None]:
        if not seek_ids:
            return []
        raws = self.redis.hmget(seeks_key(title), seek_ids)
        return [None if raw is None else orjson.loads(raw) for raw in raws]

    def of_player(self, title: str, player_id: str) -> list[dict[str, Any]]:
        ids = [
            i.decode() if isinstance(i, bytes) else i
            for i in self.redis.zrange(player_seeks_key(title, player_id), 0, -1)
        ]
        return [seek for seek in self.read(title, ids) if seek is not None]

    def cancel(self, title: str, kind: str, seek_id: str, player_id: str, now: float) -> str:
        reply = self._cancel(
            keys=[seeks_key(title), seek_pool_key(title, kind)], args=[seek_id, player_id, repr(now)]
        )
        return reply.decode() if isinstance(reply, bytes) else str(reply)

    def settle(self, title: str, kind: str, seek_ids: list[str], game_id: str | None) -> None:
        """The taken seeks matched to ``game_id``, or (None) back to waiting in their pool."""
        self._settle(
            keys=[seeks_key(title), *(seek_pool_key(title, kind) for _ in seek_ids)],
            args=[game_id or "", "", *seek_ids],
        )
