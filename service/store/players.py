"""Players in Redis: a player's hash, the digest of its key, and its index of games.

A player key is stored only as its digest (``service.play.auth.token_hash``), as seat tokens are.
The digest names its player from a key of its own (``sk:player-key:<digest>``), so one GET tells
which player a key is; on one Redis a rotation and a deletion replace or drop that key in the same
script as the player's hash, so an old key is refused by the next request on any process.

On a Redis Cluster the pointer lies in a slot of its own, so each step is its own command, in an
order whose crash between any two is harmless, and a lookup by key also checks that the pointer's
player still holds that digest (one more round trip): a pointer left behind names nobody.

- creation: the player's hash (with the digest), then the new pointer;
- rotation: the new pointer, then the digest in the player's hash (the script checks the player
  still exists), then the old pointer dropped. A crash after the first leaves a pointer whose
  player holds the old digest; after the second, an old pointer whose player holds the new one;
- deletion: the player's hash and indexes, then the pointer (a pointer to no player).

The index of a player's games (``sk:player:{<id>}:games``) and its live games (``:live``) are
written by ``reserve`` in the player's slot just before a binding script (``store.games``'
creation, ``store.seats``' join) writes the seat in the game's, and taken back by ``release`` if
that binding does not happen: no script touches a player's slot and a game's. An entry left by a
crash between the two names a game whose meta does not bind the player: "my games" shows only
games whose meta does (``service.play.players``), and a count that finds the live games full reads
them and drops those not live.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

import orjson

from .connect import StoreRedis, is_cluster, publish_command
from .keys import (
    PLAYERS_TO_FORGET,
    credential_channel_of,
    game_key,
    log_key,
    player_by_key,
    player_games_key,
    player_key,
    player_live_games_key,
    revoked_message,
)
from .logform import decoded
from .records import GameMeta

# A seat bound to a player is first entered in the player's own slot, then written in the game's:
# no script touches both (a Redis Cluster keeps them on two nodes). The reservation adds the game
# to the player's index of games and, when the player's cap of live games applies (its own seat,
# not an invitation to it), to its live games, after counting them: one step in the player's
# slot, so two bindings racing for the last place cannot both pass. Ended games stay in the live
# set until a count finds it full: then the caller reads those games and drops the ones not live.
_RESERVE = """
-- KEYS: the player's index of games, its live games
-- ARGV: the game id, the cap (0: none), now, '1' when the cap applies
-- Returns {0, added to the index (0/1), added to the live games (0/1)}, or {1, the live games}
-- when the cap is reached without this game.
local game_id, cap, capped = ARGV[1], tonumber(ARGV[2]), ARGV[4] == '1'
if capped and cap > 0 and not redis.call('ZSCORE', KEYS[2], game_id) then
  if redis.call('ZCARD', KEYS[2]) >= cap then
    return {1, redis.call('ZRANGE', KEYS[2], 0, -1)}
  end
end
local indexed = redis.call('ZADD', KEYS[1], ARGV[3], game_id)
local live = 0
if capped then live = redis.call('ZADD', KEYS[2], 'NX', ARGV[3], game_id) end
return {0, indexed, live}
"""


@dataclass(frozen=True)
class Reservation:
    """What a reservation added, so that a binding that did not happen takes back only that."""

    player: str
    game_id: str
    indexed: bool
    live: bool


def is_live(status: str | None, meta: GameMeta | None, player: str) -> bool:
    """Whether a game counts against the player's cap: active, or waiting with a seat the player
    holds (an invitation not taken yet is not its game: others cannot fill its cap)."""
    if status is None or meta is None:
        return False  # Redis has let it go
    if status == "active":
        return True
    if status != "waiting":
        return False
    return any(seat.get("player") == player and seat["kind"] != "open" for seat in meta["seats"])


class PlayerOverCap(Exception):
    """Binding a seat to this player would pass its cap of live games: nothing was written."""

    def __init__(self, player_id: str) -> None:
        super().__init__(player_id)
        self.player_id = player_id


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


# A rotation is a compare-and-set on the digest: the key rotated must still be the current one, so
# of two rotations with one key exactly one lands (the other's key is no longer the player's).
_ROTATE = """
-- KEYS: the player's hash; ARGV: the prefix of a key's pointer, the new digest, the player's id,
--       the digest being replaced
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old or old ~= ARGV[4] then return 0 end
redis.call('DEL', ARGV[1] .. old)
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3])
redis.call('HSET', KEYS[1], 'key_hash', ARGV[2])
return 1
"""

# A cluster's rotation in the player's slot: the digest it replaces, so that its pointer can be
# dropped next; False when there is no such player.
_SWAP_DIGEST = """
-- KEYS: the player's hash; ARGV: the new digest, the digest being replaced
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old or old ~= ARGV[2] then return false end
redis.call('HSET', KEYS[1], 'key_hash', ARGV[1])
return old
"""

# A cluster's deletion in the player's slot: the digest whose pointer is to be dropped next.
_DELETE_IN_SLOT = """
-- KEYS: the player's hash, its index of games, its live games
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old then return false end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return old
"""

_DELETE = """
-- KEYS: the player's hash, its index of games, its live games, the players to forget
-- ARGV: the prefix of a key's pointer, the player's id, now
local old = redis.call('HGET', KEYS[1], 'key_hash')
if not old then return 0 end
redis.call('DEL', ARGV[1] .. old, KEYS[1], KEYS[2], KEYS[3])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2])
return 1
"""

# What a rotation or a deletion tells every process (store.fanout): the streams opened with the
# player's key check it again. KEYS[1] is the channel, so that a cluster runs this in its slot.
_ANNOUNCE = """
-- KEYS: the channel; ARGV: the message, the publish command ('SPUBLISH' on a cluster)
return redis.call(ARGV[2], KEYS[1], ARGV[1])
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

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self._rotate = client.register_script(_ROTATE)
        self._delete = client.register_script(_DELETE)
        self._set_if_exists = client.register_script(_SET_IF_EXISTS)
        self._reserve = client.register_script(_RESERVE)
        # On a cluster the key's pointer is written in steps of their own (the module's docstring).
        self.stepwise = is_cluster(client)
        self._swap_digest = client.register_script(_SWAP_DIGEST)
        self._delete_in_slot = client.register_script(_DELETE_IN_SLOT)
        self._announce_script = client.register_script(_ANNOUNCE)
        self._publish = publish_command(client)

    # ---- binding a seat (store.games' creation, store.seats' join) ------------------------------
    def reserve(self, player_id: str, game_id: str, *, cap: int, capped: bool) -> Reservation:
        """Enter the game in the player's index (and its live games when ``capped``) before the
        binding is written in the game; PlayerOverCap when the player has ``cap`` live games
        already (0: no cap), and nothing is written."""
        keys = [player_games_key(player_id), player_live_games_key(player_id)]
        args: list[str | int] = [game_id, cap, repr(time.time()), "1" if capped else "0"]
        for attempt in range(2):
            reply = cast(list[Any], self._reserve(keys=keys, args=args))
            if reply[0] == 0:
                return Reservation(player_id, game_id, bool(reply[1]), bool(reply[2]))
            if attempt == 0:
                self._forget_ended(player_id, [_text(member) for member in reply[1]])
        raise PlayerOverCap(player_id)

    def release(self, reservation: Reservation) -> None:
        """A binding that did not happen (refused, or raced away): take back what it added."""
        pipe = self.redis.pipeline(transaction=True)
        if reservation.indexed:
            pipe.zrem(player_games_key(reservation.player), reservation.game_id)
        if reservation.live:
            pipe.zrem(player_live_games_key(reservation.player), reservation.game_id)
        pipe.execute()

    def forget_game(self, player_id: str, game_id: str) -> None:
        """The player left its last seat of the game: out of its index and its live games."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.zrem(player_games_key(player_id), game_id)
        pipe.zrem(player_live_games_key(player_id), game_id)
        pipe.execute()

    def _forget_ended(self, player_id: str, game_ids: list[str]) -> None:
        """Drop from the player's live games those that are not (ended, gone, an invitation)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), ["status", "meta"])
        ended = [
            game_id
            for game_id, (status, meta) in zip(game_ids, pipe.execute(), strict=True)
            if not is_live(
                None if status is None else _text(status),
                None if meta is None else orjson.loads(meta),
                player_id,
            )
        ]
        if ended:
            self.redis.zrem(player_live_games_key(player_id), *ended)

    def create(self, player_id: str, key_hash: str) -> None:
        if self.stepwise:
            self.redis.hset(
                player_key(player_id), mapping={"key_hash": key_hash, "created": repr(time.time())}
            )
            self.redis.set(player_by_key(key_hash), player_id)
            return
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(player_key(player_id), mapping={"key_hash": key_hash, "created": repr(time.time())})
        pipe.set(player_by_key(key_hash), player_id)
        pipe.execute()

    def player_of(self, key_hash: str) -> str | None:
        """The player whose key has this digest now; None for a key rotated away, or never issued."""
        found = self.redis.get(player_by_key(key_hash))
        if found is None:
            return None
        player_id = _text(found)
        if self.stepwise and self._digest_of(player_id) != key_hash:
            return None  # a pointer left by a rotation or a deletion cut short
        return player_id

    def _digest_of(self, player_id: str) -> str | None:
        digest = self.redis.hget(player_key(player_id), "key_hash")
        return None if digest is None else _text(digest)

    def exists(self, player_id: str) -> bool:
        return bool(self.redis.exists(player_key(player_id)))

    def rotate(self, player_id: str, new_key_hash: str, old_key_hash: str) -> bool:
        """Point the player at a new key's digest, dropping ``old_key_hash``, if that is still the
        player's (a compare-and-set: False when it is not, or there is no such player); on one
        Redis in one step, on a cluster in three (the module's docstring says in which order).
        Every process is then told, for the streams opened with the old key."""
        if self.stepwise:
            self.redis.set(player_by_key(new_key_hash), player_id)
            old = self._swap_digest(keys=[player_key(player_id)], args=[new_key_hash, old_key_hash])
            if old is None:
                # No such player, or its key is no longer the one rotated: nothing to point at.
                self.redis.delete(player_by_key(new_key_hash))
                return False
            if _text(old) != new_key_hash:
                self.redis.delete(player_by_key(_text(old)))
        elif not self._rotate(
            keys=[player_key(player_id)], args=[KEY_POINTER_PREFIX, new_key_hash, player_id, old_key_hash]
        ):
            return False
        self.announce_revoked(player_id)
        return True

    def announce_revoked(self, player_id: str) -> None:
        """Tell every API process that the player's key changed (store.fanout wakes its streams)."""
        self._announce_script(
            keys=[credential_channel_of(player_id)], args=[revoked_message(player_id), self._publish]
        )

    def delete(self, player_id: str) -> bool:
        """Delete the player, its key's pointer and its indexes, and enter it among the players
        the archive is to forget (in the same step on one Redis; on a cluster first: a crash
        after it leaves an entry whose player still exists, which ``to_forget`` passes over)."""
        if self.stepwise:
            if not self.exists(player_id):
                return False
            self.redis.zadd(PLAYERS_TO_FORGET, {player_id: time.time()})
            old = self._delete_in_slot(
                keys=[player_key(player_id), player_games_key(player_id), player_live_games_key(player_id)]
            )
            if old is None:
                return False
            self.redis.delete(player_by_key(_text(old)))
        elif not self._delete(
            keys=[
                player_key(player_id),
                player_games_key(player_id),
                player_live_games_key(player_id),
                PLAYERS_TO_FORGET,
            ],
            args=[KEY_POINTER_PREFIX, player_id, repr(time.time())],
        ):
            return False
        self.announce_revoked(player_id)
        return True

    def to_forget(self, limit: int = 100) -> list[str]:
        """Deleted players the archive may still name, oldest first; not those that exist (a
        deletion cut short on a cluster: its entry is dropped after a day, the player kept)."""
        rows = cast(
            list[tuple[bytes | str, float]],
            self.redis.zrange(PLAYERS_TO_FORGET, 0, limit - 1, withscores=True),
        )
        if not rows:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for member, _ in rows:
            pipe.exists(player_key(_text(member)))
        stale = time.time() - 86400
        found = []
        for (member, deleted_at), exists in zip(rows, pipe.execute(), strict=True):
            player_id = _text(member)
            if not exists:
                found.append(player_id)
            elif deleted_at < stale:
                self.redis.zrem(PLAYERS_TO_FORGET, player_id)
        return found

    def forgotten(self, player_id: str) -> None:
        """The archive no longer names the player."""
        self.redis.zrem(PLAYERS_TO_FORGET, player_id)

    # ---- the player's webhook (its URL, events and secret; attached to each of its games) ----
    def set_webhook(self, player_id: str, webhook: dict[str, Any] | None) -> bool:
        """Keep (or, None, drop) the player's webhook; False when there is no such player."""
        key = player_key(player_id)
        if webhook is None:
            return bool(self.redis.hdel(key, "webhook"))
        return bool(self._set_if_exists(keys=[key], args=["webhook", orjson.dumps(webhook)]))

    def set_language(self, player_id: str, language: str) -> bool:
        """Keep the player's language; False when there is no such player."""
        return bool(self._set_if_exists(keys=[player_key(player_id)], args=["language", language]))

    def language(self, player_id: str) -> str | None:
        found = self.redis.hget(player_key(player_id), "language")
        return None if found is None else _text(found)

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
                    "last": decoded(last, int(version)) if last is not None else None,
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
