"""Partitions of the live games: PROVISIONAL copy for the layout branch (the cluster branch
brings the real module, tested)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

PARTITIONS = 1024
_SLOTS_PER_PARTITION = REDIS_CLUSTER_HASH_SLOTS // PARTITIONS


def _search_tags() -> tuple[str, ...]:
    tags: list[str | None] = [None] * PARTITIONS
    left, number = PARTITIONS, 0
    while left:
        candidate = f"p{number}"
        partition = key_slot(candidate.encode()) // _SLOTS_PER_PARTITION
        if tags[partition] is None:
            tags[partition] = candidate
            left -= 1
        number += 1
    return tuple(t for t in tags if t is not None)


TAGS = _search_tags()


def partition_of(game_id: str) -> int:
    # The first three hex digits of the id's SHA-1: uniform, and a script computes the same
    # (redis.sha1hex; LUA_TAG_OF).
    return int(hashlib.sha1(game_id.encode()).hexdigest()[:3], 16) % PARTITIONS


def tag(partition: int) -> str:
    return TAGS[partition]


@lru_cache(maxsize=65536)
def tag_of(game_id: str) -> str:
    return TAGS[partition_of(game_id)]


def all_partitions() -> range:
    return range(PARTITIONS)


# The same in Lua, for a script that names a game's keys from an id it read (the players').
LUA_TAG_OF = (
    "local PARTITION_TAGS = {"
    + ",".join(f'"{t}"' for t in TAGS)
    + "}\n"
    + "local function tag_of(id)\n"
    + f"  return PARTITION_TAGS[tonumber(string.sub(redis.sha1hex(id), 1, 3), 16) % {PARTITIONS} + 1]\n"
    + "end\n"
)
