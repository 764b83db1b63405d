"""Seat changes in Redis: one Lua script, a compare-and-set on the version like a move's commit.

Joining, leaving, aborting and resigning change a game's seats (``meta``) and its
status, not its state: each is a new version with a log entry of its own (service events, no
``move``), published on the game's channel like a move, and keeps the lobby's index in step in
the same script. Two joins of the last open seat both read version *v*; one commit makes *v* + 1,
the other finds the game moved on and judges again on what it reads: exactly one winner.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from .aftercommit import ARCHIVE_OR_EXPIRE, INDEX_AFTER_COMMIT
from .connect import StoreRedis, publish_command
from .games import GameMissing, GameMovedOn
from .keys import (
    ARCHIVE_DUE,
    DEADLINES,
    IDLE,
    LOBBY,
    WEBHOOKS_DUE,
    events_channel_of,
    game_key,
    index_of,
    log_key,
    webhooks_key,
)
from .players import PlayerStore
from .records import GameMeta, LogEntry

_SEAT_COMMIT = (
    INDEX_AFTER_COMMIT
    + ARCHIVE_OR_EXPIRE
    + """
-- KEYS: game hash, log, lobby, deadlines' index, the game's webhooks, the webhooks' outbox, the
--       games due to be archived, the idle games
-- ARGV: expected version, meta, status, log entry, 'at' or 'in', expiry (unix time or seconds),
--       channel, now, lobby ('add', 'remove' or ''), game id, lobby score, deadlines ('' =
--       unchanged), the earliest deadline ('' = none), the publish command ('SPUBLISH' on a
--       cluster, else 'PUBLISH'); the channel is the partition's
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return -2 end
local version = tonumber(ARGV[1]) + 1
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'version', version, 'status', ARGV[3], 'updated', ARGV[8])
redis.call('RPUSH', KEYS[2], ARGV[4])
archive_or_expire(KEYS[1], KEYS[2], KEYS[7], KEYS[8], ARGV[3], ARGV[5], ARGV[6], ARGV[10], ARGV[8])
if ARGV[9] == 'add' then
  redis.call('ZADD', KEYS[3], ARGV[11], ARGV[10])
elseif ARGV[9] == 'remove' then
  redis.call('ZREM', KEYS[3], ARGV[10])
end
index_after_commit(KEYS[1], KEYS[4], KEYS[5], KEYS[6], ARGV[12], ARGV[13], ARGV[10], ARGV[8])
redis.call(ARGV[14], ARGV[7], ARGV[10] .. ' ' .. version)
return version
"""
)


class SeatStore:
    """The compare-and-set of a seat change (``commit``)."""

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self.players = PlayerStore(client)
        self._commit = client.register_script(_SEAT_COMMIT)
        self._publish = publish_command(client)

    def commit(
        self,
        game_id: str,
        expected_version: int,
        meta: GameMeta,
        status: str,
        entry: LogEntry,
        *,
        expire_at: float | None = None,
        ttl: int | None = None,
        lobby: str = "",
        lobby_score: float = 0.0,
        deadlines: dict[str, float] | None = None,
        player: str | None = None,
        live_games_cap: int = 0,
    ) -> int:
        """Write the seats and status if the game is still at ``expected_version``; the new version.

        The game expires at ``expire_at`` (a waiting game, counted from its creation) or ``ttl``
        seconds from now; ``lobby`` adds it to the lobby's index or removes it. ``player``: the
        player a seat is bound to now, entered in its index just before, once its
        ``live_games_cap`` (0: none) admits the game (else PlayerOverCap, and nothing is written)."""
        if expire_at is not None:
            mode, expiry = "at", max(int(expire_at), int(time.time()) + 1)
        else:
            mode, expiry = "in", int(ttl or 1)
        keys = [
            game_key(game_id),
            log_key(game_id),
            index_of(LOBBY, game_id),
            index_of(DEADLINES, game_id),
            webhooks_key(game_id),
            index_of(WEBHOOKS_DUE, game_id),
            index_of(ARCHIVE_DUE, game_id),
            index_of(IDLE, game_id),
        ]
        args: list[Any] = [
            expected_version,
            orjson.dumps(meta),
            status,
            orjson.dumps(entry),
            mode,
            expiry,
            events_channel_of(game_id),
            repr(time.time()),
            lobby,
            game_id,
            repr(lobby_score),
            b"" if deadlines is None else orjson.dumps(deadlines),
            "" if not deadlines else repr(min(deadlines.values())),
            self._publish,
        ]
        # The player's slot first (its cap counted there), then the game's; taken back if the
        # commit does not land.
        reservation = None
        if player is not None:
            reservation = self.players.reserve(player, game_id, cap=live_games_cap, capped=True)
        try:
            result = self._commit(keys=keys, args=args)
        except BaseException:
            if reservation is not None:
                self.players.release(reservation)
            raise
        if result in (-1, -2) and reservation is not None:
            self.players.release(reservation)
        if result == -1:
            raise GameMissing(game_id)
        if result == -2:
            raise GameMovedOn()
        return int(result)


_REMATCH = """
-- KEYS: the finished game's hash, the rematch's hash, the idle games
-- ARGV: the rematch's id, meta, state, status, ttl, now
-- Returns {the rematch's id, whether the finished game was archived already}, or false when the
-- finished game's hash is gone (the caller asks the archive).
local existing = redis.call('HGET', KEYS[1], 'rematch')
local archived = redis.call('HEXISTS', KEYS[1], 'archived')
if existing then return {existing, archived} end
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], 'rematch', ARGV[1])
redis.call('HSET', KEYS[2], 'meta', ARGV[2], 'state', ARGV[3], 'version', 0, 'status', ARGV[4],
  'updated', ARGV[6])
redis.call('ZADD', KEYS[3], tonumber(ARGV[6]) + tonumber(ARGV[5]), ARGV[1])
return {ARGV[1], archived}
"""

# The rematch of a game Redis has let go: the new game alone (the archive says which rematch is
# the one: store it first, then claim the archive's column; a loser deletes its own).
_NEW_GAME = """
-- KEYS: the rematch's hash, the idle games; ARGV: the rematch's id, meta, state, status, ttl, now
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'state', ARGV[3], 'version', 0, 'status', ARGV[4],
  'updated', ARGV[6])
redis.call('ZADD', KEYS[2], tonumber(ARGV[6]) + tonumber(ARGV[5]), ARGV[1])
return 1
"""


class RematchStore:
    """The one rematch of a finished game: created by whoever asks first, found by the others."""

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self._rematch = client.register_script(_REMATCH)
        self._new_game = client.register_script(_NEW_GAME)

    def create_once(
        self, game_id: str, new_id: str, meta: GameMeta, state: dict[str, Any], status: str, ttl: int
    ) -> tuple[str, bool] | None:
        """The rematch's id (``new_id`` created now, or the one created before) and whether the
        finished game was archived already; None: Redis has let the finished game go."""
        found = self._rematch(
            keys=[game_key(game_id), game_key(new_id), index_of(IDLE, new_id)],
            args=[new_id, orjson.dumps(meta), orjson.dumps(state), status, ttl, repr(time.time())],
        )
        if found is None:
            return None
        rematch, archived = found
        return (rematch.decode() if isinstance(rematch, bytes) else rematch), bool(archived)

    def create_alone(self, new_id: str, meta: GameMeta, state: dict[str, Any], status: str, ttl: int) -> None:
        """The rematch of a game only the archive holds, before the archive is told it is the one."""
        self._new_game(
            keys=[game_key(new_id), index_of(IDLE, new_id)],
            args=[new_id, orjson.dumps(meta), orjson.dumps(state), status, ttl, repr(time.time())],
        )

    def discard(self, new_id: str) -> None:
        """A rematch made alone that lost to another one made at the same moment."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(game_key(new_id))
        pipe.zrem(index_of(IDLE, new_id), new_id)
        pipe.execute()
