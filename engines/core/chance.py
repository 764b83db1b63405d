"""Seeded chance whose whole state is one integer kept inside the game state.

Python's ``random.Random`` carries 625 words of state; storing that in every game and
copying it in every bot clone is wasteful. SplitMix64 (Steele, Lea & Flood 2014) has a
64-bit state, passes BigCrush, and is a handful of integer operations, so the generator
lives in the state as a plain int and ``(seed, options, moves)`` replays exactly.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int | str) -> int:
    """Return a generator state derived from any int or string seed."""
    if isinstance(seed, str):
        value = 0
        for byte in seed.encode("utf-8"):
            value = (value * 131 + byte) & _MASK
        seed = value
    return int(seed) & _MASK


class Chance:
    """A SplitMix64 generator. Read ``state`` back into the game state after use."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def roll(self, sides: int) -> int:
        """Return a die roll in ``1..sides``."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
