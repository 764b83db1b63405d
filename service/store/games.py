"""Games in Redis: one hash per game, its move log, and idempotent replies.

Keys share a hash tag (``sk:{<id>}:...``; the layout is in ``service.store.keys``) so one
game's keys live in one Redis Cluster slot and a Lua script may touch them together. Every
write is a compare-and-set on the version, done in one Lua script: two racing moves can never
both land, and no update is lost. Values are JSON (orjson), never pickle; a move's log entry is
kept compact (msgpack, its events left to the replay: ``store.logform``).

This module knows nothing of Flask; the worker uses it as the API does.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import orjson

from .aftercommit import ARCHIVE_OR_EXPIRE, ENDED, INDEX_AFTER_COMMIT
from .connect import StoreRedis, publish_command
from .keys import (
    ARCHIVE_DUE,
    BOTS_DUE,
    DEADLINES,
    IDLE,
    WEBHOOKS_DUE,
    events_channel_of,
    game_key,
    idempotency_key,
    index_of,
    log_key,
    webhooks_key,
)
from .logform import decoded, encoded
from .partitioned import PartitionedIndex
from .partitions import partition_of
from .players import PlayerOverCap, PlayerStore, Reservation
from .records import GameMeta, LogEntry, StoredGame
from .roundtrip import Command

__all__ = [
    "DuplicateRequest",
    "GameMissing",
    "GameMovedOn",
    "GameStore",
    "LiveRead",
    "PlayerOverCap",
    "StoredGame",
    "GAME_ID_PATTERN",
    "is_game_id",
    "new_game_id",
    "read_live",
]

# Every id the service has made or will make: ``new_game_id``'s are 12 characters of
# ``secrets.token_urlsafe``'s alphabet; the bound leaves room for a longer id later, never a
# character outside the alphabet. An id outside it is refused wherever it comes in (a route's
# converter, an import's line) before any store is asked: it can name no game, and a NUL or a
# slash would otherwise reach PostgreSQL's text or a Redis key.
GAME_ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"
_GAME_ID = re.compile(GAME_ID_PATTERN)


def is_game_id(text: object) -> bool:
    """Whether ``text`` is an id the service could have made."""
    return isinstance(text, str) and _GAME_ID.fullmatch(text) is not None


# Result codes of the commit script.
_MISSING, _STALE, _DUPLICATE = -1, -2, -3

_COMMIT = (
    INDEX_AFTER_COMMIT
    + ARCHIVE_OR_EXPIRE
    + """
-- KEYS: game hash, move log, idempotency key (or the game hash again when none), the index of
--       deadlines, the game's webhooks, the webhooks' outbox, the games due to be archived, the
--       idle games
-- ARGV: expected version, state, status, log entry, ttl, channel (the partition's), idempotent
--       reply, idem ttl, now, deadlines ('' = a game without a clock: nothing), the earliest
--       deadline ('' = none), game id, the publish command ('SPUBLISH' on a cluster, else
--       'PUBLISH')
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
-- The key first: a retry of a request that landed is a duplicate (answered with the first
-- reply), not a stale version, whatever moved since.
if KEYS[3] ~= KEYS[1] and redis.call('EXISTS', KEYS[3]) == 1 then return -3 end
if current ~= ARGV[1] then return -2 end
local version = tonumber(ARGV[1]) + 1
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', version, 'status', ARGV[3], 'updated', ARGV[9])
redis.call('RPUSH', KEYS[2], ARGV[4])
archive_or_expire(KEYS[1], KEYS[2], KEYS[7], KEYS[8], ARGV[3], 'in', ARGV[5], ARGV[12], ARGV[9])
if KEYS[3] ~= KEYS[1] then
  redis.call('SET', KEYS[3], ARGV[7], 'EX', tonumber(ARGV[8]))
end
index_after_commit(KEYS[1], KEYS[4], KEYS[5], KEYS[6], ARGV[10], ARGV[11], ARGV[12], ARGV[9])
redis.call(ARGV[13], ARGV[6], ARGV[12] .. ' ' .. version)
return version
"""
)


# A game's creation: its hash, its deadlines' index and its idle score. The seats bound to players
# are entered in the players' slots just before (store.players.PlayerStore.reserve).
_CREATE = """
-- KEYS: game hash, deadlines' index, the idle games
-- ARGV: meta, state, status, now, ttl (how long it may stay idle), deadlines ('' = none), earliest
--       deadline, game id, who acts at version 0 ('' = not kept: no seat bound to a player)
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'state', ARGV[2], 'version', 0, 'status', ARGV[3],
  'updated', ARGV[4])
if ARGV[9] ~= '' then
  -- Who acts at version 0, for the players' "my games" (no state to parse before a first entry).
  redis.call('HSET', KEYS[1], 'first_to_act', ARGV[9])
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'deadlines', ARGV[6])
  redis.call('ZADD', KEYS[2], ARGV[7], ARGV[8])
end
-- Its keys never expire by themselves: the sweeper ends it once idle too long (idle).
redis.call('ZADD', KEYS[3], tonumber(ARGV[4]) + tonumber(ARGV[5]), ARGV[8])
return 0
"""


# What a game's read takes from its hash.
_LOAD_FIELDS = ("version", "status", "meta", "state", "updated", "deadlines", "rematch")


# Forget a game in BOTS_DUE only if nobody marked it again since the sweeper read its score.
_FORGET_IF_UNCHANGED = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


class GameMovedOn(Exception):
    """The game moved on since it was read."""

    def __init__(self, current: int | None = None) -> None:
        super().__init__("game moved on")
        self.current = current


class DuplicateRequest(Exception):
    """An idempotent reply for this key was stored meanwhile."""


class GameMissing(Exception):
    """No game under that id (never created, or expired)."""


@dataclass(frozen=True, slots=True)
class LiveRead:
    """A game's fields as Redis gave them to a read sent ahead (``GameStore.read_command``), not
    yet parsed: ``GameStore.load`` takes it instead of reading again."""

    game_id: str
    values: list[Any]


def new_game_id(beside: str | None = None) -> str:
    """A fresh game id; with ``beside``, one in the same partition as that game (a rematch, whose
    creation writes both games in one script: one slot)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if beside is None or partition_of(game_id) == partition_of(beside):
            return game_id


def read_live(client: StoreRedis, game_id: str) -> tuple[GameMeta, list[LogEntry]] | None:
    """The meta and log of the game Redis holds under ``game_id`` (live, or ended and in its
    grace), or None: what ``skyline import`` compares a game of its file with."""
    meta = client.hget(game_key(game_id), "meta")
    if meta is None:
        return None
    entries = cast(list[bytes], client.lrange(log_key(game_id), 0, -1))
    return orjson.loads(cast(bytes, meta)), [decoded(raw, at) for at, raw in enumerate(entries, start=1)]


class GameStore:
    """Load, create and commit games; read their logs; keep idempotent replies."""

    def __init__(
        self,
        client: StoreRedis,
        *,
        ttl_seconds: int,
        finished_ttl_seconds: int,
        idempotency_ttl_seconds: int = 24 * 3600,
        lobby_ttl_seconds: int = 24 * 3600,
    ) -> None:
        self.redis = client
        self.ttl = ttl_seconds
        self.finished_ttl = finished_ttl_seconds
        self.idempotency_ttl = idempotency_ttl_seconds
        self.lobby_ttl = lobby_ttl_seconds  # a game waiting for players (SKYLINE_LOBBY_TTL_SECONDS)
        self._commit = client.register_script(_COMMIT)
        self._publish = publish_command(client)
        self._create = client.register_script(_CREATE)
        self._forget_if_unchanged = client.register_script(_FORGET_IF_UNCHANGED)
        self.players = PlayerStore(client)
        self._bots_due = PartitionedIndex(client, BOTS_DUE)
        self._deadlines = PartitionedIndex(client, DEADLINES)

    def _ttl_for(self, status: str) -> int:
        """How long a live game may stay idle before the sweeper ends it as ``expired`` (sk:idle);
        an ended game's keys do not expire before the archive holds it, then stay the finished
        TTL's grace (store.archiving)."""
        if status == "waiting":
            return self.lobby_ttl
        return self.finished_ttl if status in ENDED else self.ttl

    def create(
        self,
        game_id: str,
        meta: GameMeta,
        state: dict[str, Any],
        status: str,
        deadlines: dict[str, float] | None = None,
        *,
        players: list[tuple[str, bool]] | None = None,
        live_games_cap: int = 0,
        to_act: list[int] | None = None,
    ) -> None:
        """Write a new game in one script. ``players``: each player a seat is bound to, and whether
        its cap of ``live_games_cap`` live games applies (not to an invitation); PlayerOverCap
        names the first over it, and nothing is written. ``to_act`` (games with players): who acts
        at version 0, kept for their "my games"."""
        bound = players or []
        keys = [game_key(game_id), index_of(DEADLINES, game_id), index_of(IDLE, game_id)]
        args: list[Any] = [
            orjson.dumps(meta),
            orjson.dumps(state),
            status,
            repr(time.time()),
            self._ttl_for(status),
            orjson.dumps(deadlines) if deadlines else b"",
            repr(min(deadlines.values())) if deadlines else "",
            game_id,
            orjson.dumps(to_act or []) if bound else "",
        ]
        reserved: list[Reservation] = []
        try:
            for player, capped in bound:
                reserved.append(self.players.reserve(player, game_id, cap=live_games_cap, capped=capped))
            self._create(keys=keys, args=args)
        except BaseException:
            for reservation in reserved:
                self.players.release(reservation)
            raise

    def read_command(self, game_id: str) -> Command[LiveRead]:
        """The read ``load`` makes, as a command another step may send in its round trip (the rate
        limit's check); its answer is then handed to ``load``."""
        return Command(("HMGET", game_key(game_id), *_LOAD_FIELDS), partial(LiveRead, game_id))

    def load(self, game_id: str, *, parse_state: bool = True, read: LiveRead | None = None) -> StoredGame:
        """The game as stored; with ``parse_state=False`` its state is left as JSON in ``raw_state``.
        ``read``: the game's fields as a read sent ahead gave them (``read_command``), read again
        only when it is another game's."""
        # bytes, or None for a field the game has not (yet)
        if read is not None and read.game_id == game_id:
            values = read.values
        else:
            values = cast(list[Any], self.redis.hmget(game_key(game_id), _LOAD_FIELDS))
        if values[0] is None:
            raise GameMissing(game_id)
        version, status, meta, state, updated, deadlines, rematch = values
        return StoredGame(
            id=game_id,
            version=int(version),
            status=status.decode() if isinstance(status, bytes) else status,
            meta=orjson.loads(meta),
            state=orjson.loads(state) if parse_state else {},
            updated=float(updated or 0),
            raw_state=b"" if parse_state else state,
            deadlines=orjson.loads(deadlines) if deadlines else {},
            rematch=rematch.decode() if isinstance(rematch, bytes) else rematch,
        )

    def version(self, game_id: str) -> int | None:
        value = self.redis.hget(game_key(game_id), "version")
        return None if value is None else int(value)

    def commit(
        self,
        game_id: str,
        expected_version: int,
        state: dict[str, Any],
        status: str,
        log_entry: LogEntry,
        idempotency: tuple[str, dict[str, Any]] | None = None,
        deadlines: dict[str, float] | None = None,
    ) -> int:
        """Store the new state if the game is still at ``expected_version``; return the new version.

        ``deadlines`` (games with a clock): each human seat to act and when its time runs out,
        written with the move and indexed in ``sk:deadlines`` by the earliest (none: dropped)."""
        key = game_key(game_id)
        idem_key = key
        idem_reply = b""
        if idempotency is not None:
            idem_key = idempotency_key(game_id, idempotency[0])
            idem_reply = orjson.dumps(idempotency[1])
        ttl = self._ttl_for(status)
        keys: list[Any] = [
            key,
            log_key(game_id),
            idem_key,
            index_of(DEADLINES, game_id),
            webhooks_key(game_id),
        ]
        keys += [index_of(WEBHOOKS_DUE, game_id), index_of(ARCHIVE_DUE, game_id), index_of(IDLE, game_id)]
        args: list[Any] = [
            expected_version,
            orjson.dumps(state),
            status,
            encoded(log_entry),
            ttl,
            events_channel_of(game_id),
            idem_reply,
            self.idempotency_ttl,
            repr(time.time()),
            b"" if deadlines is None else orjson.dumps(deadlines),
            "" if not deadlines else repr(min(deadlines.values())),
            game_id,
            self._publish,
        ]
        result = self._commit(keys=keys, args=args)
        if result == _MISSING:
            raise GameMissing(game_id)
        if result == _STALE:
            raise GameMovedOn(self.version(game_id))
        if result == _DUPLICATE:
            raise DuplicateRequest()
        return int(result)

    def log(self, game_id: str, start: int = 0, end: int = -1) -> list[LogEntry]:
        """Log entries from index ``start`` (entry i is the move that made version i + 1), as
        Redis keeps them: a move's without its events (``logform``; the repository makes them)."""
        if start < 0:
            raise ValueError("the log is read from an index of its own, not from its end")
        raws = cast(list[bytes], self.redis.lrange(log_key(game_id), start, end))
        return [decoded(raw, version) for version, raw in enumerate(raws, start=start + 1)]

    def idempotent_reply(self, game_id: str, key: str) -> dict[str, Any] | None:
        raw = self.redis.get(idempotency_key(game_id, key))
        return None if raw is None else orjson.loads(raw)

    # ---- games waiting for a bot (the sweeper's index) ----------------------------------
    def mark_bot_due(self, game_id: str) -> None:
        """Note that a bot seat of this game is (about to be) due to act, as of now."""
        self.redis.zadd(index_of(BOTS_DUE, game_id), {game_id: time.time()})

    def bots_due_since(self, before: float, limit: int = 100) -> list[tuple[str, bytes]]:
        """Games marked before ``before`` (oldest first), each with its score as stored."""
        return self._bots_due.oldest(before, limit)

    def forget_bot_due(self, game_id: str, score: bytes) -> bool:
        """Drop the game from the index unless it was marked again after ``score`` was read."""
        return bool(self._forget_if_unchanged(keys=[index_of(BOTS_DUE, game_id)], args=[game_id, score]))

    def ping(self) -> bool:
        return bool(self.redis.ping())

    # ---- deadlines (games with a clock) -------------------------------------------------------
    def deadlines_due(self, before: float, limit: int = 100) -> list[tuple[str, bytes]]:
        """Games whose earliest deadline is before ``before``, earliest first, with the score read."""
        return self._deadlines.oldest(before, limit)

    def forget_deadline(self, game_id: str, score: bytes) -> bool:
        """Drop the game from the deadlines' index unless a commit indexed it anew since."""
        return bool(self._forget_if_unchanged(keys=[index_of(DEADLINES, game_id)], args=[game_id, score]))
