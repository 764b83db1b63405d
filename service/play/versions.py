"""Any version of a game, as it stood then (``GET /games/{id}/versions/{n}``).

The state at version ``n`` is not stored: it is the replay, through the engine, of the log's
moves from a state known before it. Seat changes (joins, leaves, resignations, an abort) are log
entries without a move: they change the seats and the status, never the engine's state. A replay
from the setup costs every move before ``n``, so each process keeps checkpoints, the state every
``every`` versions, in an LRU bounded in bytes: a read replays at most ``every - 1`` moves from
the nearest one. An ended game is also in the archive (``service.archive``), which keeps its
state every ``SNAPSHOT_EVERY`` versions: a read with no checkpoint near starts from the
archive's snapshot at or before ``n`` (one index probe). The log is Redis's while Redis holds it,
then the archive's (an archived game's keys expire after the grace).

The reply is the one ``GET /games/{id}`` gave at that version, redacted by the same rules: the
view of the caller's seat, or the spectator's while the game waited or for a caller without a
token; the entry that made the version, as ``/events`` showed it then. Once the game is over its
record is public, and anyone may ask for one seat's eyes (``seat``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from engines.core import State, say

from ..archive.records import SNAPSHOT_EVERY
from ..store.logform import is_whole, made_whole
from ..store.records import GameMeta, GameResult, LogEntry, SeatRecord, StoredGame
from . import auth
from .checkpoints import Checkpoints
from .deadlines import next_deadlines
from .deadlines import shown as shown_deadlines
from .errors import NoSuchSeat, SeatViewWhileRunning, VersionNotFound
from .games import Games, public_seat, stand_in_of, viewing_seat
from .games import to_act as seats_to_act
from .replay import engine_of, initial_state, replay
from .results import game_result, resignation_result

CHECKPOINT_EVERY = 32
CHECKPOINT_BYTES = 64 * 1024 * 1024
# Games whose seat changes this process has indexed (a few entries each).
SEAT_HISTORIES = 1024
_LOG_BATCH = 256
# The events that change a seat (service.play.seats); a seat_joined "again" is a rematch's token
# issued anew, which changes nothing.
_SEAT_EVENTS = frozenset({"seat_joined", "seat_left", "seat_resigned"})


@dataclass
class SeatHistory:
    """A game's log entries without a move (seat changes), read up to ``read_to`` (a version)."""

    read_to: int
    changes: list[LogEntry]


@dataclass
class Seating:
    """The seats (as meta keeps them, without tokens) and the service's own result, at a version."""

    seats: list[SeatRecord]
    ended: GameResult | None = None

    def meta_of(self, meta: GameMeta) -> GameMeta:
        """``meta`` as it was then, as far as a result reads it: the seats and the service's result."""
        then = meta.copy()
        then["seats"] = self.seats
        then.pop("ended", None)
        if self.ended is not None:
            then["ended"] = self.ended
        return then


def _created_seat(seat: SeatRecord, joined: set[int]) -> SeatRecord:
    """A seat as it was at the creation: every seat that was joined was open then (under the name
    its creator gave it), and a resigned seat of two was its player's; no secret kept."""
    if seat["seat"] in joined or seat["kind"] == "open":
        opened: SeatRecord = {"seat": seat["seat"], "kind": "open"}
        invited = seat.get("invited") if seat["kind"] != "open" else seat.get("name")
        if invited:
            opened["name"] = invited
        return opened
    if seat.get("resigned") and seat.get("token_hash"):
        human: SeatRecord = {"seat": seat["seat"], "kind": "human"}
        if "name" in seat:
            human["name"] = seat["name"]
        return human
    kept = seat.copy()
    kept.pop("token_hash", None)
    kept.pop("invited", None)
    kept.pop("reserved_for", None)
    return kept


class Versions:
    """Reads of a game at any of its versions, over ``Games`` and its repository (Redis's log, or
    the archive's once Redis has let the game go)."""

    def __init__(
        self, games: Games, *, every: int = CHECKPOINT_EVERY, max_bytes: int = CHECKPOINT_BYTES
    ) -> None:
        self.games = games
        self.every = max(1, every)
        self.checkpoints = Checkpoints(max_bytes)
        self.repository = games.repository
        self._histories: OrderedDict[str, SeatHistory] = OrderedDict()
        self._lock = threading.Lock()

    # ---- the log ---------------------------------------------------------------------------
    def _entries(self, stored: StoredGame, first: int, last: int) -> list[LogEntry]:
        """The log entries of versions ``first``..``last`` (both included), wherever the game lives."""
        return self.repository.log(stored, first - 1, last)

    def _kept(self, stored: StoredGame, first: int, last: int) -> list[LogEntry]:
        """``_entries`` as they are kept: a move's perhaps without its events (its move is there)."""
        return self.repository.log_as_kept(stored, first - 1, last)

    # ---- the state at a version ----------------------------------------------------------
    def nearest_state(self, stored: StoredGame, version: int) -> tuple[int, State]:
        """The nearest state known at or before ``version``: a checkpoint of this process, the
        archive's snapshot (an ended game's, when no checkpoint is as near), or the setup."""
        game = engine_of(stored.meta)
        archived = self.repository.may_be_archived(stored)
        # The archive keeps an ended game's state every SNAPSHOT_EVERY versions: one probe of its
        # key, asked for before the checkpoints below its snapshot (farther), after those at or
        # above it.
        floor = version - version % SNAPSHOT_EVERY if archived else 0
        marks = range(version - version % self.every, 0, -self.every)
        near = self._checkpoint(stored.id, [mark for mark in marks if mark >= floor])
        if near is not None:
            return near[0], game.restore(orjson.loads(near[1]))
        snapshot = self.repository.snapshot(stored, version) if floor > 0 else None
        if snapshot is None:  # not archived (yet), or not reached: the checkpoints below
            snapshot = self._checkpoint(stored.id, [mark for mark in marks if mark < floor])
        if snapshot is not None:
            return snapshot[0], game.restore(orjson.loads(snapshot[1]))
        return 0, initial_state(stored.meta)

    def _checkpoint(self, game_id: str, marks: list[int]) -> tuple[int, bytes] | None:
        """The first of ``marks`` this process keeps a checkpoint at, with its state (JSON)."""
        for mark in marks:
            kept = self.checkpoints.get(game_id, mark)
            if kept is not None:
                return mark, kept
        return None

    def _replay(self, stored: StoredGame, version: int) -> tuple[State, LogEntry | None]:
        """The state at ``version`` and the log entry that made it (None for version 0)."""
        # From before the version's own move: its replay makes the events the entry shows.
        start, state = self.nearest_state(stored, max(version - 1, 0))
        entries = self._kept(stored, start + 1, version)
        made: list[LogEntry] = []

        def keep(reached: int, reached_state: State) -> None:
            if reached % self.every == 0:
                self.checkpoints.put(stored.id, reached, orjson.dumps(reached_state.to_dict(copy=False)))

        def make_last(entry: LogEntry, events: list[Any], _: State) -> None:
            # The events of the version's own move, written at once (they may hold the state's lists).
            if entry["version"] == version and not is_whole(entry):
                made.append(made_whole(entry, orjson.loads(orjson.dumps(events))))

        replay(state, entries, after=start, on_version=keep, on_move=make_last)
        if not entries:
            return state, None
        last = entries[-1]
        if not is_whole(last):
            last = made[0]
        return state, last

    # ---- the seats at a version --------------------------------------------------------------
    def _seat_changes(self, stored: StoredGame) -> list[LogEntry]:
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
                last = min(stored.version, start + _LOG_BATCH)
                batch = self._kept(stored, start + 1, last)
                changes.extend(entry for entry in batch if "move" not in entry)
                start = last
            history = SeatHistory(start, changes)
            with self._lock:
                self._histories[stored.id] = history
                self._histories.move_to_end(stored.id)
                while len(self._histories) > SEAT_HISTORIES:
                    self._histories.popitem(last=False)
        return [change for change in history.changes if change["version"] <= stored.version]

    @staticmethod
    def _seating_at(meta: GameMeta, changes: list[LogEntry], version: int) -> Seating:
        """The seats at ``version``: those at the creation, then the seat changes up to ``version``."""
        joined = {
            event["seat"]
            for change in changes
            for event in change["events"]
            if event["type"] == "seat_joined" and not event.get("again")
        }
        created = [_created_seat(seat, joined) for seat in meta["seats"]]
        seating = Seating([seat.copy() for seat in created])
        resignations = 0
        for change in changes:
            if change["version"] > version:
                break
            for event in change["events"]:
                if event["type"] not in _SEAT_EVENTS:
                    continue
                seat: int = event["seat"]
                if event["type"] == "seat_joined" and not event.get("again"):
                    taken: SeatRecord = {"seat": seat, "kind": "human"}
                    if "name" in event:
                        taken["name"] = event["name"]
                    seating.seats[seat] = taken
                elif event["type"] == "seat_left":
                    seating.seats[seat] = created[seat].copy()
                elif event["type"] == "seat_resigned":
                    resignations += 1
                    old = seating.seats[seat]
                    if "stand_in" in event:
                        stand_in: SeatRecord = {"seat": seat, "kind": "bot"}
                        if "name" in old:
                            stand_in["name"] = old["name"]
                        stand_in["bot"] = stand_in_of(meta)["bot"]
                        stand_in["level"] = event["stand_in"]
                        stand_in["resigned"] = resignations
                        seating.seats[seat] = stand_in
                    else:  # two seats: the game ended at once, the other seat won
                        resigned = old.copy()
                        resigned["resigned"] = resignations
                        seating.seats[seat] = resigned
                        seating.ended = resignation_result(seating.meta_of(meta), 1 - seat)
        return seating

    # ---- the reply ---------------------------------------------------------------------------
    def show(
        self, game_id: str, version: int, token: str | None, seat: int | None = None
    ) -> tuple[dict[str, object], bool]:
        """The game at ``version`` as ``GET /games/{id}`` showed it to the caller then, with the
        entry that made it; and whether the reply is public (anyone asking gets these bytes)."""
        stored = self.games.read(game_id, parse_state=False)
        meta = stored.meta
        if version > stored.version:
            raise VersionNotFound(game_id, version, stored.version)
        public_seat_view = seat is not None
        if seat is not None and stored.status != "finished" and isinstance(token, auth.PlayerCredential):
            # A player key names one of its seats with ``?seat=``: while the game runs, that is
            # the seat's own (private) view, as on every other route; a seat not its own is
            # refused as any ``?seat=`` of a running game is.
            if seat in auth.seats_of_player(meta["seats"], token.player_id):
                public_seat_view = False
        if public_seat_view:
            assert seat is not None
            if stored.status != "finished":  # an aborted game's record is not public either
                raise SeatViewWhileRunning(say("service.refusal.seat_view_while_running.seat_s_view_public"))
            if not 0 <= seat < len(meta["seats"]):
                raise NoSuchSeat(
                    say("service.refusal.no_such_seat", last=str(len(meta["seats"]) - 1), seat=str(seat))
                )
            reader: int | None = seat
        else:
            reader = auth.seat_of(meta["seats"], token)
        entry: LogEntry | None
        if version == stored.version:
            state = engine_of(meta).restore(orjson.loads(stored.raw_state))
            entry = self._entries(stored, version, version)[0] if version > 0 else None
        else:
            state, entry = self._replay(stored, version)
        changes = self._seat_changes(stored)
        seating = self._seating_at(meta, changes, version)
        status = self._status_at(seating, entry, state)
        then = seating.meta_of(meta)
        shown: dict[str, object] = {
            "id": game_id,
            "title": meta["title"],
            "rules_version": meta["rules_version"],
            "version": version,
            "status": status,
            "to_act": seats_to_act(status, state),
            "you": reader,
            "options": meta["options"],
            "seats": [public_seat(seat) for seat in seating.seats],
            "view": state.view(viewing_seat(status, reader)),
            "result": game_result(then, state),
        }
        if "clock" in meta:
            shown["clock"] = meta["clock"]
            shown["deadlines"] = self._deadlines_at(stored, then, status, state, entry, version)
        shown["entry"] = None if entry is None else self.games.redact_entry(entry, reader, status)
        return shown, reader is None or public_seat_view

    @staticmethod
    def _status_at(seating: Seating, entry: LogEntry | None, state: State) -> str:
        if entry is None:  # the creation: waiting while a seat was open
            return "waiting" if any(seat["kind"] == "open" for seat in seating.seats) else _over(state)
        if "status" in entry:
            return entry["status"]
        return _over(state)

    def _deadlines_at(
        self,
        stored: StoredGame,
        then: GameMeta,
        status: str,
        state: State,
        entry: LogEntry | None,
        version: int,
    ) -> dict[str, str]:
        """The deadlines the version left: its entry's, else (a rematch's token issued again, which
        hands no turn on) the last ones written before it, else those of the creation."""
        if status != "active":
            return entry.get("deadlines", {}) if entry is not None else {}
        while entry is not None:
            if "deadlines" in entry:
                return entry["deadlines"]
            if "move" in entry or not all(
                event["type"] == "seat_joined" and event.get("again") for event in entry["events"]
            ):
                # A commit that handed turns on (a start, a resignation) wrote its deadlines, and
                # left none in its entry only when there were none: no human seat to act.
                return {}
            version -= 1
            entry = self._kept(stored, version, version)[0] if version > 0 else None
        created = next_deadlines(then, status, state.to_act(), None, None, stored.meta["created"])
        return shown_deadlines(created or {})


def _over(state: State) -> str:
    return "finished" if state.is_over() else "active"
