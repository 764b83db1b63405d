"""The one replay: a game's setup and its log's moves, through its own rules, to a state.

Every state the service does not keep is this replay's: a version read (``versions.py``, from a
checkpoint or an archived snapshot), the snapshots an archived game keeps (``archiving.py``) and
an imported game checked against the result it claims (``replays.py``). Checkpoints and snapshots
are a cache of it, never a second source of truth.

Seat changes (joins, leaves, resignations, an abort) are log entries without a move: they change
the seats and the status, never the engine's state, so the replay passes over them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines import registry
from engines.core import Game, State

from ..store.records import LogEntry

# What the replay calls after each entry it passed: its version and the state it left.
OnVersion = Callable[[int, State], None]
# What it calls after each move: the entry, the events the rules made of it, the state it left.
OnMove = Callable[[LogEntry, list[Any], State], None]


def engine_of(meta: Mapping[str, Any]) -> Game[State]:
    """The rules a game is played by: those of its own rules version (a game of a version this
    deployment does not play is the registry's refusal, not a replay under other rules)."""
    return registry.get(meta["title"], meta["rules_version"])


def initial_state(meta: Mapping[str, Any]) -> State:
    """The state at version 0: the game's setup from its seats, options and seed."""
    return engine_of(meta).setup(len(meta["seats"]), meta["options"], meta["seed"])


def replay(
    state: State,
    entries: Iterable[LogEntry],
    *,
    after: int = 0,
    checked: bool = False,
    on_version: OnVersion | None = None,
    on_move: OnMove | None = None,
) -> State:
    """``state`` (the game at version ``after``) moved on by the moves of ``entries`` past
    ``after``, in place, and returned. ``checked``: each move is judged by the rules as a client's
    would be (an import's untrusted log; the engine's RulesError when one is illegal); otherwise
    the log is the service's own, every move of it listed when it was played."""
    apply = state.apply if checked else state.apply_listed
    for entry in entries:
        version = entry["version"]
        if version <= after:
            continue
        if "move" in entry:
            mover = entry["seat"]
            if mover is None:
                raise ValueError(f"the move of version {version} names no seat")
            events = apply(mover, entry["move"])
            if on_move is not None:
                on_move(entry, events, state)
        if on_version is not None:
            on_version(version, state)
    return state
