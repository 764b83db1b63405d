"""An ended game as the archive keeps it: built from what Redis holds, its snapshots replayed
(``replay.py``). Reading it back is the repository's (``repository.py``).

The log is written as Redis kept it (issue 62): a move's entry compact, without the rules' events
(``store.logform``), which a read of the archived game makes again by the one replay, as a read of
a live game does; a seat change's JSON as it is. The meta and the final state travel untouched:
a read from the archive answers byte for byte what a read from Redis did. The snapshots
(``snapshot_versions``: every ``SNAPSHOT_EVERY`` versions) are the engine's states along the way,
replayed from the stored seed through the rules of the game's title: moves only, since seat
changes (joins, resignations, an abort) change the seats, not the state. The replay must end on
the stored final state; if it does not (a rule changed under a live game, a bug), that is logged
loudly and the game is archived with each move's entry whole (the events the replay made, none
but the service's own where it failed) and its stored final state only: never lost.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import replace
from typing import Any

import orjson

from engines.core import State
from engines.core.errors import RulesError

from ..archive.records import ArchivedGame, ArchivedSeat, EndStatus, Snapshot, snapshot_versions
from ..archive.records import LogEntry as ArchivedEntry
from ..store.archiving import EndedGame
from ..store.logform import decoded, is_whole, made_whole
from ..store.records import LogEntry
from .replay import engine_of, initial_state, replay
from .results import game_result
from .times import utc_datetime

log = logging.getLogger("skyline.archiving")


def replayed_snapshots(
    meta: dict[str, Any], entries: list[LogEntry], made: dict[int, list[Any]] | None = None
) -> tuple[list[Snapshot], Any]:
    """The states at ``snapshot_versions`` after the setup and before the last version, and the
    replayed final state (the engine's ``to_dict()``). ``made``: filled with the rules' events of
    each move Redis kept without them (``store.logform``), by version."""
    last = len(entries)
    # Not the setup's: the engine makes it again from the meta (and the archive keeps the last).
    wanted = set(snapshot_versions(last)) - {0, last}
    snapshots = []

    def keep(version: int, state: State) -> None:
        if version in wanted:
            snapshots.append(Snapshot(version, orjson.dumps(state.to_dict())))

    def keep_events(entry: LogEntry, events: list[Any], _: State) -> None:
        if made is not None and not is_whole(entry):
            made[entry["version"]] = orjson.loads(orjson.dumps(events))

    state = initial_state(meta)  # the rules the game was played under
    keep(0, state)
    return snapshots, replay(state, entries, on_version=keep, on_move=keep_events).to_dict()


def whole_entries(meta: dict[str, Any], raws: list[bytes]) -> list[LogEntry]:
    """A game's log as Redis kept it (``raws``), each entry whole: a move's with the events the
    replay of its move makes (``store.logform``)."""
    kept = [decoded(raw, version) for version, raw in enumerate(raws, start=1)]
    made: dict[int, list[Any]] = {}

    def keep_events(entry: LogEntry, events: list[Any], _: State) -> None:
        if not is_whole(entry):
            made[entry["version"]] = orjson.loads(orjson.dumps(events))

    replay(initial_state(meta), kept, on_move=keep_events)
    return [entry if is_whole(entry) else made_whole(entry, made[entry["version"]]) for entry in kept]


def _whole_log(raws: list[bytes], entries: list[LogEntry], made: dict[int, list[Any]]) -> list[bytes]:
    """Each entry as the archive keeps it, whole: as Redis kept it when it was (a seat change, an
    entry written before the compact form), else with the events its replay made (none but the
    service's own if the replay failed: the moves are kept all the same)."""
    return [
        raw if is_whole(entry) else orjson.dumps(made_whole(entry, made.get(entry["version"], [])))
        for raw, entry in zip(raws, entries, strict=True)
    ]


def _started_at(meta: dict[str, Any], entries: list[dict[str, Any]]) -> datetime.datetime | None:
    """When play began: the ``game_started`` event's entry, else the creation unless a seat is
    still open (the game never started)."""
    for entry in entries:
        if any(event.get("type") == "game_started" for event in entry.get("events", ())):
            return utc_datetime(entry["at"])
    if any(seat["kind"] == "open" for seat in meta["seats"]):
        return None
    return utc_datetime(meta["created"])


def archived_game(ended: EndedGame) -> ArchivedGame:
    """What ``Archive.write_game`` takes for ``ended`` (raises InvalidArchive if it cannot be)."""
    meta = orjson.loads(ended.meta)
    kept = [decoded(raw, version) for version, raw in enumerate(ended.log, start=1)]
    stored_state = orjson.loads(ended.state)
    status: EndStatus = ended.status  # type: ignore[assignment]  # checked by write_game
    made: dict[int, list[Any]] = {}
    try:
        snapshots, replayed = replayed_snapshots(meta, kept, made)
    except (RulesError, KeyError, ValueError, TypeError) as error:
        snapshots, replayed = [], error
    whole_log = _whole_log(ended.log, kept, made)
    entries = [orjson.loads(raw) for raw in whole_log]
    written = ended.log
    if replayed != stored_state:
        log.error(
            "an ended game's log does not replay to its stored state; archived with its final state only",
            extra={"event": "archive_replay_mismatch", "game_id": ended.id, "version": ended.version},
        )
        snapshots = []
        written = whole_log  # a replay cannot make its events again: they are kept as made now
    result = None
    ranks: list[int | None] = [None] * len(meta["seats"])
    if status == "finished":
        found = game_result(meta, engine_of(meta).restore(stored_state))
        if found is not None:
            result = orjson.dumps(found)
            ranks = list(found.get("ranks") or ranks)
    return ArchivedGame(
        id=ended.id,
        status=status,
        meta=ended.meta,
        version=ended.version,
        final_state=ended.state,
        created_at=utc_datetime(meta["created"]),
        ended_at=utc_datetime(ended.updated),
        log=tuple(
            ArchivedEntry(version, raw, utc_datetime(entry["at"]))
            for version, (raw, entry) in enumerate(zip(written, entries, strict=True), start=1)
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


def with_whole_log(game: ArchivedGame) -> ArchivedGame:
    """``game`` as the archive gives it back, each move's entry whole (its events made by the
    replay): the export's lines and the import's comparisons hold whole entries, as ever."""
    if all(entry.entry[:1] == b"{" for entry in game.log):
        return game
    raws = [entry.entry for entry in game.log]
    entries = whole_entries(orjson.loads(game.meta), raws)
    return replace(
        game,
        log=tuple(
            ArchivedEntry(kept.version, raw if raw[:1] == b"{" else orjson.dumps(entry), kept.at)
            for kept, raw, entry in zip(game.log, raws, entries, strict=True)
        ),
    )
