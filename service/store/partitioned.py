"""Indexes of games split by partition (``store.partitions``): read and claimed across all parts.

An index of games (the deadlines, the bots due, the lobby, the games due to be archived...) is
one sorted set per partition, in the slot of its games, so that the script that changes a game
changes its entry in the same step. Whoever reads an index as a whole (a sweeper, the lobby)
runs one script over every partition's key: one round trip, and a claim stays one atomic step
(a lease written in the same script that found the entries). On one Redis the script takes all
1,024 keys; on a Redis Cluster it would run once per node with that node's keys.
"""

from __future__ import annotations

from typing import Any, cast

import redis

from .keys import index_keys

# The oldest entries at or below a score over every partition, and with a lease's end the claim
# of them: their score moves to it, so a second reader does not take them until it runs out.
_OLDEST = """
-- KEYS: one index's key in each partition, then (a claim that holds) the holding index's key in
--       each partition, in the same order
-- ARGV: the latest score taken, how many at most, the lease's end ('' = only read), how many
--       partitions (the first KEYS)
local limit, parts = tonumber(ARGV[2]), tonumber(ARGV[4])
-- Most parts are empty most of the time (Redis drops an empty sorted set): one EXISTS of them
-- all, then a read of those that exist only, costs a tenth of reading each.
if redis.call('EXISTS', unpack(KEYS, 1, parts)) == 0 then return {} end
local found = {}
for i = 1, parts do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local rows = redis.call('ZRANGEBYSCORE', KEYS[i], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, limit)
    for j = 1, #rows, 2 do
      found[#found + 1] = {rows[j], rows[j + 1], i}
    end
  end
end
table.sort(found, function(a, b) return tonumber(a[2]) < tonumber(b[2]) end)
local taken = {}
for n = 1, math.min(#found, limit) do
  local row = found[n]
  if ARGV[3] ~= '' then
    redis.call('ZADD', KEYS[row[3]], 'XX', ARGV[3], row[1])
    if #KEYS > parts then
      redis.call('ZADD', KEYS[parts + row[3]], ARGV[3], row[1])
    end
  end
  taken[#taken + 1] = row[1]
  taken[#taken + 1] = row[2]
end
return taken
"""

# The newest entries at or below a score over every partition (the lobby's page), after
# trimming those at or below the oldest score kept.
_NEWEST = """
-- KEYS: one index's key in each partition; ARGV: the newest score taken ('+inf': all), how many
--       at most, the score below which entries are dropped ('' = keep all)
local limit = tonumber(ARGV[2])
if redis.call('EXISTS', unpack(KEYS)) == 0 then return {} end
local found = {}
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    if ARGV[3] ~= '' then
      redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ARGV[3])
    end
    local rows = redis.call('ZREVRANGEBYSCORE', key, ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, limit)
    for j = 1, #rows, 2 do
      found[#found + 1] = {rows[j], rows[j + 1]}
    end
  end
end
table.sort(found, function(a, b)
  local x, y = tonumber(a[2]), tonumber(b[2])
  if x ~= y then return x > y end
  return a[1] > b[1]
end)
local newest = {}
for n = 1, math.min(#found, limit) do
  newest[#newest + 1] = found[n][1]
  newest[#newest + 1] = found[n][2]
end
return newest
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class PartitionedIndex:
    """One index of games over every partition: its oldest due entries, a claim of them under a
    lease, its newest entries, its size."""

    def __init__(self, client: redis.Redis, index: str) -> None:
        self.redis = client
        self.index = index
        self.keys = index_keys(index)
        self._oldest = client.register_script(_OLDEST)
        self._newest = client.register_script(_NEWEST)

    def oldest(self, before: float, limit: int) -> list[tuple[str, bytes]]:
        """Up to ``limit`` entries scored at or below ``before``, oldest first, each with its
        score as stored (for a compare-and-delete)."""
        rows = cast(list[Any], self._oldest(keys=self.keys, args=[repr(before), limit, "", len(self.keys)]))
        return [(_text(rows[i]), rows[i + 1]) for i in range(0, len(rows), 2)]

    def claim(self, now: float, lease_end: float, limit: int, *, holding: str | None = None) -> list[str]:
        """The oldest entries due by ``now``, their scores moved to ``lease_end`` in the same step;
        with ``holding`` (another index), each is also put there, in its partition, scored so."""
        keys = self.keys + ([] if holding is None else index_keys(holding))
        args: list[str | int] = [repr(now), limit, repr(lease_end), len(self.keys)]
        rows = cast(list[Any], self._oldest(keys=keys, args=args))
        return [_text(rows[i]) for i in range(0, len(rows), 2)]

    def newest(
        self, before: float | None, count: int, *, drop_before: float | None = None
    ) -> list[tuple[str, float]]:
        """Up to ``count`` entries scored at or below ``before`` (all when None), newest first;
        with ``drop_before``, entries scored below it are removed first."""
        args: list[str | int] = [
            "+inf" if before is None else repr(before),
            count,
            "" if drop_before is None else repr(drop_before),
        ]
        rows = cast(list[Any], self._newest(keys=self.keys, args=args))
        return [(_text(rows[i]), float(rows[i + 1])) for i in range(0, len(rows), 2)]

    def size(self) -> int:
        pipe = self.redis.pipeline(transaction=False)
        for key in self.keys:
            pipe.zcard(key)
        return sum(int(count) for count in pipe.execute())
