"""The outcome of a finished game: scores, their breakdown, and the ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from .values import JSONValue


def ranks_from_keys(keys: Sequence[Sequence[Any]]) -> list[int]:
    """Return competition ranks (1 = best; equal keys share a rank) for keys where higher wins.

    A key is the score followed by the rulebook's tie-breaks, e.g. ``(money, cards_left)``.
    """
    order = sorted(range(len(keys)), key=lambda s: tuple(keys[s]), reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and tuple(keys[seat]) == tuple(keys[order[position - 1]]):
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return ranks


class ResultDict(TypedDict):
    """A result as saved and sent: the fields every game gives. A game's own facts of the end
    (its result.schema.json: the automata's ranks, the tiles revealed) ride along beside them
    under their own keys, as a TypedDict allows."""

    scores: list[int | float]
    ranks: list[int]
    winners: list[int]
    breakdown: list[dict[str, object]]
    reason: str


@dataclass
class Result:
    """Final scores per seat, what made them, and ranks with the rulebook's tie-breaks."""

    scores: Sequence[int | float]
    ranks: Sequence[int]
    # Each seat's score by source: a game's own record (a TypedDict or a dict).
    breakdown: Sequence[Mapping[str, object]]
    reason: str
    extra: Mapping[str, JSONValue] = field(default_factory=dict)

    def automata(self) -> Sequence[Mapping[str, object]]:
        """The automata ranked beside the seats (New York City's Toms), from ``extra``."""
        # A game with automata lists their records there; the others leave the key out.
        return cast(Sequence[Mapping[str, object]], self.extra.get("automata", ()))

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_dict(self) -> ResultDict:
        common: ResultDict = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": self.winners,
            "breakdown": [dict(b) for b in self.breakdown],
            "reason": self.reason,
        }
        # The game's own facts after the common fields (a TypedDict may carry more keys).
        return cast(ResultDict, {**common, **self.extra})
