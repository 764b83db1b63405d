"""Any version of a game, as it stood then (``GET /games/{id}/versions/{n}``).

The state at version ``n`` is not stored: it is the replay, through the engine, of the log's
moves from the game's setup (seed, seat count and options in its meta). Seat changes (joins,
leaves, resignations, an abort) are log entries without a move: they change the seats and the
status, never the engine's state. A replay from the setup costs every move before ``n``, so
each process keeps checkpoints, the state every ``every`` versions, in an LRU bounded in bytes:
a read replays at most ``every - 1`` moves from the nearest one. ``nearest_state`` is the seam
where another source of states (the archive's snapshots) can be put in front of the setup.

The reply is the one ``GET /games/{id}`` gave at that version, redacted by the same rules: the
view of the caller's seat, or the spectator's while the game waited or for a caller without a
token; the entry that made the version, as ``/events`` showed it then. Once the game is over its
record is public, and anyone may ask for one seat's eyes (``seat``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from engines import registry
from engines.core import Game, State

from ..store.games import StoredGame
from . import auth
from .deadlines import next_deadlines
from .deadlines import shown as shown_deadlines
from .errors import NoSuchSeat, SeatViewWhileRunning, VersionNotFound
from .games import Games, stand_in_of, viewing_seat
from .games import to_act as seats_to_act
from .results import game_result, resignation_result

CHECKPOINT_EVERY = 32
CHECKPOINT_BYTES = 64 * 1024 * 1024
# Games whose seat changes this process has indexed (a few entries each).
SEAT_HISTORIES = 1024
_LOG_BATCH = 256

# (game id, version) -> the nearest state known at or before it, with its version; None: none.
StateSource = Callable[[StoredGame, int], "tuple[int, State] | None"]


class Checkpoints:
    """States of games at versions, as JSON, least recently used dropped beyond ``max_bytes``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> bytes | None:
        with self._lock:
            found = self._entries.get((game_id, version))
            if found is not None:
                self._entries.move_to_end((game_id, version))
            return found

    def put(self, game_id: str, version: int, state: bytes) -> None:
        if len(state) > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop((game_id, version), None)
            self.size -= len(old) if old is not None else 0
            self._entries[(game_id, version)] = state
            self.size += len(state)
            while self.size > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class SeatHistory:
    """A game's log entries without a move (seat changes), read up to ``read_to`` (a version)."""

    read_to: int
    changes: list[dict[str, Any]]


@dataclass
class Seating:
    """The seats (as meta keeps them, without tokens) and the service's own result, at a version."""

    seats: list[dict[str, Any]]
    ended: dict[str, Any] | None = None

    def meta(self) -> dict[str, Any]:
        return {"seats": self.seats, **({"ended": self.ended} if self.ended is not None else {})}


def _engine(meta: dict[str, Any]) -> Game:
    """The rules a game is played by (one place to choose them by ``meta["rules_version"]``)."""
    return registry.get(meta["title"], meta["rules_version"])


def _public(seat: dict[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in seat.items() if k != "resigned"}
    return shown | ({"resigned": True} if seat.get("resigned") else {})


class Versions:
    """Reads of a game at any of its versions, over ``Games`` (its store and its reads)."""

    def __init__(
        self,
        games: Games,
        *,
        every: int = CHECKPOINT_EVERY,
        max_bytes: int = CHECKPOINT_BYTES,
        known_states: StateSource | None = None,
    ) -> None:
        self.games = games
        self.every = max(1, every)
        self.checkpoints = Checkpoints(max_bytes)
        # Another source of states (the archive's snapshots), asked before replaying from the setup.
        self.known_states = known_states
        self._histories: OrderedDict[str, SeatHistory] = OrderedDict()
        self._lock = threading.Lock()

    # ---- the state at a version ----------------------------------------------------------
    def nearest_state(self, stored: StoredGame, version: int) -> tuple[int, State]:
        """The nearest state known at or before ``version``: a checkpoint of this process, one
        from ``known_states`` (the archive's seam), or the game's setup at version 0."""
        game = _engine(stored.meta)
        mark = version - version % self.every
        while mark > 0:
            kept = self.checkpoints.get(stored.id, mark)
            if kept is not None:
                return mark, game.restore(orjson.loads(kept))
            mark -= self.every
        if self.known_states is not None:
            known = self.known_states(stored, version)
            if known is not None:
                return known
        meta = stored.meta
        return 0, game.setup(len(meta["seats"]), meta["options"], meta["seed"])

    def _replay(self, stored: StoredGame, version: int) -> tuple[State, dict[str, Any] | None]:
        """The state at ``version`` and the log entry that made it (None for version 0)."""
        start, state = self.nearest_state(stored, version)
        entries = self.games.store.log(stored.id, max(start, 1) - 1, version - 1) if version > 0 else []
        for entry in entries:
            if entry["version"] <= start:
                continue
            if "move" in entry:
                state.apply_listed(entry["seat"], entry["move"])
            if entry["version"] % self.every == 0 and entry["version"] != version:
                self.checkpoints.put(stored.id, entry["version"], orjson.dumps(state.to_dict(copy=False)))
        if version > 0 and version % self.every == 0:
            self.checkpoints.put(stored.id, version, orjson.dumps(state.to_dict(copy=False)))
        return state, (entries[-1] if entries else None)

    # ---- the seats at a version --------------------------------------------------------------
    def _seat_changes(self, stored: StoredGame) -> list[dict[str, Any]]:
        """The game's log entries without a move, up to its current version (read once per
        process, then only the entries the game added since)."""
        with self._lock:
            history = self._histories.get(stored.id)
        if history is None:
            history = SeatHistory(0, [])
        if history.read_to < stored.version:
            changes = list(history.changes)
            start = history.read_to
            while start < stored.version:
                batch = self.games.store.log(stored.id, start, min(stored.version, start + _LOG_BATCH) - 1)
                if not batch:
                    break
                changes.extend(entry for entry in batch if "move" not in entry)
                start = batch[-1]["version"]
            history = SeatHistory(start, changes)
            with self._lock:
                self._histories[stored.id] = history
                self._histories.move_to_end(stored.id)
                while len(self._histories) > SEAT_HISTORIES:
                    self._histories.popitem(last=False)
        return [change for change in history.changes if change["version"] <= stored.version]

    @staticmethod
    def _seating_at(meta: dict[str, Any], changes: list[dict[str, Any]], version: int) -> Seating:
        """The seats at ``version``: those at the creation (every seat that was joined was open
        then, and a resigned one was its player's), then the seat changes up to ``version``."""
        joined = {
            event["seat"]
            for change in changes
            for event in change["events"]
            if event["type"] == "seat_joined" and not event.get("again")
        }
        created: list[dict[str, Any]] = []
        for seat in meta["seats"]:
            invited = seat.get("invited") if seat["kind"] != "open" else seat.get("name")
            if seat["seat"] in joined or seat["kind"] == "open":
                created.append(
                    {"seat": seat["seat"], "kind": "open", **({"name": invited} if invited else {})}
                )
            elif seat.get("resigned") and seat.get("token_hash"):
                created.append(
                    {
                        "seat": seat["seat"],
                        "kind": "human",
                        **({"name": seat["name"]} if "name" in seat else {}),
                    }
                )
            else:
                created.append(
                    {k: v for k, v in seat.items() if k not in ("token_hash", "invited", "reserved_for")}
                )
        seating = Seating([dict(seat) for seat in created])
        resignations = 0
        for change in changes:
            if change["version"] > version:
                break
            for event in change["events"]:
                seat = event.get("seat")
                if event["type"] == "seat_joined" and not event.get("again"):
                    taken = {"seat": seat, "kind": "human"}
                    seating.seats[seat] = taken | ({"name": event["name"]} if "name" in event else {})
                elif event["type"] == "seat_left":
                    seating.seats[seat] = dict(created[seat])
                elif event["type"] == "seat_resigned":
                    resignations += 1
                    old = seating.seats[seat]
                    if "stand_in" in event:
                        seating.seats[seat] = {
                            "seat": seat,
                            "kind": "bot",
                            **({"name": old["name"]} if "name" in old else {}),
                            "bot": stand_in_of(meta)["bot"],
                            "level": event["stand_in"],
                            "resigned": resignations,
                        }
                    else:  # two seats: the game ended at once, the other seat won
                        seating.seats[seat] = {**old, "resigned": resignations}
                        seating.ended = resignation_result(seating.meta(), 1 - seat)
        return seating

    # ---- the reply ---------------------------------------------------------------------------
    def show(
        self, game_id: str, version: int, token: str | None, seat: int | None = None
    ) -> tuple[dict[str, Any], bool]:
        """The game at ``version`` as ``GET /games/{id}`` showed it to the caller then, with the
        entry that made it; and whether the reply is public (anyone asking gets these bytes)."""
        stored = self.games.read(game_id, parse_state=False)
        meta = stored.meta
        if version > stored.version:
            raise VersionNotFound(game_id, version, stored.version)
        if seat is not None:
            if stored.status != "finished":  # an aborted game's record is not public either
                raise SeatViewWhileRunning(
                    "A seat's view is public once the game is over; until then send that seat's token."
                )
            if not 0 <= seat < len(meta["seats"]):
                raise NoSuchSeat(
                    f"The game has seats 0 to {len(meta['seats']) - 1}; there is no seat {seat}."
                )
            reader: int | None = seat
        else:
            reader = auth.seat_of(meta["seats"], token)
        if version == stored.version:
            state = _engine(meta).restore(orjson.loads(stored.raw_state))
            entry = self.games.store.log(game_id, version - 1, version - 1)[0] if version > 0 else None
        else:
            state, entry = self._replay(stored, version)
        changes = self._seat_changes(stored)
        seating = self._seating_at(meta, changes, version)
        status = self._status_at(seating, entry, state)
        # The meta of then, as far as a result reads it: the seats and the service's own result.
        then = {k: v for k, v in meta.items() if k != "ended"} | seating.meta()
        shown: dict[str, Any] = {
            "id": game_id,
            "title": meta["title"],
            "rules_version": meta["rules_version"],
            "version": version,
            "status": status,
            "to_act": seats_to_act(status, state),
            "you": reader,
            "options": meta["options"],
            "seats": [_public(seat) for seat in seating.seats],
            "view": state.view(viewing_seat(status, reader)),
            "result": game_result(then, state),
        }
        if "clock" in meta:
            shown["clock"] = meta["clock"]
            shown["deadlines"] = self._deadlines_at(stored, then, status, state, entry, version)
        shown["entry"] = None if entry is None else self.games.redact_entry(entry, reader, status)
        return shown, reader is None or seat is not None

    @staticmethod
    def _status_at(seating: Seating, entry: dict[str, Any] | None, state: State) -> str:
        if entry is None:  # the creation: waiting while a seat was open
            return "waiting" if any(seat["kind"] == "open" for seat in seating.seats) else _over(state)
        if "status" in entry:
            return entry["status"]
        return _over(state)

    def _deadlines_at(
        self,
        stored: StoredGame,
        then: dict[str, Any],
        status: str,
        state: State,
        entry: dict[str, Any] | None,
        version: int,
    ) -> dict[str, str]:
        """The deadlines the version left: its entry's, else (a rematch's token issued again, which
        hands no turn on) the last ones written before it, else those of the creation."""
        if status != "active":
            return entry.get("deadlines", {}) if entry is not None else {}
        while entry is not None:
            if "deadlines" in entry:
                return entry["deadlines"]
            if not all(event["type"] == "seat_joined" and event.get("again") for event in entry["events"]):
                # A commit that handed turns on (a start, a resignation) wrote its deadlines, and
                # left none in its entry only when there were none: no human seat to act.
                return {}
            version -= 1
            entry = self.games.store.log(stored.id, version - 1, version - 1)[0] if version > 0 else None
        created = next_deadlines(then, status, state.to_act(), None, None, stored.meta["created"])
        return shown_deadlines(created or {})


def _over(state: State) -> str:
    return "finished" if state.is_over() else "active"
