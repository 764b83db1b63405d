"""The outcome of a finished game: scores, their breakdown, and the ranking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


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


@dataclass
class Result:
    """Final scores per seat, what made them, and ranks with the rulebook's tie-breaks."""

    scores: list[int | float]
    ranks: list[int]
    breakdown: list[dict[str, Any]]
    reason: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_dict(self) -> dict[str, Any]:
        out = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": self.winners,
            "breakdown": [dict(b) for b in self.breakdown],
            "reason": self.reason,
        }
        out.update(self.extra)
        return out
