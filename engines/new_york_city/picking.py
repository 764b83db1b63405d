"""Starting piles (setup 16) and Phase I: taking pairs of cards, with characters 1–11.

Rules NYC-SETUP-PILES, NYC-PHASE1-*, NYC-CHAR-1 … NYC-CHAR-11. In Phase I the players take a
pair of cards each in reverse press order, twice round. On one's turn one may use Phase I
characters, before or after taking the pair; the turn ends by itself once the pair is taken and
no character is left to use, else with ``done``.

Moves: ``choose_pile``; ``take_pair``; ``use`` (character 1–11, with its choices); ``select``
and ``confirm`` (the cards character 1 discards, chosen one at a time, private until
confirmed); ``discard`` (the two cards character 5 discards); ``done``.
"""

from __future__ import annotations

from ..core import Move, event
from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .stages import PICK
from .table import Events, Table


class PickingMixin(Table):
    # ---- setup: starting piles ----------------------------------------------------------------------
    def _step_piles(self, ev: Events) -> None:
        if self.queue:
            self.actor = self.queue[0]
            return
        # Solo rules: the Toms take the remaining piles; any pile left goes back to the box.
        for p in reversed(press.order(self.press)):
            if self.players[p]["tom"] and self.piles:
                pile = self.piles.pop(0)
                for n in pile:
                    self._receive_character(p, n)
                ev.append(event("pile_chosen", player=p, characters=list(pile)))
        self.box = sorted(self.box + [n for pile in self.piles for n in pile])
        self.piles = []
        self._start_round(ev)

    def _pile_moves(self, seat: int) -> list[Move]:
        return [{"type": "choose_pile", "pile": i} for i in range(len(self.piles))]

    def _apply_pile(self, seat: int, move: Move, ev: Events) -> None:
        pile = self.piles.pop(move["pile"])
        for n in pile:
            self._receive_character(seat, n)
        ev.append(event("pile_chosen", player=seat, characters=list(pile)))
        self.queue.pop(0)
        self.actor = -1

    # ---- Phase I ------------------------------------------------------------------------------------
    def _step_pick(self, ev: Events) -> None:
        while self.queue and (self.players[self.queue[0]]["pairs_taken"] >= 2 or not self.pairs):
            self.queue.pop(0)
        if self.queue:
            self.actor = self.queue[0]
            self.turn = {"takes": 1, "taken": 0, "last": [], "select": None, "discard": 0}
            return
        self._tom_takes_pairs(ev)
        if self.pairs:
            leftover = [card for pair in self.pairs for card in pair]
            self.discard.extend(leftover)
            ev.append(event("pairs_discarded", cards=c.sort_cards(leftover)))
            self.pairs = []
        self._start_bidding(0, ev)

    def _may_take(self) -> bool:
        turn = self.pick_turn()
        return bool(self.pairs) and turn["taken"] < turn["takes"]

    def _pick_moves(self, seat: int) -> list[Move]:
        turn = self.pick_turn()
        hand = self.players[seat]["hand"]
        if turn["discard"]:
            return [{"type": "discard", "cards": cards} for cards in c.sub_multisets(hand, 2, 2)]
        if turn["select"] is not None:
            left = list(hand)
            for card in turn["select"]:
                left.remove(card)
            return [{"type": "select", "card": s} for s in c.distinct(left)] + [{"type": "confirm"}]
        moves: list[Move] = []
        take = self._may_take()
        if take:
            moves.extend({"type": "take_pair", "pair": i} for i in range(len(self.pairs)))
        moves.extend(self._phase1_uses(seat, take))
        if not take:
            moves.append({"type": "done"})
        return moves

    def _phase1_uses(self, p: int, take: bool) -> list[Move]:
        player = self.players[p]
        turn = self.pick_turn()
        moves: list[Move] = []
        for n in self._usable(p, ch.PHASE_I_NUMBERS):
            if n == 2:
                if take and len(self.pairs) >= 2:
                    moves.extend(self._split_moves())
            elif n == 4:
                # Take both pairs at once: only before taking any pair this round.
                if take and player["pairs_taken"] == 0 and turn["takes"] == 1 and len(self.pairs) >= 2:
                    moves.append({"type": "use", "character": 4})
            elif n == 7:
                moves.extend(self._promotion_moves(p))
            elif n == 8:
                moves.extend(self._reserve_match_moves(p))
            elif n == 11:
                if player["board"]:
                    moves.extend(
                        {"type": "use", "character": 11, "district": b.DISTRICTS[d]}
                        for d in range(len(b.DISTRICTS))
                        if self.black[d]
                    )
            else:
                moves.append({"type": "use", "character": n})
        return moves

    def _split_moves(self) -> list[Move]:
        """Character 2: one card from each of two different pairs."""
        moves: list[Move] = []
        for i in range(len(self.pairs)):
            for j in range(i + 1, len(self.pairs)):
                for first in c.distinct(self.pairs[i]):
                    for second in c.distinct(self.pairs[j]):
                        moves.append(
                            {"type": "use", "character": 2, "pairs": [i, j], "cards": [first, second]}
                        )
        return moves

    def _promotion_moves(self, p: int) -> list[Move]:
        """Character 7: discard a character, take one worth at most one more (5 stays 5)."""
        player = self.players[p]
        owned: list[int] = []
        for n in player["characters"]:
            if n not in owned:
                owned.append(n)
        sevens = player["characters"].count(7)
        moves: list[Move] = []
        for old in sorted(owned):
            if old == 7 and sevens < 2:
                continue  # the tile carrying the Dollar cannot discard itself
            limit = min(ch.VALUE[old] + 1, len(ch.ELEVATOR_FLOORS))
            for new in self._available_characters(limit):
                moves.append({"type": "use", "character": 7, "discard": old, "take": new})
        return moves

    def _reserve_match_moves(self, p: int) -> list[Move]:
        """Character 8: for each card of the pair just taken, an identical reserve card to hand."""
        last = self.pick_turn()["last"]
        if not last:
            return []
        player = self.players[p]
        reserve = c.counts(player["reserve"] + player["shown"])
        moves: list[Move] = []
        for chosen in c.sub_multisets(last, smallest=1):
            need = c.counts(chosen)
            if all(reserve.get(s, 0) >= k for s, k in need.items()):
                moves.append({"type": "use", "character": 8, "cards": chosen})
        return moves

    def _apply_pick(self, seat: int, move: Move, ev: Events) -> None:
        turn = self.pick_turn()
        kind = move["type"]
        if kind == "take_pair":
            self._take_cards(seat, self.pairs.pop(move["pair"]), ev)
        elif kind == "done":
            self._end_pick_turn()
            return
        elif kind == "select":
            assert turn["select"] is not None  # listed while character 1's cards are chosen
            turn["select"].append(move["card"])
        elif kind == "confirm":
            chosen = turn["select"]
            assert chosen is not None  # listed while character 1's cards are chosen
            turn["select"] = None
            self._use(seat, 1, ev)
            self._gain(seat, 1, ev, "character 1")
            self._discard_from_hand(seat, chosen, ev, "character 1")
            self._draw_into(seat, "hand", len(chosen), ev, "character 1")
        elif kind == "discard":
            turn["discard"] = 0
            self._discard_from_hand(seat, move["cards"], ev, "character 5")
        else:
            self._use_phase1(seat, move, ev)
        if turn["select"] is None and not turn["discard"] and not self._may_take():
            if not self._phase1_uses(seat, False):
                self._end_pick_turn()

    def _end_pick_turn(self) -> None:
        self.queue.pop(0)
        self.turn = None
        self.actor = -1

    def _take_cards(self, p: int, cards: list[str], ev: Events) -> None:
        """Taken cards go to the hand face up: the table knows them (tag KNOWN)."""
        player = self.players[p]
        player["hand"].extend(cards)
        player["hand_tags"].extend([c.KNOWN] * len(cards))
        player["pairs_taken"] += 1
        self.pick_turn()["taken"] += 1
        self.pick_turn()["last"] = list(cards)
        ev.append(event("pair_taken", player=p, cards=list(cards)))

    def _discard_from_hand(self, p: int, cards: list[str], ev: Events, reason: str) -> None:
        for card in cards:
            self._take(p, "hand", card)
            self.discard.append(card)
        if cards:
            ev.append(event("cards_discarded", player=p, cards=c.sort_cards(cards), reason=reason))

    def _use_phase1(self, p: int, move: Move, ev: Events) -> None:
        n = move["character"]
        player = self.players[p]
        turn = self.pick_turn()
        if n == 1:
            turn["select"] = []  # paid when the discards are confirmed
            return
        self._use(p, n, ev)
        if n == 2:
            i, j = move["pairs"]
            first, second = self.pairs[i], self.pairs[j]
            rest = [first[1] if first[0] == move["cards"][0] else first[0]]
            rest.append(second[1] if second[0] == move["cards"][1] else second[0])
            for index in (j, i):
                del self.pairs[index]
            self.pairs.append(c.sort_cards(rest))
            self._take_cards(p, list(move["cards"]), ev)
            ev.append(event("pair_formed", cards=c.sort_cards(rest)))
        elif n == 3:
            self._gain(p, 1, ev, "character 3")
            drawn = self._draw(1, ev)
            player["shown"].extend(drawn)
            player["reserve_size"] += 1
            ev.append(event("card_shown", player=p, cards=drawn))
        elif n == 4:
            turn["takes"] = 2
        elif n == 5:
            self._draw_into(p, "hand", 3, ev, "character 5")
            turn["discard"] = 1 if len(player["hand"]) >= 2 else 0
            if not turn["discard"]:
                self._discard_from_hand(p, list(player["hand"]), ev, "character 5")
        elif n == 6:
            self._take_dollars(p, 2, ev, "character 6")
        elif n == 7:
            self._promote(p, move["discard"], move["take"], ev)
        elif n == 8:
            for card in move["cards"]:
                self._take_from_reserve(p, card)
                player["hand"].append(card)
                player["hand_tags"].append(c.KNOWN)
            ev.append(event("reserve_to_hand", player=p, cards=list(move["cards"])))
            self._refill_reserve(p, ev, "character 8")
        elif n == 9:
            self._draw_into(p, "hand", 1, ev, "character 9")
            self._take_dollars(p, 1, ev, "character 9")
        elif n == 10:
            self._draw_into(p, "hand", 2, ev, "character 10")
        elif n == 11:
            d = b.DISTRICT_INDEX[move["district"]]
            self.black[d] -= 1
            self.black_removed += 1
            player["board"] -= 1
            self.towers[d][p] += 1
            ev.append(event("black_replaced", player=p, district=move["district"]))

    def _promote(self, p: int, old: int, new: int, ev: Events) -> None:
        """Character 7: the discarded character leaves the game (a free copy first; if only a
        used one is left, its Dollar goes back to the supply)."""
        player = self.players[p]
        index = -1
        for i, (n, used) in enumerate(zip(player["characters"], player["used"], strict=True)):
            if n == old:
                if not used:
                    index = i
                    break
                if index < 0:
                    index = i
        if player["used"][index] and ch.NEEDS_DOLLAR[old]:
            player["on_characters"] -= 1
            self.supply_dollars += 1
        del player["characters"][index]
        del player["used"][index]
        self.removed.append(old)
        self._take_from_elevator(new)
        self._receive_character(p, new)
        ev.append(event("character_exchanged", player=p, discarded=old, taken=new))


__all__ = ["PickingMixin", "PICK"]
