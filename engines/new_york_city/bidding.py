"""Phase II: a player's one chance to bid in each of the six bidding rounds.

Rules NYC-BID-*, NYC-RESERVE-EXCHANGE and characters 12–20 (NYC-CHAR-12 … NYC-CHAR-20). A bid
is built in short steps, private to the bidder until committed (``bid``): play a card of the
round, a joker (only once the bid holds another card), two identical cards of another type or
a joker with a card of another type (worth one card of the round), or a character's bonus.
Cards may be exchanged between hand and reserve during the turn; each card moves at most
once per turn, which reaches every arrangement the rule allows and keeps the turn finite.

Character 12 (+1 point, discard reserve cards, refill) is used on the bidding turn too, its
cards selected one at a time (``select``, ``confirm``), public once confirmed.

Bid elements and their worth:
``match`` a card of the round 1 · ``joker`` 1 · ``pair`` two identical other cards 1 ·
``jpair`` a joker and another card 1 · ``conv13`` any card (character 13) 1 · ``conv20`` any
card (character 20) 2 · ``res15`` a reserve card beside the same symbol played from hand
(character 15) 1 · ``pair15`` a hand card and a reserve card of another type (character 15) 1 ·
``jokers14`` press spaces given back (character 14) 1 each · ``joker16`` 1 · ``prestige17`` 1.
"""

from __future__ import annotations

from ..core import Move, event
from . import cards as c
from . import characters as ch
from . import press
from .stages import BID
from .table import Bid, Events, PendingBid, Table

# Elements that give the bid its "real" card, so jokers may join (jokers never alone).
BASE_KINDS = frozenset({"match", "pair", "jpair", "conv13", "conv20", "pair15", "prestige17"})


def new_pending() -> PendingBid:
    return {
        "elements": [],
        "value": 0,
        "base": False,
        "uses": [],
        "cards": [],
        "tags": [],
        "from_hand": 0,
        "steps": 0,
        "double": False,
        "locked_hand": {},
        "locked_reserve": {},
        "select12": None,
    }


class BiddingMixin(Table):
    def _start_bidding(self, r: int, ev: Events) -> None:
        """A bidding round: Tom draws (modes B and C), then one chance each, clockwise from
        the starting player (rule NYC-BID-ORDER)."""
        count = len(self.players)
        if r == 0 or self.starter < 0:
            self.starter = press.order(self.press)[0]
        order = [(self.starter + i) % count for i in range(count)]
        self.bidding = {
            "round": r,
            "order": order,
            "index": 0,
            "bids": [None] * count,
            "used18": False,
            "ranking": [],
        }
        ev.append(event("bidding_round_started", round=c.BIDDING_ROUNDS[r], order=list(order)))
        for p in press.order(self.press):
            if self.players[p]["tom"]:
                self._tom_draws(p, r, ev)
        self.stage = BID

    def _step_bid(self, ev: Events) -> None:
        bidding = self.current_bidding()
        if bidding["index"] >= len(bidding["order"]):
            self._evaluate(ev)
            return
        p = bidding["order"][bidding["index"]]
        if self.players[p]["tom"]:
            self._tom_bids(p, ev)
            bidding["index"] += 1
            return
        self.actor = p
        self.pending = new_pending()

    # ---- what a bidder may do --------------------------------------------------------------------
    def _reserved_dollars(self) -> int:
        return sum(1 for n in self.bid_in_progress()["uses"] if ch.NEEDS_DOLLAR[n])

    def _bid_moves(self, seat: int) -> list[Move]:
        player = self.players[seat]
        pending = self.bid_in_progress()
        if pending["select12"] is not None:
            # Character 12: reserve cards to discard, chosen one at a time.
            left = player["reserve"] + player["shown"]
            for card in pending["select12"]:
                left.remove(card)
            return [{"type": "select", "card": s} for s in c.distinct(left)] + [{"type": "confirm"}]
        kind = c.BIDDING_ROUNDS[self.current_bidding()["round"]]
        hand = c.counts(player["hand"])
        reserve = c.counts(player["reserve"] + player["shown"])
        moves: list[Move] = []
        locked_hand, locked_reserve = pending["locked_hand"], pending["locked_reserve"]
        takes = [s for s in c.SYMBOLS if reserve.get(s, 0) > locked_reserve.get(s, 0)]
        if takes:
            for give in c.SYMBOLS:
                if hand.get(give, 0) > locked_hand.get(give, 0):
                    moves.extend(
                        {"type": "exchange", "give": give, "take": take} for take in takes if take != give
                    )
        if hand.get(kind):
            moves.append({"type": "play", "card": kind})
        if pending["base"] and hand.get(c.JOKER):
            moves.append({"type": "play", "card": c.JOKER})
        for other in c.BIDDING_ROUNDS:
            if other == kind or not hand.get(other):
                continue
            if hand[other] >= 2:
                moves.append({"type": "play_pair", "cards": [other, other]})
            if hand.get(c.JOKER):
                moves.append({"type": "play_pair", "cards": [other, c.JOKER]})
        moves.extend(self._bid_uses(seat, kind, hand, reserve))
        moves.append({"type": "bid"} if pending["elements"] else {"type": "pass"})
        return moves

    def _bid_uses(self, p: int, kind: str, hand: dict[str, int], reserve: dict[str, int]) -> list[Move]:
        pending = self.bid_in_progress()
        base = pending["base"]
        moves: list[Move] = []
        for n in self._usable(p, ch.PHASE_II_NUMBERS, pending["uses"], self._reserved_dollars()):
            if n == 12:
                moves.append({"type": "use", "character": 12})
            elif n in (13, 20):
                moves.extend({"type": "use", "character": n, "card": s} for s in c.SYMBOLS if hand.get(s))
            elif n == 14:
                if base:
                    space = press.space_of(self.press, p) - pending["steps"]
                    moves.extend({"type": "use", "character": 14, "steps": k} for k in (1, 2) if space >= k)
            elif n == 15:
                played = {e["cards"][0] for e in pending["elements"] if e["kind"] in ("match", "joker")}
                for s in c.SYMBOLS:
                    if not reserve.get(s):
                        continue
                    if s in played or (s not in (kind, c.JOKER) and hand.get(s)):
                        moves.append({"type": "use", "character": 15, "card": s})
            elif n in (16, 19):
                if base and (n == 16 or (kind == c.PRESTIGE and not pending["double"])):
                    moves.append({"type": "use", "character": n})
            elif n == 17:
                if kind == c.PRESTIGE:
                    moves.append({"type": "use", "character": 17})
            elif n == 18:
                bidding = self.current_bidding()
                last = bidding["index"] == len(bidding["order"]) - 1
                if not pending["elements"] and not pending["uses"] and not bidding["used18"] and not last:
                    moves.append({"type": "use", "character": 18})
        return moves

    # ---- doing it ---------------------------------------------------------------------------------
    def _apply_bid(self, seat: int, move: Move, ev: Events) -> None:
        kind = move["type"]
        pending = self.bid_in_progress()
        round_kind = c.BIDDING_ROUNDS[self.current_bidding()["round"]]
        if kind == "exchange":
            self._exchange(seat, move["give"], move["take"], ev)
        elif kind == "play":
            card = move["card"]
            self._to_bid(seat, "hand", card)
            self._add_element("match" if card == round_kind else "joker", [card], 1)
        elif kind == "play_pair":
            for card in move["cards"]:
                self._to_bid(seat, "hand", card)
            self._add_element("jpair" if c.JOKER in move["cards"] else "pair", list(move["cards"]), 1)
        elif kind == "use":
            self._use_phase2(seat, move, ev)
        elif kind == "select":
            assert pending["select12"] is not None  # listed while character 12's cards are chosen
            pending["select12"].append(move["card"])
        elif kind == "confirm":
            self._renew_reserve(seat, ev)
        elif kind == "bid":
            self._commit_bid(seat, ev)
        elif kind == "pass":
            self.current_bidding()["bids"][seat] = None
            self._end_bid_turn()
            ev.append(event("passed", player=seat, round=round_kind))

    def _exchange(self, p: int, give: str, take: str, ev: Events) -> None:
        """Rule NYC-RESERVE-EXCHANGE: a hand card for a reserve card, the reserve keeps its size."""
        player = self.players[p]
        pending = self.bid_in_progress()
        tag = self._take(p, "hand", give)
        if take in player["reserve"]:
            index = player["reserve"].index(take)
            taken_tag = player["reserve_tags"].pop(index)
            del player["reserve"][index]
        else:
            player["shown"].remove(take)
            taken_tag = c.KNOWN
        player["reserve"].append(give)
        player["reserve_tags"].append(tag)
        player["hand"].append(take)
        player["hand_tags"].append(taken_tag)
        player["mixed"] = True
        pending["locked_hand"][take] = pending["locked_hand"].get(take, 0) + 1
        pending["locked_reserve"][give] = pending["locked_reserve"].get(give, 0) + 1
        ev.append(event("cards_exchanged", player=p))

    def _to_bid(self, p: int, where: str, card: str) -> None:
        """Move a card into the bid being built (the table still counts it where it was)."""
        pending = self.bid_in_progress()
        if where == "hand":
            tag = self._take(p, "hand", card)
            pending["from_hand"] += 1
        else:
            tag = self._take_from_reserve(p, card)
        pending["cards"].append(card)
        pending["tags"].append(tag)

    def _add_element(self, kind: str, cards: list[str], value: int) -> None:
        pending = self.bid_in_progress()
        pending["elements"].append({"kind": kind, "cards": cards, "value": value})
        pending["value"] += value
        if kind in BASE_KINDS:
            pending["base"] = True

    def _use_phase2(self, p: int, move: Move, ev: Events) -> None:
        n = move["character"]
        pending = self.bid_in_progress()
        if n == 12:
            pending["select12"] = []  # the reserve cards to discard are selected next
            return
        if n == 18:
            # Public at once: $1, and this player bids last in this bidding round.
            self._use(p, 18, ev)
            self._take_dollars(p, 1, ev, "character 18")
            bidding = self.current_bidding()
            del bidding["order"][bidding["index"]]
            bidding["order"].append(p)
            bidding["used18"] = True
            self.pending = None
            self.actor = -1
            ev.append(event("bids_last", player=p))
            return
        pending["uses"].append(n)
        if n in (13, 20):
            card = move["card"]
            self._to_bid(p, "hand", card)
            self._add_element(f"conv{n}", [card], 1 if n == 13 else 2)
        elif n == 14:
            pending["steps"] += move["steps"]
            self._add_element("jokers14", [], move["steps"])
        elif n == 15:
            card = move["card"]
            played = {e["cards"][0] for e in pending["elements"] if e["kind"] in ("match", "joker")}
            if card in played:
                self._to_bid(p, "reserve", card)
                self._add_element("res15", [card], 1)
            else:
                self._to_bid(p, "hand", card)
                self._to_bid(p, "reserve", card)
                self._add_element("pair15", [card, card], 1)
            # The reserve is refilled at once; the new card may be exchanged and played.
            # The draw is seen at the table, but not which character caused it.
            self._refill_reserve(p, ev, "reserve refilled")
        elif n == 16:
            self._add_element("joker16", [], 1)
        elif n == 17:
            self._add_element("prestige17", [], 1)
        elif n == 19:
            pending["double"] = True

    def _renew_reserve(self, p: int, ev: Events) -> None:
        """Character 12, confirmed (public at once): +1 point, the selected reserve cards
        discarded, the reserve refilled from the deck."""
        chosen = self.bid_in_progress()["select12"]
        assert chosen is not None  # listed while character 12's cards are chosen
        self.bid_in_progress()["select12"] = None
        self._use(p, 12, ev)
        self._gain(p, 1, ev, "character 12")
        for card in chosen:
            self._take_from_reserve(p, card)
            self.discard.append(card)
        if chosen:
            ev.append(event("cards_discarded", player=p, cards=c.sort_cards(chosen), reason="character 12"))
        self._refill_reserve(p, ev, "character 12")

    def _commit_bid(self, p: int, ev: Events) -> None:
        """The bid is laid face up: characters paid, press spaces given back (character 14)."""
        pending = self.bid_in_progress()
        round_kind = c.BIDDING_ROUNDS[self.current_bidding()["round"]]
        for n in pending["uses"]:
            self._use(p, n, ev)
        if pending["steps"]:
            press.move(self.press, p, -pending["steps"])
            ev.append(event("press_moved", player=p, steps=-pending["steps"], reason="character 14"))
        cards = c.sort_cards(pending["cards"])
        self.table.extend(cards)
        bid: Bid = {
            "value": pending["value"],
            "cards": cards,
            "double": pending["double"],
            "characters": sorted(pending["uses"]),
        }
        self.current_bidding()["bids"][p] = bid
        ev.append(
            event(
                "bid",
                player=p,
                round=round_kind,
                value=bid["value"],
                cards=cards,
                characters=bid["characters"],
            )
        )
        self._end_bid_turn()

    def _end_bid_turn(self) -> None:
        self.current_bidding()["index"] += 1
        self.pending = None
        self.actor = -1


__all__ = ["BiddingMixin", "BID", "new_pending"]
