"""The games waiting for the archive (``archive-due``, one per partition), and letting one go once
it is archived.

The commit that ends a game adds it to its partition's ``archive-due`` (``aftercommit.ARCHIVE_OR_EXPIRE``),
scored by the end. The score is also when a worker may take the game next: ``claim`` moves the
score of what it takes a lease ahead, in one script, so two workers never hold the same game at
once, and a worker that died holding one lets it come due again when the lease runs out. A write
that failed (PostgreSQL down) sets the score to the retry's time (``postpone``). Only ``release``,
once the archive holds the game, removes it: it marks the game ``archived`` and lets its keys
expire after the grace, in one script. A game is never dropped before PostgreSQL has it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .connect import StoreRedis
from .keys import ARCHIVE_DUE, ARCHIVED_IDS, ARCHIVED_IDS_THROUGH, IDLE, game_key, index_of, log_key
from .partitioned import PartitionedIndex

_RELEASE = """
-- KEYS: the due set, the game's hash, its log, the archived ids; ARGV: the game id, now, the
-- grace (seconds)
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
redis.call('SADD', KEYS[4], ARGV[1])
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
    """``archive-due``: claim games to archive (over every partition), postpone one, release one."""

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self._due = PartitionedIndex(client, ARCHIVE_DUE)
        self._release = client.register_script(_RELEASE)

    def claim(self, now: float, lease_seconds: float, limit: int = 20) -> list[str]:
        """The games due by ``now`` (oldest first), held by the caller for ``lease_seconds``."""
        return self._due.claim(now, now + lease_seconds, limit)

    def postpone(self, game_id: str, until: float) -> None:
        """Try the game again at ``until`` (a retry's backoff); only if it is still due."""
        self.redis.zadd(index_of(ARCHIVE_DUE, game_id), {game_id: until}, xx=True)

    def due(self) -> int:
        return self._due.size()

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
        keys = [
            index_of(ARCHIVE_DUE, game_id),
            game_key(game_id),
            log_key(game_id),
            index_of(ARCHIVED_IDS, game_id),
        ]
        taken, rematch = self._release(keys=keys, args=[game_id, repr(now), grace_seconds])
        return bool(taken), (rematch.decode() if isinstance(rematch, bytes) else rematch) or None


class ArchivedIds:
    """The ids the archive holds, in Redis: how a read knows, while PostgreSQL is away, that an
    id Redis does not hold was never archived (a 404) rather than perhaps archived (a 503).

    Every archived game passes through Redis but an imported one, and Redis lets a game go only
    once the archive holds it: the script that lets it go adds its id (``ArchiveDue.release``).
    The archiver adds the archive's own ids after the position it last read (games archived
    before these sets existed, imports) and moves ``through`` on. Until it has once (a new
    deployment, a Redis that lost its data), nothing is known: ``may_hold`` is True for all."""

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client

    def through(self) -> int | None:
        value = self.redis.get(ARCHIVED_IDS_THROUGH)
        return None if value is None else int(value)

    def add(self, game_ids: Iterable[str], through: int | None = None) -> None:
        """Add ids the archive holds; with ``through``, every id up to that position is added."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.sadd(index_of(ARCHIVED_IDS, game_id), game_id)
        pipe.execute()
        if through is not None:
            self.redis.set(ARCHIVED_IDS_THROUGH, through)

    def may_hold(self, game_id: str) -> bool:
        """False only if the archive is known not to hold ``game_id``."""
        if self.redis.get(ARCHIVED_IDS_THROUGH) is None:
            return True
        return bool(self.redis.sismember(index_of(ARCHIVED_IDS, game_id), game_id))


class IdleGames:
    """``idle`` (one per partition): the live games idle too long, claimed by the sweeper under a
    lease as the due set's are (a sweeper killed holding one lets it come due again), ended as ``expired`` by
    ``service.play.seats.Seats.expire_idle``; that commit takes them off."""

    def __init__(self, client: StoreRedis) -> None:
        self.redis = client
        self._idle = PartitionedIndex(client, IDLE)

    def claim(self, now: float, lease_seconds: float, limit: int = 20) -> list[str]:
        return self._idle.claim(now, now + lease_seconds, limit)

    def renew(self, game_id: str, at: float) -> None:
        """The game is not idle after all (a commit came in before its end was written): due at ``at``."""
        self.redis.zadd(index_of(IDLE, game_id), {game_id: at}, xx=True)

    def forget(self, game_id: str) -> None:
        """No live game under that id any more (ended, or gone)."""
        self.redis.zrem(index_of(IDLE, game_id), game_id)

    def due_at(self, game_id: str) -> float | None:
        score = self.redis.zscore(index_of(IDLE, game_id), game_id)
        return None if score is None else float(score)
