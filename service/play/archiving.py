"""An ended game as the archive keeps it: built from what Redis holds, its snapshots replayed.

The JSON travels untouched (the meta, each log entry and the final state as Redis holds them):
a read from the archive answers byte for byte what a read from Redis did. The snapshots
(``snapshot_versions``: 0, every 64 versions) are the engine's states along the way, replayed
from the stored seed through the rules of the game's title: moves only, since seat changes
(joins, resignations, an abort) change the seats, not the state. The replay must end on the
stored final state; if it does not (a rule changed under a live game, a bug), that is logged
loudly and the game is archived with its stored final state only: never lost, never wrong.
"""

from __future__ import annotations

import atexit
import datetime
import logging
import threading
from typing import Any

import orjson

from engines import registry
from engines.core.errors import RulesError

from ..archive.archive import Archive, ArchiveUnavailable
from ..archive.records import (
    ArchivedGame,
    ArchivedSeat,
    EndStatus,
    LogEntry,
    PlayerGame,
    Snapshot,
    snapshot_versions,
)
from ..store.archiving import EndedGame
from ..store.games import StoredGame
from ..store.records import LogEntry as GameLogEntry
from .errors import ArchiveUnreachable
from .results import game_result

log = logging.getLogger("skyline.archiving")

UTC = datetime.UTC


def _moment(unix_time: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(unix_time, tz=UTC)


def replayed_snapshots(meta: dict[str, Any], entries: list[dict[str, Any]]) -> tuple[list[Snapshot], Any]:
    """The states at ``snapshot_versions`` before the last version, and the replayed final state
    (the engine's ``to_dict()``)."""
    game = registry.get(meta["title"], meta["rules_version"])  # the rules the game was played under
    state = game.setup(len(meta["seats"]), meta["options"], meta["seed"])
    last = len(entries)
    wanted = set(snapshot_versions(last)) - {last}
    snapshots = [Snapshot(0, orjson.dumps(state.to_dict()))] if 0 in wanted else []
    for version, entry in enumerate(entries, start=1):
        if "move" in entry:
            state.apply_listed(entry["seat"], entry["move"])
        if version in wanted:
            snapshots.append(Snapshot(version, orjson.dumps(state.to_dict())))
    return snapshots, state.to_dict()


def _started_at(meta: dict[str, Any], entries: list[dict[str, Any]]) -> datetime.datetime | None:
    """When play began: the ``game_started`` event's entry, else the creation unless a seat is
    still open (the game never started)."""
    for entry in entries:
        if any(event.get("type") == "game_started" for event in entry.get("events", ())):
            return _moment(entry["at"])
    if any(seat["kind"] == "open" for seat in meta["seats"]):
        return None
    return _moment(meta["created"])


def archived_game(ended: EndedGame) -> ArchivedGame:
    """What ``Archive.write_game`` takes for ``ended`` (raises InvalidArchive if it cannot be)."""
    meta = orjson.loads(ended.meta)
    entries = [orjson.loads(raw) for raw in ended.log]
    stored_state = orjson.loads(ended.state)
    status: EndStatus = ended.status  # type: ignore[assignment]  # checked by write_game
    try:
        snapshots, replayed = replayed_snapshots(meta, entries)
    except (RulesError, KeyError, ValueError, TypeError) as error:
        snapshots, replayed = [], error
    if replayed != stored_state:
        log.error(
            "an ended game's log does not replay to its stored state; archived with its final state only",
            extra={"event": "archive_replay_mismatch", "game_id": ended.id, "version": ended.version},
        )
        snapshots = []
    result = None
    ranks: list[int | None] = [None] * len(meta["seats"])
    if status == "finished":
        found = game_result(meta, registry.get(meta["title"], meta["rules_version"]).restore(stored_state))
        if found is not None:
            result = orjson.dumps(found)
            ranks = list(found.get("ranks") or ranks)
    return ArchivedGame(
        id=ended.id,
        status=status,
        meta=ended.meta,
        version=ended.version,
        final_state=ended.state,
        created_at=_moment(meta["created"]),
        ended_at=_moment(ended.updated),
        log=tuple(
            LogEntry(version, raw, _moment(entry["at"]))
            for version, (raw, entry) in enumerate(zip(ended.log, entries, strict=True), start=1)
        ),
        seats=tuple(
            # A seat bound to a player (service.play.players) keeps its id: the player's history.
            ArchivedSeat(seat["seat"], seat["kind"], seat.get("player"), ranks[seat["seat"]])
            for seat in meta["seats"]
        ),
        snapshots=tuple(snapshots),
        result=result,
        started_at=_started_at(meta, entries),
        rematch=ended.rematch,
    )


class ArchivedReads:
    """The reads of a game Redis has let go, from the archive, in the shapes Redis gives them:
    what ``Games`` falls back to (Redis first, then the archive; 404 only when neither has it)."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self._archive: Archive | None = None
        self._lock = threading.Lock()

    @property
    def archive(self) -> Archive:
        """Opened at the first read that needs it: most processes serve live games only, and a pool
        left open at exit complains from its threads (gunicorn's gevent workers). Closed at exit."""
        with self._lock:
            if self._archive is None:
                self._archive = Archive(self.database_url, min_size=0)
                atexit.register(self.close)
            return self._archive

    def close(self) -> None:
        with self._lock:
            if self._archive is not None:
                self._archive.close()
                self._archive = None

    def stored_game(self, game_id: str, *, parse_state: bool = True) -> StoredGame | None:
        """The archived game as ``GameStore.load`` gives a live one (None: not archived). Its final
        state is the last snapshot; an ended game has no deadlines left."""
        try:
            record = self.archive.read_game(game_id)
            if record is None:
                return None
            last = self.archive.snapshot_at_or_before(game_id, record.version)
        except ArchiveUnavailable:
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
        )

    def claim_rematch(self, game_id: str, rematch_id: str) -> str | None:
        """The archived game's one rematch: ``rematch_id`` unless another was claimed first; None:
        not archived."""
        try:
            return self.archive.claim_rematch(game_id, rematch_id)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(game_id) from None

    def player_games(
        self, player_id: str, after: tuple[float, str] | None, limit: int
    ) -> list[PlayerGame] | None:
        """A player's finished games in the archive, the latest ended first, after ``after`` (an
        (end time, game id) already listed); None when the archive cannot be reached."""
        try:
            return self.archive.player_games(
                player_id, None if after is None else (_moment(after[0]), after[1]), limit
            )
        except ArchiveUnavailable:
            log.warning("the archive cannot be reached; a player's finished games are those of Redis")
            return None

    def forget_player(self, player_id: str) -> None:
        """A deleted player's id dropped from the archive's seats (the games stay)."""
        self.archive.forget_player(player_id)

    def log(self, game_id: str, start: int = 0) -> list[GameLogEntry] | None:
        """Log entries from index ``start`` (entry i made version i + 1), or None: not archived."""
        try:
            if not self.archive.has_game(game_id):
                return None
            return [orjson.loads(entry.entry) for entry in self.archive.read_log(game_id, start + 1)]
        except ArchiveUnavailable:
            raise ArchiveUnreachable(game_id) from None
