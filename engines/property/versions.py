"""Property's other rules versions: each a thin subclass of the rules that overrides the one
decision that changed, sharing all the rest (docs/engines.md, "Shipping a rule fix").

``MORTGAGES_COLLECT_NO_RENT`` is rules version 2, a version for tests only (engines/registry.py,
TEST_ONLY): the other reading of P-MORTGAGED-RENT (docs/rules/property.md). The rulebook gives
a mortgage no effect but the loss of the square on a second designation, and the research marks
"a mortgaged square still collects rent" as inferred; the other reading, a mortgaged square
collects nothing (as in Monopoly), is the smallest real rule change this game has. It is not
published: nothing says the published reading is wrong, and a version changes no game's rules
unless it fixes one.
"""

from __future__ import annotations

from dataclasses import replace

from . import GAME
from .rules import PropertyState


class MortgagedSquaresCollectNoRent(PropertyState):
    """P-MORTGAGED-RENT, version 2: designating an opponent's mortgaged square costs no rent.
    The square still counts in its owner's group (the rent of its neighbours, the price) and
    may still be bought after the rent of $0 (P-BUY)."""

    def rent(self, column: int, row: int, red: str, black: str) -> int:
        square = self._square(column, row)
        if square is not None and square["mortgaged"]:
            return 0
        return super().rent(column, row, red, black)


MORTGAGES_COLLECT_NO_RENT = replace(GAME, rules_version=2, state_class=MortgagedSquaresCollectNoRent)
