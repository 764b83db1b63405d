"""A quota on the games of bots only that one client address keeps running at once.

A game with no human seat costs workers and nobody waits on it; without a bound, one client
could fill the bot queue for everyone (fair scheduling puts such games second, and this quota
keeps the second queue short). The running games of an address are a sorted set of their ids;
finished or expired ones are dropped when the address creates the next one.
"""

from __future__ import annotations

import time
from typing import cast

from .connect import StoreRedis
from .keys import bot_games_key, game_key


class BotGameQuota:
    def __init__(self, client: StoreRedis, *, per_address: int, ttl_seconds: int) -> None:
        self.client = client
        self.per_address = per_address
        self.ttl = ttl_seconds

    def admit(self, address: str) -> bool:
        """Whether the address may start another game of bots only (False: it runs its quota)."""
        if self.per_address <= 0:
            return True
        key = bot_games_key(address)
        games = [
            g.decode() if isinstance(g, bytes) else g
            for g in cast(list[bytes | str], self.client.zrange(key, 0, -1))
        ]
        if len(games) < self.per_address:
            return True
        pipe = self.client.pipeline(transaction=False)
        for game_id in games:
            pipe.hget(game_key(game_id), "status")
        statuses = pipe.execute()
        over = [
            g for g, status in zip(games, statuses, strict=True) if status in (None, b"finished", "finished")
        ]
        if over:
            self.client.zrem(key, *over)
        return len(games) - len(over) < self.per_address

    def record(self, address: str, game_id: str) -> None:
        if self.per_address <= 0:
            return
        key = bot_games_key(address)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(key, {game_id: time.time()})
        pipe.expire(key, self.ttl)
        pipe.execute()
