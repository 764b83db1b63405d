"""An index over every partition reads and claims on a three-primary cluster as on one Redis
(store.partitioned runs its script once per primary and merges the replies): the one-Redis tests
of tests/service/test_partitioned.py, run here on the cluster, and a read that goes on when the
slots of its partitions moved to another primary behind the client's back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.cluster import LocalCluster
from service.store.connect import store_client
from service.store.keys import index_key
from service.store.partitioned import PartitionedIndex
from service.store.partitions import partition_of, slot_range, tag_slot
from tests.service.test_partitioned import (  # noqa: F401  (run here, on the cluster)
    spread,
    test_a_claim_moves_what_it_takes_to_the_leases_end_so_a_second_claim_takes_the_rest,
    test_a_claim_that_holds_writes_each_entry_in_the_holding_index_of_its_partition,
    test_entries_land_in_their_games_partition_and_the_index_counts_them_all,
    test_the_newest_come_first_ties_by_id_and_old_entries_are_dropped,
    test_the_oldest_due_come_first_over_every_partition,
)


@pytest.fixture
def index(cluster: LocalCluster) -> Iterator[PartitionedIndex]:
    client = store_client(cluster.url, cluster=True)
    client.flushdb()  # every primary's
    yield PartitionedIndex(client, "test-due")
    client.flushdb()
    client.close()


def test_every_primary_holds_some_of_the_entries(index: PartitionedIndex, cluster: LocalCluster) -> None:
    scores = spread(index, 300, seed=5)
    holders = {cluster.primary_of_slot(tag_slot(partition_of(game_id))).port for game_id in scores}
    assert len(holders) == 3, "the test's entries are spread over all three primaries"
    assert index.size() == 300
    assert len(index.oldest(10_000, 1000)) == 300


def test_a_read_after_a_partitions_slots_moved_finds_its_entries_on_the_new_primary(
    index: PartitionedIndex, cluster: LocalCluster
) -> None:
    scores = spread(index, 200, seed=6)
    index.oldest(10_000, 1000)  # the client now knows the slots as they are
    moved_game = min(scores, key=scores.__getitem__)
    partition = partition_of(moved_game)
    source = cluster.primary_of_slot(tag_slot(partition))
    target = next(p for p in cluster.primaries() if p is not source)
    cluster.reshard(slot_range(partition), source, target)
    assert target.client().exists(index_key("test-due", partition)) == 1, "the key moved with its slot"
    # The client still sends that partition's key to its old primary: refused there, it reloads
    # the slots and asks the new one.
    found = index.oldest(10_000, 1000)
    assert len(found) == 200 and found[0][0] == moved_game
    claimed = index.claim(10_000, 20_000, limit=1000)
    assert sorted(claimed) == sorted(scores)
