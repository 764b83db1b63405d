"""Moving a Redis written with the first key layout to the partitioned one (issue 56).

The first layout kept each game under the hash tag of its own id (``sk:{<id>}:game``) and each
index of games in one key (``sk:deadlines``, ``sk:lobby``...). The partitioned layout
(``store.keys``, docs/cluster.md) keeps a game under its partition's tag and splits every index
by partition, so that a commit touches one slot. ``migrate_layout`` rewrites the first into the
second on one Redis, with the API and the workers stopped (docs/deploy.md says how):

- each entry of an old index goes to its game's partition (same score), then the old index goes;
- each game's keys are renamed, one game per transaction (``RENAME`` keeps a key's TTL);
- a token's rate-limit counters are left to run out (they live two windows, and are advisory);
- each player's live games (``sk:player:{<id>}:live``, counted by its cap) are found from its
  index of games, which the first layout's binding scripts counted by reading each game.

It may be run again after an interruption, and on a Redis already moved it changes nothing.
On a Redis Cluster it only marks the layout: the first layout's games move on one Redis (a
rename across slots is refused by a cluster), before the data is imported into the cluster
(docs/cluster.md, "Moving a deployment"); a cluster holding such games is refused, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import cast

import orjson
import redis

from .connect import StoreRedis, is_cluster
from .keys import (
    FIRST_LAYOUT_GAME_HASHES,
    FIRST_LAYOUT_INDEXES,
    LAYOUT,
    PLAYER_GAMES_PATTERN,
    deliveries_key,
    first_layout_game,
    first_layout_prefix,
    game_key,
    idempotency_key,
    index_of,
    later_key,
    log_key,
    player_live_games_key,
    player_of_games_key,
    queue_key,
    webhooks_key,
)
from .players import is_live

OLD_INDEXES = FIRST_LAYOUT_INDEXES
CURRENT_LAYOUT = "2"  # the partitioned layout (1: the first, which wrote no marker)


def new_name(game_id: str, suffix: str) -> str | None:
    """What a game's key of the first layout (``sk:{<id>}`` + ``suffix``) is called now; None for
    a key that is not moved."""
    if suffix == ":game":
        return game_key(game_id)
    if suffix == ":log":
        return log_key(game_id)
    if suffix == ":webhooks":
        return webhooks_key(game_id)
    if suffix == ":wh:deliveries":
        return deliveries_key(game_id)
    for old, name in ((":idem:", idempotency_key), (":wh:queue:", queue_key), (":wh:later:", later_key)):
        if suffix.startswith(old):
            return name(game_id, suffix[len(old) :])
    return None


@dataclass
class Moved:
    games: int = 0
    keys: int = 0
    index_entries: int = 0
    players: int = 0  # players whose live games were counted
    left: list[str] = field(default_factory=list)  # keys of a game not recognised (none expected)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _move_indexes(client: StoreRedis, moved: Moved) -> None:
    for index, old in OLD_INDEXES.items():
        for member, score in client.zscan_iter(old, count=500):
            game_id = _text(member).split(" ", 1)[0]
            client.zadd(index_of(index, game_id), {member: score})
            moved.index_entries += 1
        client.delete(old)


def _move_game(client: StoreRedis, game_id: str, moved: Moved) -> None:
    prefix = first_layout_prefix(game_id)
    renames: list[tuple[str, str]] = []
    for raw in client.scan_iter(match=_escape(prefix) + ":*", count=1000):
        key = _text(raw)
        target = new_name(game_id, key[len(prefix) :])
        if target is None:
            moved.left.append(key)
        else:
            renames.append((key, target))
    pipe = client.pipeline(transaction=True)
    for key, target in renames:
        pipe.rename(key, target)
    pipe.execute()
    moved.games += 1
    moved.keys += len(renames)


def _escape(pattern: str) -> str:
    """A key name as a SCAN pattern matching only itself (ids may hold none of these, but a
    pattern built from data should not be able to match more than it names)."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in pattern)


def first_layout_games(client: StoreRedis) -> Iterator[str]:
    """The games still under the first layout (their hash ``sk:{<id>}:game``; an id holds no
    brace, which tells them from a new key that happens to end so)."""
    for raw in client.scan_iter(match=FIRST_LAYOUT_GAME_HASHES, count=1000):
        game_id = first_layout_game(_text(raw))
        if game_id is not None:
            yield game_id


def _count_live_games(client: StoreRedis, moved: Moved) -> None:
    for raw in client.scan_iter(match=PLAYER_GAMES_PATTERN, count=1000):
        key = _text(raw)
        player_id = player_of_games_key(key)
        rows = cast(list[tuple[bytes, float]], client.zrange(key, 0, -1, withscores=True))
        bound = [(_text(member), score) for member, score in rows]
        pipe = client.pipeline(transaction=False)
        for game_id, _ in bound:
            pipe.hmget(game_key(game_id), ["status", "meta"])
        live = {
            game_id: score
            for (game_id, score), (status, meta) in zip(bound, pipe.execute(), strict=True)
            if is_live(
                None if status is None else _text(status),
                None if meta is None else orjson.loads(meta),
                player_id,
            )
        }
        if live:
            client.zadd(player_live_games_key(player_id), live)
            moved.players += 1


def migrate_layout(client: StoreRedis) -> Moved:
    """Move everything of the first layout to the partitioned one; what was moved."""
    if is_cluster(client) and next(first_layout_games(client), None) is not None:
        raise FirstLayoutOnCluster(
            "this Redis Cluster holds games in the first key layout, which move on one Redis only "
            "(a cluster refuses a rename across slots): run `skyline migrate-keys` on the Redis they "
            'came from, then import it into the cluster (docs/cluster.md, "Moving a deployment")'
        )
    moved = Moved()
    _move_indexes(client, moved)
    for game_id in list(first_layout_games(client)):
        _move_game(client, game_id, moved)
    if moved.games:  # a Redis of the first layout: its players' live games, from their indexes
        _count_live_games(client, moved)
    client.set(LAYOUT, CURRENT_LAYOUT)
    return moved


class FirstLayout(Exception):
    """This Redis holds games of the first layout: ``skyline migrate-keys`` moves them."""


class FirstLayoutOnCluster(FirstLayout):
    """A Redis Cluster holds games of the first layout: they move on one Redis, not there."""


def check_layout(client: StoreRedis) -> None:
    """Refuse a Redis written by the first layout, before anything reads or writes it: its games
    would look gone. Marks an empty Redis (or one moved already) as of the current layout. One
    round trip: the first layout always held its indexes of live games (a live game is in
    ``sk:idle``; an ended one in ``sk:archive-due`` until archived)."""
    layout = client.get(LAYOUT)
    if layout is not None and _text(layout) == CURRENT_LAYOUT:
        return
    if client.exists(*OLD_INDEXES.values()):
        raise FirstLayout(
            "this Redis holds games in the first key layout: stop the API and the workers and run "
            '`skyline migrate-keys` (docs/deploy.md, "Moving to the partitioned layout")'
        )
    client.set(LAYOUT, CURRENT_LAYOUT, nx=True)


def refuse_first_layout(client: StoreRedis) -> None:
    """``check_layout`` at a process's start; a Redis that does not answer yet is let be (the
    process starts and reports itself not ready, as it does for any Redis down)."""
    try:
        check_layout(client)
    except redis.RedisError:
        pass
