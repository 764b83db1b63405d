"""Indexes of games split by partition (``store.partitions``): read and claimed across all parts.

An index of games (the deadlines, the bots due, the lobby, the games due to be archived...) is
one sorted set per partition, in the slot of its games, so that the script that changes a game
changes its entry in the same step. Whoever reads an index as a whole (a sweeper, the lobby)
runs one script over every partition's key: one round trip, and a claim stays one atomic step
(a lease written in the same script that found the entries). The script runs once per node with
that node's partitions' keys, and the replies are merged, the oldest or newest over all of them:
one Redis is a cluster of one node, whose script takes all 1,024 keys; on a Redis Cluster each
primary's carries ``#!lua flags=allow-cross-slot-keys`` (many slots, one node). A claim asks
each primary in turn (the first one drawn at random, so that no primary's backlog waits behind
another's) for what is still wanted, so a claim never takes more than asked. When a slot moved
or a primary failed over between the client's view of the slots and the script (MOVED, ASK,
TRYAGAIN, CLUSTERDOWN, a lost connection, a demoted primary), the client reloads the slots and
asks again: a claim already made stays made (its entries are leased, no other reader takes
them), and the retry takes only what is still wanted.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

import redis
from redis.cluster import ClusterNode
from redis.commands.core import Script
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)

from .connect import CROSS_SLOT_SHEBANG, StoreRedis, is_cluster
from .keys import index_key, index_keys
from .partitions import all_partitions, tag_slot

# Whether none of KEYS[first..last] exists. On one Redis, one EXISTS of them all: most parts are
# empty most of the time (Redis drops an empty sorted set), and one command costs a tenth of one
# a key. On a cluster node the keys lie in many slots, and one command may not span slots.
_NONE_EXIST = """
local function none_exist(first, last)
  return redis.call('EXISTS', unpack(KEYS, first, last)) == 0
end
"""
_NONE_EXIST_ON_A_NODE = """
local function none_exist(first, last)
  for i = first, last do
    if redis.call('EXISTS', KEYS[i]) == 1 then return false end
  end
  return true
end
"""

# The oldest entries at or below a score over every partition, and with a lease's end the claim
# of them: their score moves to it, so a second reader does not take them until it runs out.
_OLDEST = """
-- KEYS: one index's key in each partition, then (a claim that holds) the holding index's key in
--       each partition, in the same order
-- ARGV: the latest score taken, how many at most, the lease's end ('' = only read), how many
--       partitions (the first KEYS)
local limit, parts = tonumber(ARGV[2]), tonumber(ARGV[4])
if none_exist(1, parts) then return {} end
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
if none_exist(1, #KEYS) then return {} end
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


# What a script over one node's partitions may meet while the slots move under it; the client's
# view of the slots is reloaded and the step asked again.
_SLOTS_MOVED = (
    AskError,
    ClusterDownError,
    MovedError,
    TryAgainError,
    SlotNotCoveredError,
    ReadOnlyError,  # a primary demoted by a failover the client has not seen yet
    redis.ConnectionError,
    redis.TimeoutError,
)
_ATTEMPTS = 6


def _moved_reply(error: ResponseError) -> bool:
    """A script refused because a key is not (or no longer) this node's."""
    text = str(error)
    return any(sign in text for sign in ("non local key", "MOVED", "ASK", "TRYAGAIN", "cluster is down"))


# Redis refuses a command whose declared keys lie in several slots, even for a script flagged
# allow-cross-slot-keys: the node's keys travel as arguments, and become the script's KEYS here.
_KEYS_FROM_ARGUMENTS = """
local declared = tonumber(ARGV[1])
local KEYS = {unpack(ARGV, 2, declared + 1)}
local ARGV = {unpack(ARGV, declared + 2)}
"""


# One Redis as a cluster of one node: it holds every partition, and takes any keys in one script.
ONE_REDIS = None
Node = ClusterNode | None


class _NodeScript:
    """A script run on one node over keys of that node's partitions. On a cluster node: EVALSHA of
    the cross-slot script, or EVAL when the node has not seen it yet (a promoted replica, a node
    added). On one Redis: the script as any other, its keys declared."""

    def __init__(self, client: StoreRedis, source: str, on_one_redis: Script) -> None:
        self.client = client
        self.source = CROSS_SLOT_SHEBANG + _KEYS_FROM_ARGUMENTS + _NONE_EXIST_ON_A_NODE + source
        self.sha = hashlib.sha1(self.source.encode()).hexdigest()
        self._on_one_redis = on_one_redis  # the same source, its keys declared

    def __call__(self, node: Node, keys: list[str], args: list[Any]) -> Any:
        if node is ONE_REDIS:
            return self._on_one_redis(keys=keys, args=args)
        arguments = [len(keys), *keys, *args]
        try:
            return self.client.execute_command("EVALSHA", self.sha, 0, *arguments, target_nodes=node)
        except NoScriptError:
            return self.client.execute_command("EVAL", self.source, 0, *arguments, target_nodes=node)


class PartitionedIndex:
    """One index of games over every partition: its oldest due entries, a claim of them under a
    lease, its newest entries, its size."""

    def __init__(self, client: StoreRedis, index: str) -> None:
        self.redis = client
        self.index = index
        self._oldest_on = _NodeScript(client, _OLDEST, client.register_script(_NONE_EXIST + _OLDEST))
        self._newest_on = _NodeScript(client, _NEWEST, client.register_script(_NONE_EXIST + _NEWEST))

    # ---- one script per node ----------------------------------------------------------------------
    def _by_node(self) -> list[tuple[Node, list[int]]]:
        """Each node with its partitions: on a cluster each primary's, as the client sees the slots
        now; one Redis holds them all."""
        if not is_cluster(self.redis):
            return [(ONE_REDIS, list(all_partitions()))]
        manager = self.redis.nodes_manager
        nodes: dict[str, tuple[Node, list[int]]] = {}
        for partition in all_partitions():
            node = manager.get_node_from_slot(tag_slot(partition))
            nodes.setdefault(node.name, (node, []))[1].append(partition)
        return list(nodes.values())

    def _on_every_node(self, step: Callable[[Node, list[int]], bool]) -> None:
        """Run ``step(node, partitions)`` for each node; a step returns False to end the round.
        On a cluster, a step met by a moved slot is asked again, with the slots reloaded, for the
        partitions whose step has not landed yet (one Redis has no slots to move: it raises)."""
        pending = set(all_partitions())
        attempts = _ATTEMPTS if is_cluster(self.redis) else 1
        for attempt in range(attempts):
            try:
                groups = self._by_node()
                random.shuffle(groups)
                for node, partitions in groups:
                    mine = [p for p in partitions if p in pending]
                    if not mine:
                        continue
                    carry_on = step(node, mine)
                    pending.difference_update(mine)
                    if not carry_on:
                        return
                return
            except _SLOTS_MOVED + (ResponseError,) as error:
                if isinstance(error, ResponseError) and not isinstance(error, _SLOTS_MOVED):
                    if not _moved_reply(error):
                        raise
                if attempt == attempts - 1 or not is_cluster(self.redis):
                    raise
                time.sleep(0.05 * 2**attempt)
                self.redis.nodes_manager.initialize()

    def _keys_of(self, index: str, partitions: list[int]) -> list[str]:
        return [index_key(index, p) for p in partitions]

    def _rows_oldest(
        self, before: float, limit: int, lease_end: float | None, holding: str | None
    ) -> list[Any]:
        """The flat reply of _OLDEST (entry, score, ...) over every partition."""
        lease = "" if lease_end is None else repr(lease_end)
        rows: list[tuple[bytes, bytes]] = []

        def step(node: Node, partitions: list[int]) -> bool:
            wanted = limit - len(rows) if lease_end is not None else limit
            keys = self._keys_of(self.index, partitions)
            keys += [] if holding is None else self._keys_of(holding, partitions)
            reply = self._oldest_on(node, keys, [repr(before), wanted, lease, len(partitions)])
            rows.extend((reply[i], reply[i + 1]) for i in range(0, len(reply), 2))
            # A claim stops once it holds what was asked; a read merges every node's oldest.
            return lease_end is None or len(rows) < limit

        self._on_every_node(step)
        rows.sort(key=lambda row: float(row[1]))
        return [value for row in rows[:limit] for value in row]

    def oldest(self, before: float, limit: int) -> list[tuple[str, bytes]]:
        """Up to ``limit`` entries scored at or below ``before``, oldest first, each with its
        score as stored (for a compare-and-delete)."""
        rows = self._rows_oldest(before, limit, None, None)
        return [(_text(rows[i]), rows[i + 1]) for i in range(0, len(rows), 2)]

    def claim(self, now: float, lease_end: float, limit: int, *, holding: str | None = None) -> list[str]:
        """Up to ``limit`` entries due by ``now``, their scores moved to ``lease_end`` in the same
        step; with ``holding`` (another index), each is also put there, in its partition, scored
        so: the oldest due of each node asked (on one Redis, the oldest due)."""
        rows = self._rows_oldest(now, limit, lease_end, holding)
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
        found: list[tuple[str, float]] = []

        def step(node: Node, partitions: list[int]) -> bool:
            reply = self._newest_on(node, self._keys_of(self.index, partitions), args)
            found.extend((_text(reply[i]), float(reply[i + 1])) for i in range(0, len(reply), 2))
            return True

        self._on_every_node(step)
        # The script's order: newest first, ties by the entry's bytes, descending.
        found.sort(key=lambda row: (row[1], row[0].encode()), reverse=True)
        return found[:count]

    def size(self) -> int:
        pipe = self.redis.pipeline(transaction=False)  # on a cluster, split by node
        for key in index_keys(self.index):
            pipe.zcard(key)
        return sum(int(count) for count in pipe.execute())
