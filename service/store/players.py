"""Players in Redis: a player's hash, the digest of its key, and its index of games.

A player key is stored only as its digest (``service.play.auth.token_hash``), as seat tokens are.
The digest names its player from a key of its own (``sk:player-key:<digest>``), so one GET tells
which player a key is; a rotation and a deletion replace or drop that key in the same script as
the player's hash, so an old key is refused by the next request on any process.

The index of a player's games (``sk:player:{<id>}:games``) is written by the scripts that bind a
seat to the player (``store.games``' creation, ``store.seats``' join) with ``LIVE_GAMES`` below:
no round trip of its own. Those scripts read games' hashes named from the index, outside their
declared keys: like the lobby's and the limiter's, this needs a single Redis.
"""

from __future__ import annotations

import time
from typing import Any, cast

import orjson
import redis

from .keys import (
    GAME_KEY_PREFIX,
    GAME_KEY_SUFFIX,
    game_key,
    log_key,
    player_by_key,
    player_games_key,
    player_key,
)
from .partitions import LUA_TAG_OF

# Lua, shared by the scripts that bind a seat: how many of the player's games are live (waiting
# or active), dropping from its index the games Redis has let go. ``prefix`` and ``suffix`` make
# a game's hash from its id (store.keys.GAME_KEY_PREFIX and _SUFFIX).
LIVE_GAMES = (
    LUA_TAG_OF
    + """
local function is_live(game, player, prefix, suffix, index, id)
  local status = redis.call('HGET', game, 'status')
  if not status then
    redis.call('ZREM', index, id)
    return false
  end
  if status == 'active' then return true end
  if status ~= 'waiting' then return false end
  -- An invitation not taken yet is not the player's game: others cannot fill its cap.
  for _, seat in ipairs(cjson.decode(redis.call('HGET', game, 'meta'))['seats']) do
    if seat['player'] == player and seat['kind'] ~= 'open' then return true end
  end
  return false
end
-- True when binding ``game_id`` to ``player`` (its index ``index``) would pass ``cap`` live
-- games (0: no cap), counting the player's other games.
local function over_cap(index, player, game_id, cap, prefix, suffix)
  if cap <= 0 then return false end
  local live = 0
  for _, id in ipairs(redis.call('ZRANGE', index, 0, -1)) do
    if id ~= game_id and is_live(prefix .. tag_of(id) .. suffix .. id, player, prefix, suffix, index, id) then
      live = live + 1
    end
  end
  return live >= cap
end
"""
)

# The arguments every binding script passes to ``over_cap`` after the cap.
GAME_KEY_PARTS = (GAME_KEY_PREFIX, GAME_KEY_SUFFIX)

_ROTATE = """
-- KEYS: the player's hash; ARGV: the prefix of a key's pointer, the new digest, the player's id
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old then return 0 end
redis.call('DEL', ARGV[1] .. old)
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3])
redis.call('HSET', KEYS[1], 'key_hash', ARGV[2])
return 1
"""

_DELETE = """
-- KEYS: the player's hash, its index of games; ARGV: the prefix of a key's pointer
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old then return 0 end
redis.call('DEL', ARGV[1] .. old, KEYS[1], KEYS[2])
return 1
"""

# A field of a player that still exists (a deletion meanwhile must not bring its hash back).
_SET_IF_EXISTS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

KEY_POINTER_PREFIX = player_by_key("")


class PlayerStore:
    """Create, find, rotate and delete players; read a player's games in a bounded number of trips."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._rotate = client.register_script(_ROTATE)
        self._delete = client.register_script(_DELETE)
        self._set_if_exists = client.register_script(_SET_IF_EXISTS)

    def create(self, player_id: str, key_hash: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(player_key(player_id), mapping={"key_hash": key_hash, "created": repr(time.time())})
        pipe.set(player_by_key(key_hash), player_id)
        pipe.execute()

    def player_of(self, key_hash: str) -> str | None:
        """The player whose key has this digest now; None for a key rotated away, or never issued."""
        found = self.redis.get(player_by_key(key_hash))
        if found is None:
            return None
        return found.decode() if isinstance(found, bytes) else str(found)

    def exists(self, player_id: str) -> bool:
        return bool(self.redis.exists(player_key(player_id)))

    def rotate(self, player_id: str, new_key_hash: str) -> bool:
        """Point the player at a new key's digest, dropping the old one in the same step."""
        return bool(
            self._rotate(keys=[player_key(player_id)], args=[KEY_POINTER_PREFIX, new_key_hash, player_id])
        )

    def delete(self, player_id: str) -> bool:
        return bool(
            self._delete(keys=[player_key(player_id), player_games_key(player_id)], args=[KEY_POINTER_PREFIX])
        )

    # ---- the player's webhook (its URL, events and secret; attached to each of its games) ----
    def set_webhook(self, player_id: str, webhook: dict[str, Any] | None) -> bool:
        """Keep (or, None, drop) the player's webhook; False when there is no such player."""
        key = player_key(player_id)
        if webhook is None:
            return bool(self.redis.hdel(key, "webhook"))
        return bool(self._set_if_exists(keys=[key], args=["webhook", orjson.dumps(webhook)]))

    def webhooks(self, player_ids: list[str]) -> list[dict[str, Any] | None]:
        """Each player's webhook (None: none), in one round trip."""
        if not player_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(player_key(player_id), "webhook")
        return [None if raw is None else orjson.loads(raw) for raw in pipe.execute()]

    # ---- "my games" --------------------------------------------------------------------------
    def game_ids(self, player_id: str) -> list[tuple[str, float]]:
        """The player's indexed games and when each was bound (one round trip)."""
        rows = cast(
            list[tuple[bytes | str, float]],
            self.redis.zrange(player_games_key(player_id), 0, -1, withscores=True),
        )
        return [(member.decode() if isinstance(member, bytes) else member, score) for member, score in rows]

    def read_games(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        """Each game's status, version, meta, updated, deadlines, who acted first and last log
        entry, in ONE pipeline (None for a game Redis has let go)."""
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(
                game_key(game_id), ["status", "version", "meta", "updated", "deadlines", "first_to_act"]
            )
            pipe.lindex(log_key(game_id), -1)
        replies = pipe.execute()
        found: list[dict[str, Any] | None] = []
        for index in range(0, len(replies), 2):
            (status, version, meta, updated, deadlines, first), last = replies[index], replies[index + 1]
            if status is None or meta is None:
                found.append(None)
                continue
            found.append(
                {
                    "status": status.decode() if isinstance(status, bytes) else status,
                    "version": int(version),
                    "meta": orjson.loads(meta),
                    "updated": float(updated or 0),
                    "deadlines": orjson.loads(deadlines) if deadlines else {},
                    "last": orjson.loads(last) if last is not None else None,
                    # Who acts at version 0 (games created with players: store.games).
                    "first_to_act": orjson.loads(first) if first else None,
                }
            )
        return found

    def read_states(self, game_ids: list[str]) -> list[bytes | None]:
        """The states of games whose log is empty (who acts first is the state's): ONE pipeline."""
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(game_key(game_id), "state")
        return cast(list[bytes | None], pipe.execute())
