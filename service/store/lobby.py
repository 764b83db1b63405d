"""The lobby's index: listed games waiting for players, newest first (``lobby``, by partition).

A game is added when it is created listed and waiting, and removed by the seat script when it
starts or is aborted. A game that expired while waiting (``SKYLINE_LOBBY_TTL_SECONDS``) leaves
no one to remove it: reads trim entries older than that, and drop any whose game is gone.
"""

from __future__ import annotations

import time

import orjson

from .connect import StoreRedis
from .keys import LOBBY, game_key, index_of
from .partitioned import PartitionedIndex
from .records import GameMeta


class LobbyIndex:
    def __init__(self, client: StoreRedis, ttl_seconds: int) -> None:
        self.redis = client
        self.ttl = ttl_seconds
        self._index = PartitionedIndex(client, LOBBY)

    def add(self, game_id: str, created: float) -> None:
        self.redis.zadd(index_of(LOBBY, game_id), {game_id: created})

    def page(self, before: float | None, count: int) -> list[tuple[str, float]]:
        """Up to ``count`` games created at or before ``before`` (all when None), newest first."""
        return self._index.newest(before, count, drop_before=time.time() - self.ttl)

    def games(self, ids: list[str]) -> list[tuple[str, GameMeta] | None]:
        """Each game's status and meta (None for a game gone), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.hmget(game_key(game_id), ["status", "meta"])
        found: list[tuple[str, GameMeta] | None] = []
        for status, meta in pipe.execute():
            if status is None or meta is None:
                found.append(None)
            else:
                found.append((status.decode() if isinstance(status, bytes) else status, orjson.loads(meta)))
        return found

    def forget(self, game_id: str) -> None:
        self.redis.zrem(index_of(LOBBY, game_id), game_id)
