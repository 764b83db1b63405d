"""One game, wherever it lives: the only code that knows a game may be in Redis or in the archive.

A game is live in Redis while it is played and for a grace after it ends; an ended game is written
to the archive (PostgreSQL, ``service.archive``) exactly once, and only then let go by Redis. Every
reader of a game — its view, its moves, its log and their stream, any version, its pictures, its
record, the rematch of an ended game, a player's finished games — asks ``GameRepository``, which
asks Redis first and the archive once Redis has let the game go. A reader written later cannot
forget the archive: it never sees two stores.

What it answers, in the shapes Redis gives them (the JSON travels untouched, so a read from the
archive answers byte for byte what a read from Redis did):

- ``read``: the game at its last version (``StoredGame``; ``archived`` says where it was found);
- ``log``: its log entries between two versions, each with its events: Redis keeps a move's
  entry without them (``store.logform``), and they are made here by the one replay
  (``replay.py``) from a state this process keeps (``checkpoints``: every
  ``EVENTS_CHECKPOINT_EVERY`` versions, and where the last read ended, so that a stream's next
  read replays only the moves since); ``log_as_kept`` gives the entries as kept, for a reader
  of moves and seat changes only (a replay's);
- ``snapshot``: the archive's state at or before a version, where a replay may start.

The archive is opened at the first read that needs it: most processes serve live games only, and a
pool left open at exit complains from its threads (gunicorn's gevent workers). It is closed at exit.

While PostgreSQL does not answer, a read does not wait for it: the archive is opened failing fast
(``Archive(fail_fast=True)``: a circuit open from the first failure, probed again after the 503's
``Retry-After``), so a game Redis let go is a 503 at once. An id Redis does not hold and the
archive is known not to hold either (``store.archiving.ArchivedIds``: Redis keeps every id the
archive holds) is a 404 then, from Redis alone: only an id that may be archived waits for
PostgreSQL's return.
"""

from __future__ import annotations

import atexit
import logging
import threading
from typing import Any

import orjson

from engines.core import State

from ..archive.archive import Archive, ArchiveUnavailable
from ..archive.records import END_STATUSES, PlayerGame
from ..store.archiving import ArchivedIds
from ..store.games import GameMissing, GameStore, LiveRead
from ..store.logform import decoded, is_whole, made_whole
from ..store.records import GameMeta, LogEntry, StoredGame
from ..store.roundtrip import Command
from .checkpoints import Checkpoints
from .errors import ArchiveUnreachable, GameNotFound
from .replay import OnVersion, engine_of, initial_state, replay
from .times import utc_datetime

log = logging.getLogger("skyline.repository")

# How long a read waits for one of the archive's connections, all busy with other reads, before it
# answers 503 (a PostgreSQL that is away is a 503 at once: Archive's circuit).
ARCHIVE_WAIT_SECONDS = 10.0
# The states the log's events are replayed from: one every so many versions of a game, and the
# last one a read reached; bounded in bytes, least recently used dropped.
EVENTS_CHECKPOINT_EVERY = 32
EVENTS_CHECKPOINT_BYTES = 32 * 1024 * 1024


class GameRepository:
    """Games live in ``store`` (Redis) and, once ended, in the archive at ``database_url`` (None:
    no archive; a game Redis let go is then gone)."""

    def __init__(
        self,
        store: GameStore,
        database_url: str | None = None,
        *,
        archive_wait_seconds: float = ARCHIVE_WAIT_SECONDS,
    ) -> None:
        self.store = store
        self.database_url = database_url
        self.archive_wait_seconds = archive_wait_seconds
        self._archive: Archive | None = None
        self._lock = threading.Lock()
        self.archived_ids = ArchivedIds(store.redis)
        self.checkpoints = Checkpoints(EVENTS_CHECKPOINT_BYTES)

    # ---- the archive, opened on first use ------------------------------------------------------
    @property
    def has_archive(self) -> bool:
        return self.database_url is not None

    def may_be_archived(self, stored: StoredGame) -> bool:
        """Whether the archive may hold ``stored``: only an ended game is ever archived."""
        return self.has_archive and stored.status in END_STATUSES

    @property
    def archive(self) -> Archive:
        with self._lock:
            if self._archive is None:
                if self.database_url is None:
                    raise RuntimeError("no archive is configured (DATABASE_URL)")
                self._archive = Archive(
                    self.database_url, min_size=0, timeout=self.archive_wait_seconds, fail_fast=True
                )
                atexit.register(self.close)
            return self._archive

    def close(self) -> None:
        with self._lock:
            if self._archive is not None:
                self._archive.close()
                self._archive = None

    # ---- one game ----------------------------------------------------------------------------
    def read_ahead(self, game_id: str) -> Command[LiveRead]:
        """Redis's half of ``read`` as a command another step may send in its round trip (the rate
        limit's check at the request's edge); its answer is handed to ``read``."""
        return self.store.read_command(game_id)

    def read(self, game_id: str, *, parse_state: bool = True, live: LiveRead | None = None) -> StoredGame:
        """The game at its last version: Redis's, else the archive's; GameNotFound when neither
        holds it (it never was, or it expired with no archive to keep it). ``live``: what Redis
        answered a read sent ahead (``read_ahead``), taken as Redis's answer."""
        try:
            return self.store.load(game_id, parse_state=parse_state, read=live)
        except GameMissing:
            pass
        found = self._archived(game_id, parse_state=parse_state) if self.has_archive else None
        if found is None:
            raise GameNotFound(game_id)
        return found

    def _archived(self, game_id: str, *, parse_state: bool) -> StoredGame | None:
        """The archived game as ``GameStore.load`` gives a live one. Its final state is its last
        snapshot; an ended game has no deadlines left."""
        try:
            record = self.archive.read_game(game_id)
            if record is None:
                return None
            last = self.archive.snapshot_at_or_before(game_id, record.version)
        except ArchiveUnavailable:
            if not self.archived_ids.may_hold(game_id):
                return None  # never archived: a 404 without PostgreSQL
            log.warning(
                "the archive cannot be reached for a game gone from Redis", extra={"game_id": game_id}
            )
            raise ArchiveUnreachable(game_id) from None
        if last is None:
            return None
        return StoredGame(
            id=game_id,
            version=record.version,
            status=record.status,
            meta=orjson.loads(record.meta),
            state=orjson.loads(last.state) if parse_state else {},
            updated=record.ended_at.timestamp(),
            raw_state=b"" if parse_state else last.state,
            rematch=record.rematch,
            archived=True,
        )

    def log(self, stored: StoredGame, after: int = 0, through: int | None = None) -> list[LogEntry]:
        """The log entries that made versions ``after`` + 1 to ``through`` (default: the game's
        version as read), in order, each with its events: Redis's while it holds them all, else
        the archive's; GameNotFound when neither does (an ended game Redis let go with no archive
        to keep it)."""
        kept = self.log_as_kept(stored, after, through)
        return self.made_whole(stored.id, stored.meta, after, kept, archived=stored.archived)

    def log_as_kept(self, stored: StoredGame, after: int = 0, through: int | None = None) -> list[LogEntry]:
        """``log``'s entries as they are kept: a move's in Redis without its events (its seat and
        move are there: what a replay reads)."""
        last = stored.version if through is None else min(through, stored.version)
        if last <= after:
            return []
        wanted = last - after
        if not stored.archived:
            entries = self.store.log(stored.id, after, last - 1)  # entry i made version i + 1
            if len(entries) == wanted:
                return entries
        # Redis lets an ended game's log go only once the archive holds it.
        if self.may_be_archived(stored):
            try:
                kept = self.archive.read_log(stored.id, after + 1, last)
            except ArchiveUnavailable:
                raise ArchiveUnreachable(stored.id) from None
            if len(kept) == wanted:
                return [decoded(entry.entry, entry.version) for entry in kept]
        raise GameNotFound(stored.id)

    # ---- the events of the log, made by replay ---------------------------------------------
    def whole(self, game_id: str, after: int, entries: list[LogEntry]) -> list[LogEntry]:
        """``made_whole`` for a reader that has the entries but not the game (a stream's feed)."""
        if all(is_whole(entry) for entry in entries):
            return entries
        try:
            meta = self.store.load(game_id, parse_state=False).meta
        except GameMissing:
            raise GameNotFound(game_id) from None
        return self.made_whole(game_id, meta, after, entries)

    def made_whole(
        self, game_id: str, meta: GameMeta, after: int, entries: list[LogEntry], *, archived: bool = False
    ) -> list[LogEntry]:
        """``entries`` (those after version ``after``, in order) each with its events: a move's kept
        without them has them made by the replay of its move, from the state at ``after``.
        ``archived``: the game is read from the archive (Redis let it go)."""
        if all(is_whole(entry) for entry in entries):
            return entries
        state = self.state_at(game_id, meta, after, archived=archived)
        made: dict[int, list[Any]] = {}

        def keep_events(entry: LogEntry, events: list[Any], _: State) -> None:
            if not is_whole(entry):
                # Written now: the events may hold the state's own lists, which later moves change.
                made[entry["version"]] = orjson.loads(orjson.dumps(events))

        replay(state, entries, after=after, on_move=keep_events, on_version=self._checkpoint(game_id))
        last = entries[-1]["version"] if entries else after
        self.checkpoints.put(game_id, last, orjson.dumps(state.to_dict(copy=False)))
        return [entry if is_whole(entry) else made_whole(entry, made[entry["version"]]) for entry in entries]

    def state_at(self, game_id: str, meta: GameMeta, version: int, *, archived: bool = False) -> State:
        """The engine's state of a game at ``version`` (``archived``: the archive's, else Redis's):
        from the nearest state kept at or before it (a checkpoint of this process, the archive's
        snapshot, else the setup), by the replay of the moves since."""
        game = engine_of(meta)
        every = EVENTS_CHECKPOINT_EVERY
        for mark in (version, *range(version - version % every, 0, -every)):
            kept = self.checkpoints.get(game_id, mark)
            if kept is not None:
                start, state = mark, game.restore(orjson.loads(kept))
                break
        else:
            start, state = 0, initial_state(meta)
        if archived:
            return self._archived_state(game_id, meta, version, start, state)
        if start < version:
            between = self.store.log(game_id, start, version - 1)
            if len(between) != version - start:
                if not self.has_archive:
                    raise GameNotFound(game_id)  # Redis let the game go meanwhile
                # Redis let the log go (the game is archived): the archive's moves
                return self._archived_state(game_id, meta, version, start, state)
            replay(state, between, after=start, on_version=self._checkpoint(game_id))
        return state

    def _archived_state(self, game_id: str, meta: GameMeta, version: int, start: int, state: State) -> State:
        """``state_at`` for an archived game, from ``state`` at ``start`` or the archive's snapshot
        when it is nearer, by the replay of the archive's moves since."""
        if start == version:
            return state
        try:
            snapshot = self.archive.snapshot_at_or_before(game_id, version)
            if snapshot is not None and snapshot.version > start:
                start, state = snapshot.version, engine_of(meta).restore(orjson.loads(snapshot.state))
            kept = self.archive.read_log(game_id, start + 1, version) if start < version else []
        except ArchiveUnavailable:
            raise ArchiveUnreachable(game_id) from None
        if len(kept) != version - start:
            raise GameNotFound(game_id)
        between = [decoded(entry.entry, entry.version) for entry in kept]
        replay(state, between, after=start, on_version=self._checkpoint(game_id))
        return state

    def _checkpoint(self, game_id: str) -> OnVersion:
        """What a replay calls after each version: the state kept every ``EVENTS_CHECKPOINT_EVERY``."""

        def keep(version: int, state: State) -> None:
            if version % EVENTS_CHECKPOINT_EVERY == 0:
                self.checkpoints.put(game_id, version, orjson.dumps(state.to_dict(copy=False)))

        return keep

    def snapshot(self, stored: StoredGame, version: int) -> tuple[int, bytes] | None:
        """The version and state (JSON) of the archive's latest snapshot at or before ``version``,
        for an ended game the archive holds; None otherwise, or when the archive cannot be reached
        (a snapshot is a shortcut: the replay then starts further back)."""
        if not self.may_be_archived(stored):
            return None
        try:
            found = self.archive.snapshot_at_or_before(stored.id, version)
        except ArchiveUnavailable:
            return None
        return None if found is None else (found.version, found.state)

    def claim_rematch(self, game_id: str, rematch_id: str) -> str | None:
        """An archived game's one rematch: ``rematch_id`` unless another was claimed first; None when
        there is no archive or the game is not in it."""
        if not self.has_archive:
            return None
        try:
            return self.archive.claim_rematch(game_id, rematch_id)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(game_id) from None

    # ---- a player's games ----------------------------------------------------------------------
    def finished_games_of(
        self, player_id: str, after: tuple[float, str] | None, limit: int
    ) -> list[PlayerGame]:
        """A player's finished games that the archive holds, the latest ended first, after ``after``
        (an (end time, game id) already listed). Empty without an archive, or when it cannot be
        reached (the player's finished games are then those Redis still holds)."""
        if not self.has_archive:
            return []
        try:
            return self.archive.player_games(
                player_id, None if after is None else (utc_datetime(after[0]), after[1]), limit
            )
        except ArchiveUnavailable:
            log.warning("the archive cannot be reached; a player's finished games are those of Redis")
            return []

    def forget_player(self, player_id: str) -> bool:
        """A deleted player's id dropped from the archive's seats (the games stay); False when the
        archive cannot be reached (the player stays among those to forget: worker.archiver)."""
        if not self.has_archive:
            return True
        try:
            self.archive.forget_player(player_id)
        except ArchiveUnavailable:
            log.warning("the archive cannot be reached; a deleted player's id leaves it later")
            return False
        return True
