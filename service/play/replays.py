"""An archived game replayed by its engine: the record an export shows, and the states an import
keeps (snapshots and the final state), checked against the result the game is said to have reached.

An import is held to what the API would have made (``check_as_made``): an id of the ids' alphabet
and length, seats as a creation and the seat changes write them (names within the API's limits),
options as the engine normalizes them, and a log each of whose entries is the one the service
would have written: a move's events are the engine's, entry by entry (``replayed``). A game the
API could not have made is one its readers were never written for (an entry ``{}`` was a 500 on
``/events`` and ``/versions/{n}``), so it is refused before anything of it is written.

The engine is the one of the game's own rules version (``registry.get(title, rules_version)``); a
game of a rules version this deployment does not play is refused rather than replayed under other
rules.
"""

from __future__ import annotations

from typing import Any, cast

import orjson

from engines.bots import LEVELS, STRATEGIES
from engines.core import InvalidState, RulesError, State, UnknownGame

from ..archive.records import ArchivedGame, Snapshot, snapshot_versions
from ..store.games import GAME_ID_PATTERN, is_game_id
from ..store.records import LogEntry
from .games import MAX_SEATS, MAX_SEED, game_record, is_player_id, is_seat_name
from .replay import engine_of, initial_state, replay
from .replies import GameRecord
from .results import game_result


class ReplayMismatch(ValueError):
    """The game's log does not replay to what the game says it reached, or the game is not one the
    API could have made (the sentence says how)."""


SEAT_KINDS = ("human", "bot", "open")
STATUSES = ("waiting", "active", "finished", "aborted", "expired")
# The keys a seat of the meta may hold (store.records.SeatRecord), each with its check.
_SEAT_KEYS = {
    "seat": lambda v: type(v) is int,
    "kind": lambda v: v in SEAT_KINDS,
    "name": is_seat_name,
    "invited": is_seat_name,
    "token_hash": lambda v: isinstance(v, str) and 0 < len(v) <= 128,
    "reserved_for": lambda v: isinstance(v, str) and 0 < len(v) <= 128,
    "bot": lambda v: v in STRATEGIES,
    "level": lambda v: v in LEVELS,
    "resigned": lambda v: type(v) is int and v >= 1,
    "player": is_player_id,
}


def _shown(value: Any) -> str:
    """A value in a sentence, cut short: an import's values may be megabytes."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_as_made(game: ArchivedGame) -> None:
    """ReplayMismatch unless ``game`` is one the API could have made (its shape: ``replayed``
    judges its log). ``records.check`` first: the meta is an object with a list of seats."""
    if not is_game_id(game.id):
        raise ReplayMismatch(f"The id {_shown(game.id)} is not one the service makes ({GAME_ID_PATTERN}).")
    if game.rematch is not None and not is_game_id(game.rematch):
        raise ReplayMismatch(f"The rematch {_shown(game.rematch)} is not a game id ({GAME_ID_PATTERN}).")
    meta = orjson.loads(game.meta)
    seats = meta["seats"]
    if not 1 <= len(seats) <= MAX_SEATS:
        raise ReplayMismatch(f"A game has 1 to {MAX_SEATS} seats, not {len(seats)}.")
    for index, seat in enumerate(seats):
        for key in ("seat", "kind"):
            if key not in seat:
                raise ReplayMismatch(f"Seat {index} of the meta has no {key!r}.")
        if seat["seat"] != index:
            raise ReplayMismatch(f"Seat {index} of the meta says it is seat {_shown(seat['seat'])}.")
        for key, value in seat.items():
            judge = _SEAT_KEYS.get(key)
            if judge is None:
                raise ReplayMismatch(f"Seat {index} of the meta holds {_shown(key)}, which no seat holds.")
            if not judge(value):
                raise ReplayMismatch(f"Seat {index}'s {key} {_shown(value)} is not one the API makes.")
    for archived in game.seats:
        if archived.kind not in SEAT_KINDS:
            raise ReplayMismatch(f"Seat {archived.seat}'s kind {_shown(archived.kind)} is not a seat's kind.")
        if archived.player_id is not None and not is_player_id(archived.player_id):
            raise ReplayMismatch(
                f"Seat {archived.seat}'s player {_shown(archived.player_id)} is not a player id."
            )
    seed = meta.get("seed")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ReplayMismatch(f"The seed {_shown(seed)} is not a whole number from 0 to {MAX_SEED}.")
    options = meta.get("options")
    if not isinstance(options, dict):
        raise ReplayMismatch(f"The options {_shown(options)} are not an object.")
    try:
        normalized = engine_of(meta).normalize_options(len(seats), options)
    except (UnknownGame, InvalidState, KeyError, TypeError) as error:
        raise ReplayMismatch(
            f"The game was played under rules version {_shown(meta.get('rules_version'))} of "
            f"{_shown(meta.get('title'))}, which this deployment does not play: {error}"
        ) from None
    except RulesError as error:
        raise ReplayMismatch(f"The options are not valid: {error}") from None
    if normalized != options:
        raise ReplayMismatch("The options are not as the API keeps them (the engine's normalized options).")


def _checked_entry(logged_version: int, raw: bytes, seats: int) -> dict[str, Any]:
    """A log entry as the service writes one (store.records.LogEntry), else ReplayMismatch."""
    entry = orjson.loads(raw)
    where = f"Log entry {logged_version}"
    if not isinstance(entry, dict):
        raise ReplayMismatch(f"{where} is not a JSON object.")
    if entry.get("version", logged_version) != logged_version:
        raise ReplayMismatch(f"{where} says it made version {_shown(entry.get('version'))}.")
    seat = entry.get("seat")
    if not (seat is None or (type(seat) is int and 0 <= seat < seats)):
        raise ReplayMismatch(f"{where}'s seat {_shown(seat)} is not a seat of the game.")
    events = entry.get("events")
    if not isinstance(events, list) or not all(
        isinstance(event, dict) and isinstance(event.get("type"), str) for event in events
    ):
        raise ReplayMismatch(f"{where}'s events are not a list of events (objects with a type).")
    if not isinstance(entry.get("at"), (int, float)) or isinstance(entry.get("at"), bool):
        raise ReplayMismatch(f"{where} has no time (at).")
    if "status" in entry and entry["status"] not in STATUSES:
        raise ReplayMismatch(f"{where}'s status {_shown(entry['status'])} is not a game's status.")
    to_act = entry.get("to_act", [])
    if not isinstance(to_act, list) or not all(type(s) is int and 0 <= s < seats for s in to_act):
        raise ReplayMismatch(f"{where}'s to_act is not a list of the game's seats.")
    if "move" in entry and seat is None:
        raise ReplayMismatch(f"{where} is a move of no seat.")
    return entry


def _same_as_played(entry: LogEntry, events: list[Any], state: State) -> None:
    """A move's entry against what the engine made of it: its events (after the service's own,
    first: a timeout's), who acts next and the status."""
    where = f"Log entry {entry['version']}"
    made = orjson.loads(orjson.dumps(events))
    logged = entry["events"]
    if len(logged) < len(made) or logged[len(logged) - len(made) :] != made:
        raise ReplayMismatch(f"{where}'s events are not those its move makes.")
    if "to_act" in entry and list(entry["to_act"]) != list(state.to_act()):
        raise ReplayMismatch(f"{where}'s to_act is not who acts after its move.")
    if "status" in entry and entry["status"] != ("finished" if state.is_over() else "active"):
        raise ReplayMismatch(f"{where}'s status is not the game's after its move.")


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

    seats = len(meta["seats"])
    for logged in game.log:
        entry = _checked_entry(logged.version, logged.entry, seats)
        try:
            # The import's log is untrusted: every move judged by the rules, as a client's is,
            # and what the rules made of it compared with what the entry says they made.
            made = cast(LogEntry, {**entry, "version": logged.version})
            replay(state, [made], checked=True, on_version=keep, on_move=_same_as_played)
        except (RulesError, KeyError, TypeError, ValueError) as error:
            if isinstance(error, ReplayMismatch):
                raise
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
