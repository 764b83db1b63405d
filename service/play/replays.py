"""An archived game replayed by its engine: the record an export shows, and the states an import
keeps (snapshots and the final state), checked against the result the game is said to have reached.

The engine is the one of the game's own rules version (``registry.get(title, rules_version)``); a
game of a rules version this deployment does not play is refused rather than replayed under other
rules.
"""

from __future__ import annotations

from typing import cast

import orjson

from engines.core import InvalidState, RulesError, State, UnknownGame

from ..archive.records import ArchivedGame, Snapshot, snapshot_versions
from ..store.records import LogEntry
from .games import game_record
from .replay import engine_of, initial_state, replay
from .replies import GameRecord
from .results import game_result


class ReplayMismatch(ValueError):
    """The game's log does not replay to what the game says it reached (the sentence says how)."""


def record_of(game: ArchivedGame) -> GameRecord:
    """GET /games/{id}/record's shape for an archived game; ``result`` is None unless finished."""
    entries = [orjson.loads(entry.entry) for entry in game.log]
    result = None if game.result is None else orjson.loads(game.result)
    return game_record(game.id, orjson.loads(game.meta), entries, result)


def replayed(game: ArchivedGame) -> ArchivedGame:
    """``game`` with the final state and snapshots its engine reaches by replaying its log;
    ReplayMismatch unless every move is legal and the replay ends where the game says it ended."""
    meta = orjson.loads(game.meta)
    try:
        engine_of(meta)
    except (UnknownGame, InvalidState, KeyError, TypeError) as error:
        raise ReplayMismatch(
            f"The game was played under rules version {meta.get('rules_version')!r} of "
            f"{meta.get('title')!r}, which this deployment does not play: {error}"
        ) from None
    try:
        state = initial_state(meta)
    except (RulesError, KeyError, TypeError, ValueError) as error:
        raise ReplayMismatch(f"The game cannot be set up from its meta: {error}") from None
    kept = set(snapshot_versions(game.version))
    states = {0: orjson.dumps(state.to_dict())}

    def keep(version: int, reached: State) -> None:
        if version in kept:
            states[version] = orjson.dumps(reached.to_dict())

    for logged in game.log:
        entry = orjson.loads(logged.entry)
        if not isinstance(entry, dict):
            raise ReplayMismatch(f"Log entry {logged.version} is not a JSON object.")
        try:
            # The import's log is untrusted: every move judged by the rules, as a client's is.
            # Its shape unchecked (a LogEntry by cast): a missing key is a KeyError, refused below.
            made = cast(LogEntry, {**entry, "version": logged.version})
            replay(state, [made], checked=True, on_version=keep)
        except (RulesError, KeyError, TypeError, ValueError) as error:
            raise ReplayMismatch(f"Log entry {logged.version} is not a legal move: {error}") from None
    reached = game_result(meta, state)
    if game.status == "finished":
        if reached is None:
            raise ReplayMismatch(
                "The game is said to be finished, but its log replays to a game still running."
            )
        if game.result is None or orjson.loads(orjson.dumps(reached)) != orjson.loads(game.result):
            raise ReplayMismatch(
                f"The log replays to the result {orjson.dumps(reached).decode()}, not the one given."
            )
    elif game.result is not None:
        raise ReplayMismatch(f"An {game.status} game has no result (null), but one is given.")
    return ArchivedGame(
        id=game.id,
        status=game.status,
        meta=game.meta,
        version=game.version,
        final_state=states[game.version],
        created_at=game.created_at,
        ended_at=game.ended_at,
        log=game.log,
        seats=game.seats,
        snapshots=tuple(Snapshot(v, states[v]) for v in sorted(kept) if v != game.version),
        result=game.result,
        started_at=game.started_at,
        rematch=game.rematch,
    )
