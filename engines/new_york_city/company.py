"""A player's company (its characters) and the supplies: shared helpers of every phase.

Rules NYC-CHAR-USE (a character of phases I–III is used at most once per round, in its phase,
on its owner's turn, with $1 placed on it unless it is free) and NYC-SUPPLY (Dollars and
skyscrapers come from limited supplies).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import event
from . import characters as ch
from .table import Events, Table


class CompanyMixin(Table):
    # ---- characters ------------------------------------------------------------------------------
    def _free_copies(self, p: int, number: int) -> int:
        player = self.players[p]
        return sum(
            1
            for n, used in zip(player["characters"], player["used"], strict=True)
            if n == number and not used
        )

    def _can_use(self, p: int, number: int, pending: Iterable[int] = (), reserved: int = 0) -> bool:
        """Whether ``p`` may use a copy of ``number`` now, given uses not yet paid for."""
        player = self.players[p]
        if player["tom"]:
            return False  # Tom never places a Dollar on his characters
        pending = list(pending)
        if self._free_copies(p, number) - pending.count(number) <= 0:
            return False
        return not ch.NEEDS_DOLLAR[number] or player["dollars"] - reserved >= 1

    def _usable(
        self, p: int, numbers: Iterable[int], pending: Iterable[int] = (), reserved: int = 0
    ) -> list[int]:
        """The numbers among ``numbers`` that ``p`` may use now (one pass: listings are hot)."""
        player = self.players[p]
        if player["tom"] or not player["characters"]:
            return []
        free: dict[int, int] = {}
        for n, used in zip(player["characters"], player["used"], strict=True):
            if not used:
                free[n] = free.get(n, 0) + 1
        for n in pending:
            free[n] = free.get(n, 0) - 1
        can_pay = player["dollars"] - reserved >= 1
        return [n for n in numbers if free.get(n, 0) > 0 and (can_pay or not ch.NEEDS_DOLLAR[n])]

    def _use(self, p: int, number: int, ev: Events) -> None:
        """Place $1 on a free copy of ``number`` (or just turn it, if it needs none)."""
        player = self.players[p]
        for i, (n, used) in enumerate(zip(player["characters"], player["used"], strict=True)):
            if n == number and not used:
                player["used"][i] = True
                break
        if ch.NEEDS_DOLLAR[number]:
            player["dollars"] -= 1
            player["on_characters"] += 1
        ev.append(event("character_used", player=p, character=number))

    def _receive_character(self, p: int, number: int) -> None:
        self.players[p]["characters"].append(number)
        self.players[p]["used"].append(False)

    def _take_from_elevator(self, number: int) -> int | None:
        """Take the leftmost tile ``number`` beside the elevator; the rest slide left and a
        new tile is revealed on the right. Return the tile revealed, if any."""
        floor = ch.VALUE[number] - 1
        row = self.display[floor]
        row.remove(number)
        if self.stacks[floor]:
            revealed = self.stacks[floor].pop()
            row.append(revealed)
            return revealed
        return None

    def _available_characters(self, limit: int) -> list[int]:
        """Distinct characters beside the elevator worth at most ``limit``."""
        out: list[int] = []
        for floor in range(min(limit, len(self.display))):
            for n in self.display[floor]:
                if n not in out:
                    out.append(n)
        return out

    # ---- points and supplies ----------------------------------------------------------------------
    def _gain(self, p: int, points: int, ev: Events, reason: str) -> None:
        if points:
            self.players[p]["score"] += points
            ev.append(event("points", player=p, points=points, reason=reason))

    def _take_dollars(self, p: int, amount: int, ev: Events, reason: str) -> int:
        """Take Dollars from the supply (the box holds 26: reading, the supply is limited)."""
        amount = max(0, min(amount, self.supply_dollars))
        self.supply_dollars -= amount
        self.players[p]["dollars"] += amount
        if amount:
            ev.append(event("dollars_taken", player=p, dollars=amount, reason=reason))
        return amount

    def _towers_to_board(self, p: int, amount: int, ev: Events, reason: str) -> int:
        """Take skyscrapers of the player's colour from the supply onto the player board."""
        player = self.players[p]
        amount = max(0, min(amount, player["supply"]))
        player["supply"] -= amount
        player["board"] += amount
        if amount:
            ev.append(event("skyscrapers_taken", player=p, skyscrapers=amount, reason=reason))
        return amount
