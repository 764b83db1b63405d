"""Between bidding rounds (character 22), Phase III (characters 23–27) and the end of a round.

Rules NYC-CHAR-22, NYC-PHASE3, NYC-CHAR-23 … NYC-CHAR-27, NYC-ROUND-END. Players act in press
order (leader first) in both windows.
"""

from __future__ import annotations

from ..core import Move, event
from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .table import Events, Table


class ClosingMixin(Table):
    # ---- character 22: after a bidding round, replace up to 2 hand cards ----------------------------
    def _step_replace(self, ev: Events) -> None:
        while self.queue and not self._replace_moves(self.queue[0])[:-1]:
            self.queue.pop(0)
        if self.queue:
            self.actor = self.queue[0]
        else:
            self._start_bidding(self.current_bidding()["round"] + 1, ev)

    def _replace_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = []
        if self._can_use(seat, 22):
            hand = self.players[seat]["hand"]
            moves = [
                {"type": "use", "character": 22, "cards": cards} for cards in c.sub_multisets(hand, 2, 1)
            ]
        moves.append({"type": "done"})
        return moves

    def _apply_replace(self, seat: int, move: Move, ev: Events) -> None:
        if move["type"] == "use":
            self._use(seat, 22, ev)
            self._discard_from_hand(seat, move["cards"], ev, "character 22")
            self._draw_into(seat, "hand", len(move["cards"]), ev, "character 22")
            if len(self._replace_moves(seat)) > 1:
                return  # a second copy of 22 may still be used
        self.queue.pop(0)
        self.actor = -1

    # ---- Phase III ----------------------------------------------------------------------------
    def _step_phase3(self, ev: Events) -> None:
        while self.queue and not self._usable(self.queue[0], ch.PHASE_III_NUMBERS):
            self.queue.pop(0)
        if self.queue:
            self.actor = self.queue[0]
        else:
            self._end_round(ev)

    def _phase3_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = [
            {"type": "use", "character": n} for n in self._usable(seat, ch.PHASE_III_NUMBERS)
        ]
        moves.append({"type": "done"})
        return moves

    def _apply_phase3(self, seat: int, move: Move, ev: Events) -> None:
        if move["type"] == "use":
            n = move["character"]
            self._use(seat, n, ev)
            if n == 23:
                self._gain(seat, 2, ev, "character 23")
            elif n == 24:
                self._gain(seat, 1, ev, "character 24")
                self._towers_to_board(seat, 1, ev, "character 24")
            elif n == 25:
                self._gain(seat, 3, ev, "character 25")
            elif n == 26:
                self._towers_to_board(seat, 1, ev, "character 26")
                self._press_forward(seat, 1, ev, "character 26")
            elif n == 27:
                # Reading (rules README): the position among the players and Toms, black ignored.
                self._press_forward(seat, press.position(self.press, seat), ev, "character 27")
            if self._usable(seat, ch.PHASE_III_NUMBERS):
                return
        self.queue.pop(0)
        self.actor = -1

    def _press_forward(self, p: int, steps: int, ev: Events, reason: str) -> None:
        space = press.move(self.press, p, steps)
        ev.append(event("press_moved", player=p, steps=steps, space=space, reason=reason))

    # ---- end of the round (rule NYC-ROUND-END) ----------------------------------------------------
    def _end_round(self, ev: Events) -> None:
        """Cards left in hand are discarded; the reserve stays. Tom keeps no card."""
        for p, player in enumerate(self.players):
            left = player["hand"] + player["staged"] + (player["reserve"] if player["tom"] else [])
            if left:
                self.discard.extend(left)
                ev.append(event("cards_discarded", player=p, cards=c.sort_cards(left), reason="end of round"))
            player["hand"], player["hand_tags"], player["staged"] = [], [], []
            if player["tom"]:
                player["reserve"] = []
            # The hand is seen going to the discards: what was unsure between hand and reserve
            # is settled, and the reserve holds what it holds.
            player["mixed"] = False
        ev.append(event("round_ended", round=self.round))
        if self.round == b.ROUNDS:
            self._finish(ev)
        else:
            self._start_round(ev)
