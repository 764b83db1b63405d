"""An index of games split by partition reads and claims as one index did (store.partitioned):
the oldest due first over every partition, a claim that two readers never share, the lobby's
newest first with its ties, and each entry in its own game's partition."""

from __future__ import annotations

import random

import pytest
import redis

from service.store.games import new_game_id
from service.store.keys import index_keys, index_of
from service.store.partitioned import PartitionedIndex
from service.store.partitions import partition_of

INDEX_DB = 12  # a database of the test's own: it empties the index it reads


@pytest.fixture
def index(redis_server):
    client = redis.Redis(unix_socket_path=redis_server.socket, db=INDEX_DB)
    client.flushdb()
    yield PartitionedIndex(client, "test-due")
    client.flushdb()
    client.close()


def spread(index: PartitionedIndex, count: int, seed: int) -> dict[str, float]:
    """``count`` games, each entered in its own partition's key with a random score."""
    rng = random.Random(seed)
    scores = {new_game_id(): float(rng.randrange(1000)) for _ in range(count)}
    for game_id, score in scores.items():
        index.redis.zadd(index_of(index.index, game_id), {game_id: score})
    return scores


def test_entries_land_in_their_games_partition_and_the_index_counts_them_all(index):
    scores = spread(index, 300, seed=1)
    assert index.size() == 300
    used = {partition_of(game_id) for game_id in scores}
    assert len(used) > 200, "300 games spread over many partitions"
    for game_id in list(scores)[:20]:
        assert index.redis.zscore(index_keys(index.index)[partition_of(game_id)], game_id) == scores[game_id]


def test_the_oldest_due_come_first_over_every_partition(index):
    scores = spread(index, 300, seed=2)
    due = sorted((score, game_id) for game_id, score in scores.items() if score <= 500)
    found = index.oldest(500, 40)
    # Ties may come in either order; the scores, and each game's own, may not.
    assert [float(score) for _, score in found] == [score for score, _ in due[:40]]
    assert all(scores[game_id] == float(score) for game_id, score in found)
    assert all(isinstance(score, bytes) for _, score in found), "scores as stored, for a compare-and-delete"
    assert index.size() == 300, "a read takes nothing"


def test_a_claim_moves_what_it_takes_to_the_leases_end_so_a_second_claim_takes_the_rest(index):
    scores = spread(index, 200, seed=3)
    due = {game_id for game_id, score in scores.items() if score <= 300}
    first = index.claim(300, 10_000, limit=len(due) // 2)
    second = index.claim(300, 10_000, limit=len(due))
    assert set(first).isdisjoint(second) and set(first) | set(second) == due
    assert index.claim(300, 10_000, limit=len(due)) == [], "all held until the lease runs out"
    assert set(index.claim(10_000, 20_000, limit=1000)) >= due, "and due again once it has"
    for game_id in first:
        assert index.redis.zscore(index_of(index.index, game_id), game_id) == 20_000


def test_a_claim_that_holds_writes_each_entry_in_the_holding_index_of_its_partition(index):
    scores = spread(index, 50, seed=4)
    taken = index.claim(1000, 5_000, limit=100, holding="test-held")
    assert set(taken) == set(scores)
    held = PartitionedIndex(index.redis, "test-held")
    assert held.size() == 50
    for game_id in taken:
        assert index.redis.zscore(index_of("test-held", game_id), game_id) == 5_000


def test_the_newest_come_first_ties_by_id_and_old_entries_are_dropped(index):
    ids = sorted(new_game_id() for _ in range(60))
    for n, game_id in enumerate(ids):
        index.redis.zadd(index_of(index.index, game_id), {game_id: float(n // 3)})  # three per score
    page = index.newest(None, 10)
    assert [score for _, score in page] == [19.0] * 3 + [18.0] * 3 + [17.0] * 3 + [16.0]
    assert [game_id for game_id, _ in page[:3]] == sorted(ids[57:60], reverse=True)
    assert [game_id for game_id, _ in index.newest(10.0, 60)][:3] == sorted(ids[30:33], reverse=True)
    index.newest(None, 1, drop_before=5.0)
    assert index.size() == 60 - 15, "entries scored below 5 are gone"
