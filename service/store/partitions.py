"""A game's partition, and the hash tag that puts the partition in a Redis Cluster slot.

Issue 56 moves live games onto a Redis Cluster. The indexes a commit writes in the same atomic
step as the move (deadlines, bots due, webhooks due, the lobby, ...) must live in the slot of the
game they index, so they are split into partitions: every game belongs to one of ``PARTITIONS``
partitions, and each partition's keys carry its hash tag, ``{p123}`` style, so that they share one
slot. The sweepers and the lobby then read every partition, one pipeline per node.

Why 1,024 partitions: few enough that a sweep of all of them is one pipeline per node of a few
hundred commands, many enough that a cluster of up to a few hundred primaries still gets several
partitions each, and a power of two that divides the 16,384 slots: partition ``p`` owns the 16
slots ``[16*p, 16*p + 16)``. A primary that serves a contiguous range of slots (what
``redis-cli --cluster create`` and a reshard of a range give) therefore serves the same share of
partitions as of slots, ~1/N each of N primaries.

Why searched tags rather than ``{0}``...``{1023}``: a tag's slot is CRC16(tag) mod 16384, and
the CRC16 of short sequential strings collides: ``{0}``...``{1023}`` fall in only 744 of the 1,024
ranges of 16 slots, so some primaries get twice the partitions of others (5 to 11 partitions each
on 128 equal primaries, 12 to 21 on 64); with fewer partitions it is worse
(centrifugal/centrifuge#554: 32 such tags on 16 shards left half the shards idle). Here each
partition gets the first string of ``"p0"``, ``"p1"``, ... whose slot falls in its own range: a
deterministic search over ~1,900 strings, done once at import in about 2 ms
(tests/service/test_partitions.py checks every tag's slot and the time).

Which partition: the first three hex digits of the id's SHA-1, modulo ``PARTITIONS``, for any id,
those made before partitions existed included: the same in every process and every Python
(``hash()`` of a string is salted per process), and in a Lua script (``redis.sha1hex``) should
one ever need it. The key layout that uses the tags is store/keys.py's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

__all__ = [
    "PARTITIONS",
    "SLOTS_PER_PARTITION",
    "all_partitions",
    "partition_of",
    "partitions_in_slots",
    "slot_range",
    "tag",
    "tag_of",
    "tag_slot",
]

PARTITIONS = 1024
SLOTS_PER_PARTITION = REDIS_CLUSTER_HASH_SLOTS // PARTITIONS  # 16


def _search_tags() -> tuple[str, ...]:
    """Partition p's tag: the first of "p0", "p1", ... whose slot is in [16*p, 16*p + 16)."""
    tags: list[str | None] = [None] * PARTITIONS
    missing = PARTITIONS
    candidate = 0
    while missing:
        text = f"p{candidate}"
        partition = key_slot(text.encode()) // SLOTS_PER_PARTITION
        if tags[partition] is None:
            tags[partition] = text
            missing -= 1
        candidate += 1
    return tuple(t for t in tags if t is not None)


_TAGS = _search_tags()
_TAG_SLOTS = tuple(key_slot(t.encode()) for t in _TAGS)


def partition_of(game_id: str) -> int:
    """The partition of a game, from its id alone (stable across processes and versions)."""
    return int(hashlib.sha1(game_id.encode()).hexdigest()[:3], 16) % PARTITIONS


def tag(partition: int) -> str:
    """The hash tag of a partition, without braces (a key embeds it as ``{tag}``)."""
    if not 0 <= partition < PARTITIONS:
        raise ValueError(f"partition {partition} is not in [0, {PARTITIONS})")
    return _TAGS[partition]


def tag_slot(partition: int) -> int:
    """The cluster slot of a partition's keys (its tag's)."""
    return _TAG_SLOTS[partition]


def tag_of(game_id: str) -> str:
    """The hash tag of a game's partition."""
    return _TAGS[partition_of(game_id)]


def all_partitions() -> range:
    """Every partition, in order (for a sweep of all of them)."""
    return range(PARTITIONS)


def slot_range(partition: int) -> range:
    """The 16 slots of a partition; its tag's slot is one of them."""
    first = partition * SLOTS_PER_PARTITION
    return range(first, first + SLOTS_PER_PARTITION)


def partitions_in_slots(slot_ranges: Iterable[tuple[int, int]]) -> list[int]:
    """The partitions whose tag's slot lies in one of the inclusive ``(first, last)`` slot
    ranges (as CLUSTER SHARDS and CLUSTER SLOTS give a node's), in order: a node's partitions."""
    ranges = list(slot_ranges)
    return [p for p in all_partitions() if any(first <= _TAG_SLOTS[p] <= last for first, last in ranges)]
