"""The games waiting for the archive (``sk:archive-due``), and letting one go once it is archived.

The commit that ends a game adds it to ``sk:archive-due`` (``aftercommit.ARCHIVE_OR_EXPIRE``),
scored by the end. The score is also when a worker may take the game next: ``claim`` moves the
score of what it takes a lease ahead, in one script, so two workers never hold the same game at
once, and a worker that died holding one lets it come due again when the lease runs out. A write
that failed (PostgreSQL down) sets the score to the retry's time (``postpone``). Only ``release``,
once the archive holds the game, removes it: it marks the game ``archived`` and lets its keys
expire after the grace, in one script. A game is never dropped before PostgreSQL has it.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from .keys import ARCHIVE_DUE, IDLE, game_key, log_key

_CLAIM = """
-- KEYS: the due set (sk:archive-due or sk:idle); ARGV: now, the lease's end, how many at most
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, game_id in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], game_id)
end
return due
"""

_RELEASE = """
-- KEYS: the due set, the game's hash, its log; ARGV: the game id, now, the grace (seconds)
-- Returns {taken off the due set (0/1), the game's rematch or false}: a rematch made before
-- this step is the archiver's to copy to the archive; one made after sees 'archived' and is
-- copied by whoever made it (store.seats.RematchStore).
local rematch = false
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[2], 'archived', ARGV[2])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
  redis.call('EXPIRE', KEYS[3], tonumber(ARGV[3]))
  rematch = redis.call('HGET', KEYS[2], 'rematch')
end
return {redis.call('ZREM', KEYS[1], ARGV[1]), rematch}
"""

_FIELDS = ("version", "status", "meta", "state", "updated", "archived", "rematch")


@dataclass(frozen=True)
class EndedGame:
    """An ended game as Redis holds it, its JSON untouched: what the archive is given."""

    id: str
    version: int
    status: str
    meta: bytes
    state: bytes
    updated: float
    log: list[bytes]  # entry i made version i + 1
    archived: bool
    rematch: str | None = None  # the finished game's rematch, if one was made


class ArchiveDue:
    """``sk:archive-due``: claim games to archive, postpone one, release one once archived."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)

    def claim(self, now: float, lease_seconds: float, limit: int = 20) -> list[str]:
        """The games due by ``now`` (oldest first), held by the caller for ``lease_seconds``."""
        taken = self._claim(keys=[ARCHIVE_DUE], args=[repr(now), repr(now + lease_seconds), limit])
        return [game_id.decode() if isinstance(game_id, bytes) else game_id for game_id in taken]

    def postpone(self, game_id: str, until: float) -> None:
        """Try the game again at ``until`` (a retry's backoff); only if it is still due."""
        self.redis.zadd(ARCHIVE_DUE, {game_id: until}, xx=True)

    def due(self) -> int:
        return int(self.redis.zcard(ARCHIVE_DUE))

    def read(self, game_id: str) -> EndedGame | None:
        """The game's hash and its whole log, in one transaction (None: no such game)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hmget(game_key(game_id), _FIELDS)
        pipe.lrange(log_key(game_id), 0, -1)
        values, log = pipe.execute()
        version, status, meta, state, updated, archived, rematch = values
        if version is None:
            return None
        return EndedGame(
            id=game_id,
            version=int(version),
            status=status.decode() if isinstance(status, bytes) else status,
            meta=meta,
            state=state,
            updated=float(updated or 0),
            log=list(log),
            archived=archived is not None,
            rematch=rematch.decode() if isinstance(rematch, bytes) else rematch,
        )

    def release(self, game_id: str, now: float, grace_seconds: int) -> tuple[bool, str | None]:
        """The archive holds the game: mark it ``archived``, let its keys go after the grace, and
        take it off the due set, in one step. Whether it was due (False: released already), and
        the game's rematch as the hash holds it then (None: none yet)."""
        keys = [ARCHIVE_DUE, game_key(game_id), log_key(game_id)]
        taken, rematch = self._release(keys=keys, args=[game_id, repr(now), grace_seconds])
        return bool(taken), (rematch.decode() if isinstance(rematch, bytes) else rematch) or None


class IdleGames:
    """``sk:idle``: the live games idle too long, claimed by the sweeper under a lease as the due
    set's are (a sweeper killed holding one lets it come due again), ended as ``expired`` by
    ``service.play.seats.Seats.expire_idle``; that commit takes them off."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._claim = client.register_script(_CLAIM)

    def claim(self, now: float, lease_seconds: float, limit: int = 20) -> list[str]:
        taken = self._claim(keys=[IDLE], args=[repr(now), repr(now + lease_seconds), limit])
        return [game_id.decode() if isinstance(game_id, bytes) else game_id for game_id in taken]

    def renew(self, game_id: str, at: float) -> None:
        """The game is not idle after all (a commit came in before its end was written): due at ``at``."""
        self.redis.zadd(IDLE, {game_id: at}, xx=True)

    def forget(self, game_id: str) -> None:
        """No live game under that id any more (ended, or gone)."""
        self.redis.zrem(IDLE, game_id)

    def due_at(self, game_id: str) -> float | None:
        score = self.redis.zscore(IDLE, game_id)
        return None if score is None else float(score)
