"""A game's partition and its hash tag (service/store/partitions.py), the spread over slots, and
on a real cluster of three primaries (harness/cluster.py) the spread over the primaries."""

from __future__ import annotations

import base64
import collections
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.cluster import RedisCluster
from redis.crc import key_slot

from harness.cluster import LocalCluster
from service.store import partitions
from service.store.partitions import (
    PARTITIONS,
    all_partitions,
    partition_of,
    partitions_in_slots,
    slot_range,
    tag,
    tag_of,
)

from ..cluster.conftest import three_primaries


def game_ids(count: int, seed: int) -> list[str]:
    """Ids as service.store.games.new_game_id makes them (9 random bytes, URL-safe base64)."""
    rng = random.Random(seed)
    return [base64.urlsafe_b64encode(rng.randbytes(9)).decode() for _ in range(count)]


def test_every_tag_lies_in_the_sixteen_slots_of_its_partition() -> None:
    assert PARTITIONS == 1024 and len(all_partitions()) == 1024
    for partition in all_partitions():
        text = tag(partition)
        assert text.isascii() and text.isalnum() and len(text) <= 8, text
        assert key_slot(text.encode()) in slot_range(partition)
        assert key_slot(f"anything:{{{text}}}:else".encode()) in slot_range(partition)  # as a key's tag
    assert len({tag(p) for p in all_partitions()}) == PARTITIONS


def test_the_slot_ranges_of_the_partitions_tile_all_16384_slots() -> None:
    covered = [s for p in all_partitions() for s in slot_range(p)]
    assert covered == list(range(16384))


def test_a_partition_out_of_range_has_no_tag() -> None:
    for wrong in (-1, PARTITIONS):
        with pytest.raises(ValueError, match="not in"):
            tag(wrong)


def test_the_search_is_fast_enough_to_run_at_import() -> None:
    took = []
    for _ in range(3):
        began = time.perf_counter()
        tags = partitions._search_tags()
        took.append(time.perf_counter() - began)
    assert tags == tuple(tag(p) for p in all_partitions())
    assert min(took) < 0.050, f"the tag search took {min(took) * 1000:.1f} ms"


def test_the_partition_of_an_id_is_fixed_forever() -> None:
    # SHA-1's first three hex digits mod 1024: these must never change, or games made before a
    # change would be looked for in another partition.
    assert partition_of("") == 419  # sha1("") = da39a3ee...
    assert partition_of("abc") == 665  # sha1("abc") = a9993e36...
    assert partition_of("game-1") == 790
    assert partition_of("Zx3_kPq9-aB1") == 445
    assert partition_of("ünïcode") == 377
    assert tag_of("abc") == tag(665)


def test_the_partition_does_not_depend_on_the_process() -> None:
    ids = game_ids(50, seed=1)
    here = [partition_of(game_id) for game_id in ids]
    code = (
        "import sys; from service.store.partitions import partition_of, tag_of\n"
        "ids = sys.stdin.read().split()\n"
        "print(' '.join(f'{partition_of(i)}:{tag_of(i)}' for i in ids))"
    )
    for hash_seed in ("1", "2"):  # hash() of a str differs with the seed; partition_of must not
        said = subprocess.run(
            [sys.executable, "-c", code],
            input=" ".join(ids),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=Path(__file__).resolve().parents[2],
        ).stdout.split()
        assert said == [f"{p}:{tag(p)}" for p in here]


def test_ten_thousand_ids_spread_evenly_over_the_partitions() -> None:
    counts = collections.Counter(partition_of(game_id) for game_id in game_ids(10_000, seed=56))
    # ~9.8 a partition (Poisson: sd ~3.1); a skewed function puts tens in some and none in many.
    assert max(counts.values()) <= 30, counts.most_common(3)
    assert PARTITIONS - len(counts) <= 3, f"{PARTITIONS - len(counts)} partitions got no game"


def test_any_contiguous_split_of_the_slots_gets_its_share_of_partitions() -> None:
    for primaries in (2, 3, 5, 16, 128):
        bounds = [round(i * 16384 / primaries) for i in range(primaries + 1)]
        shares = [partitions_in_slots([(bounds[i], bounds[i + 1] - 1)]) for i in range(primaries)]
        assert sorted(p for share in shares for p in share) == list(all_partitions())
        ideal = PARTITIONS / primaries
        assert all(abs(len(share) - ideal) <= 1 for share in shares), [len(s) for s in shares]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    with three_primaries(tmp_path_factory.mktemp("partitions-cluster")) as started:
        yield started


def test_on_three_primaries_each_holds_a_third_of_the_partitions_and_of_the_games(
    cluster: LocalCluster,
) -> None:
    client = RedisCluster.from_url(cluster.url)
    try:
        pipe = client.pipeline(transaction=False)
        for partition in all_partitions():
            pipe.set(f"test-partition:{{{tag(partition)}}}:{partition}", 1)
        games = game_ids(3000, seed=560)
        for game_id in games:
            pipe.set(f"test-game:{{{tag_of(game_id)}}}:{game_id}", 1)
        pipe.execute()
    finally:
        client.close()

    third = 1 / 3
    primaries = cluster.primaries()
    assert len(primaries) == 3
    for primary in primaries:
        held = list(primary.client().scan_iter(count=1000))
        held_partitions = sorted(int(k.rpartition(b":")[2]) for k in held if k.startswith(b"test-partition:"))
        # Where the keys went is what partitions_in_slots says of the primary's ranges ...
        assert held_partitions == partitions_in_slots(cluster.slot_ranges(primary))
        # ... a third of the partitions each, and of the games, within a tenth of a third.
        assert abs(len(held_partitions) / PARTITIONS - third) <= third / 10, len(held_partitions)
        held_games = sum(1 for k in held if k.startswith(b"test-game:"))
        assert abs(held_games / len(games) - third) <= third / 10, f"{primary.address}: {held_games} games"
