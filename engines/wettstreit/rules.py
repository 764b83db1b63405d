"""Wettstreit der Baumeister (Jean du Poël, Kosmos 1998): auction building cards, build a city.

Rulebook: seeds/city-auction-003.fr.txt; rule ids in docs/rules/wettstreit.md.

A turn has three steps. Income: the die gives 1–5 écus, plus one per coin on the gates
built; its black dot gives the gate income only and a saboteur. Auction: the top card of
the face-up pile, or of the face-down pile (seen by the auctioneer alone, its kind named if
the bidding comes round to the auctioneer again); the auctioneer opens, the others raise
or drop out in turn; the buyer pays half to the auctioneer and the rest to the bank (all to
the bank if the auctioneer buys); who cannot pay loses all money and the bid before wins.
Then build (three cards side by side the first time, later one to three at the ends, never
two of a kind side by side) or sabotage a city or a hand. When a pile's last card is
auctioned, the turn ends and every player may still add up to three cards, the second
corner tower at last; cities are scored.

Hidden: each player's money (behind the screen), each hand, the face-down pile, the
face-up pile below its top card, the face-down card while it is auctioned (but for the
auctioneer), the card lost by a hand sabotage into the face-down pile, and the cards a
player has set out but not yet committed. Public: cities, saboteurs, the bank, bids, pile
and hand sizes. knowledge.py keeps who knows where each hidden card lies.
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

from ..core import (
    Event,
    IllegalMove,
    JSONObject,
    Message,
    Move,
    Result,
    State,
    View,
    event,
    ranks_from_keys,
    say,
    secret_event,
)
from . import city as c
from . import knowledge as k
from . import material as m

TAKE_SABOTEUR = "take_saboteur"
CHOOSE_PILE = "choose_pile"
BIDDING = "bidding"
BUILD_OR_SABOTAGE = "build_or_sabotage"
RANSOM = "ransom"
FINAL_BUILD = "final_build"
OVER = "over"


class Player(TypedDict):
    money: int
    hand: list[str]
    city: list[str | None]  # card ids, None for a gap
    saboteurs: int
    has_built: bool


class Auction(TypedDict):
    pile: str
    auctioneer: int
    card: str
    bids: list[list[int]]  # [seat, amount], in order
    passed: list[int]
    bidder: int
    came_round: bool  # the bidding came round to the auctioneer again (WB-AUCTION-KIND)


class SetOut(TypedDict):
    """A card set out by the current player, not yet committed."""

    card: str
    end: str


class Sabotage(TypedDict):
    """A discovered sabotage awaiting the target's ransom decision."""

    saboteur: int
    target: int
    slot: int
    card: str
    die: int


class Pool(TypedDict):
    """Seat ``seat`` knows its ``known`` cards lie among the places of ``cards`` (knowledge.py)."""

    seat: int
    cards: list[str]
    known: list[str]


class WettstreitState(State):
    move_types = (
        "take_saboteur",
        "auction",
        "bid",
        "pass",
        "build",
        "end_turn",
        "sabotage_city",
        "sabotage_hand",
        "pay_ransom",
        "refuse_ransom",
    )

    # The attributes, all plain JSON (see State).
    players: list[Player]
    face_up: list[str]  # top = end
    face_down: list[str]
    bank: int
    centre_saboteurs: int
    first: int
    current: int
    turn: int
    die: int | None  # the last income roll, 6 = black dot
    phase: str
    auction: Auction | None
    pending: list[SetOut]
    sabotage: Sabotage | None
    end_triggered: bool
    final_queue: list[int]  # seats still to make their final build, current first
    # Who knows where each hidden card is (knowledge.py).
    public: dict[str, bool]
    knows: dict[str, list[int]]
    type_shown: dict[str, bool]
    pools: list[Pool]

    def setup(self) -> None:
        deck = list(m.DECK)
        self.shuffle(deck)
        # WB-SETUP-PILES: two piles of 20, one face down, one face up.
        self.face_down = deck[: m.PILE_SIZE]
        self.face_up = deck[m.PILE_SIZE :]
        self.players = [
            {"money": m.STARTING_MONEY, "hand": [], "city": [], "saboteurs": 0, "has_built": False}
            for _ in range(self.seats)
        ]
        self.bank = m.TOTAL_MONEY - m.STARTING_MONEY * self.seats
        self.centre_saboteurs = m.SABOTEURS
        self.public = {self.face_up[-1]: True}
        self.knows = {}
        self.type_shown = {}
        self.pools = []
        self.first = self.random_below(self.seats)  # WB-FIRST: chance picks who starts
        self.current = self.first
        self.turn = 0
        self.die = None
        self.phase = CHOOSE_PILE
        self.auction = None
        self.pending = []
        self.sabotage = None
        self.end_triggered = False
        self.final_queue = []
        self._begin_turn()  # the first player's income is rolled at once

    # ---- the protocol -----------------------------------------------------------------
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == BIDDING:
            return [self.running_auction()["bidder"]]
        if phase == RANSOM:
            return [self.discovered_sabotage()["target"]]
        return [self.current]

    def _legal_moves(self, seat: int) -> list[Move]:
        phase = self.phase
        if phase == BIDDING:
            return self._bid_moves()
        if phase == CHOOSE_PILE:
            return [{"type": "auction", "pile": pile} for pile in m.PILES if getattr(self, pile)]
        if phase == BUILD_OR_SABOTAGE or phase == FINAL_BUILD:
            moves = self._build_moves(seat)
            if phase == BUILD_OR_SABOTAGE and not self.pending:
                moves.extend(self._sabotage_moves(seat))
            if self._may_end_turn(seat):
                moves.append({"type": "end_turn"})
            return moves
        if phase == RANSOM:
            value = m.VALUE[self.discovered_sabotage()["card"]]
            moves = [{"type": "pay_ransom"}] if self.players[seat]["money"] >= value else []
            return [*moves, {"type": "refuse_ransom"}]
        if phase == TAKE_SABOTEUR:
            return [{"type": "take_saboteur", "from": s} for s in self.saboteur_holders(seat)]
        return []

    def _apply(self, seat: int, move: Move) -> list[Event]:
        kind = move["type"]
        if kind == "bid":
            return self._bid(seat, move["amount"])
        if kind == "pass":
            self.running_auction()["passed"].append(seat)
            return [event("passed", seat=seat), *self._next_bidder(seat)]
        if kind == "build":
            return self._set_out(seat, move["card"], move["end"])
        if kind == "end_turn":
            if self.pending:
                return self._commit_build(seat)
            return [event("turn_ended", seat=seat, built=[]), *self._end_turn()]
        if kind == "auction":
            return self._open_auction(seat, move["pile"])
        if kind == "sabotage_city":
            return self._sabotage_city(seat, move["target"], move["slot"])
        if kind == "sabotage_hand":
            return self._sabotage_hand(seat, move["target"])
        if kind == "pay_ransom":
            return self._pay_ransom(seat)
        if kind == "refuse_ransom":
            target = self.discovered_sabotage()["target"]
            events = [event("ransom_refused", seat=seat)]
            events += self._demolish(target, self.discovered_sabotage()["slot"])
            return events + self._end_turn()
        if kind == "take_saboteur":
            self._move_saboteur(move["from"], seat)
            self.phase = CHOOSE_PILE
            return [event("saboteur_taken", seat=seat, source=move["from"])]
        raise AssertionError(kind)

    # ---- step 1: income (WB-INCOME) -----------------------------------------------------
    def _begin_turn(self) -> list[Event]:
        self.turn += 1
        seat = self.current
        player = self.players[seat]
        face = self.roll(m.DIE_SIDES)
        self.die = face
        gates = c.coins(player["city"])
        income = gates if face == m.BLACK_DOT else face + gates
        # WB-BANK: the bank holds the box's coins only; it pays what it has.
        paid = min(income, self.bank)
        self.bank -= paid
        player["money"] += paid
        events = [
            event("turn_started", seat=seat, turn=self.turn),
            event("income", seat=seat, die=m.die_face(face), gate_coins=gates, received=paid),
        ]
        self.phase = CHOOSE_PILE
        if face == m.BLACK_DOT:
            # WB-INCOME-SABOTEUR: from the centre, else from a player of one's choice.
            if self.centre_saboteurs:
                self.centre_saboteurs -= 1
                player["saboteurs"] += 1
                events.append(event("saboteur_taken", seat=seat, source="centre"))
            else:
                holders = self.saboteur_holders(seat)
                if len(holders) == 1:
                    self._move_saboteur(holders[0], seat)
                    events.append(event("saboteur_taken", seat=seat, source=holders[0]))
                elif holders:
                    self.phase = TAKE_SABOTEUR
                else:
                    events.append(event("no_saboteur_left", seat=seat))
        return events

    def running_auction(self) -> Auction:
        assert self.auction is not None, "no auction is running"
        return self.auction

    def discovered_sabotage(self) -> Sabotage:
        assert self.sabotage is not None, "no sabotage awaits its ransom"
        return self.sabotage

    def saboteur_holders(self, seat: int) -> list[int]:
        return [s for s in range(self.seats) if s != seat and self.players[s]["saboteurs"]]

    def _move_saboteur(self, giver: int, taker: int) -> None:
        self.players[giver]["saboteurs"] -= 1
        self.players[taker]["saboteurs"] += 1

    # ---- step 2: the auction (WB-AUCTION-*) ---------------------------------------------
    def bid_ceiling(self) -> int:
        """WB-AUCTION-RAISE: no bid above what all the players hold together (90 − bank).

        Money is hidden, so a bid may exceed the bidder's own money; but a bid no player
        could ever pay is no bid at all, and the bank's coins are in plain view.
        """
        return max(m.MINIMUM_OPENING_BID, m.TOTAL_MONEY - self.bank)

    def high_bid(self) -> int:
        bids = self.running_auction()["bids"]
        return bids[-1][1] if bids else m.MINIMUM_OPENING_BID - 1

    def _bid_moves(self) -> list[Move]:
        moves: list[Move] = [{"type": "pass"}] if self.running_auction()["bids"] else []  # WB-AUCTION-OPEN
        moves.extend({"type": "bid", "amount": a} for a in range(self.high_bid() + 1, self.bid_ceiling() + 1))
        return moves

    def _open_auction(self, seat: int, pile_name: str) -> list[Event]:
        pile = getattr(self, pile_name)
        card = pile.pop()
        self.auction = {
            "pile": pile_name,
            "auctioneer": seat,
            "card": card,
            "bids": [],
            "passed": [],
            "bidder": seat,
            "came_round": False,
        }
        self.phase = BIDDING
        if pile_name == m.FACE_UP:
            events = [event("auction_opened", seat=seat, pile=pile_name, card=card)]
            if pile:
                k.publish(self, pile[-1])  # the next card of the face-up pile shows
                events.append(event("face_up_revealed", card=pile[-1]))
            return events
        # WB-AUCTION-FACE-DOWN: the auctioneer alone looks at the card.
        k.learn(self, card, [seat])
        return [secret_event("auction_opened", [seat], {"card": card}, seat=seat, pile=pile_name)]

    def _bid(self, seat: int, amount: int) -> list[Event]:
        self.running_auction()["bids"].append([seat, amount])
        return [event("bid", seat=seat, amount=amount), *self._next_bidder(seat)]

    def _next_bidder(self, after: int) -> list[Event]:
        """WB-AUCTION-ORDER: clockwise among those still in; the last one left wins."""
        auction = self.running_auction()
        high_bidder = auction["bids"][-1][0]
        passed = auction["passed"]
        seat = (after + 1) % self.seats
        while seat in passed:
            seat = (seat + 1) % self.seats
        if seat == high_bidder:
            return self._close_auction()
        events = []
        if seat == auction["auctioneer"] and not auction["came_round"]:
            auction["came_round"] = True
            if auction["pile"] == m.FACE_DOWN:
                # WB-AUCTION-KIND: the second time round, the kind is named, never the value.
                card = auction["card"]
                self.type_shown[card] = True
                events.append(event("kind_announced", seat=seat, building=m.KIND[card]))
        auction["bidder"] = seat
        return events

    def _close_auction(self) -> list[Event]:
        auction = self.running_auction()
        card, auctioneer, pile_name = auction["card"], auction["auctioneer"], auction["pile"]
        events: list[Any] = []
        winner = price = None
        defaulted: set[int] = set()
        # WB-AUCTION-DEFAULT: who cannot pay loses all money; the bid before wins.
        for seat, amount in reversed(auction["bids"]):
            if seat in defaulted:
                continue
            player = self.players[seat]
            if player["money"] >= amount:
                winner, price = seat, amount
                break
            lost = player["money"]
            player["money"] = 0
            self.bank += lost
            defaulted.add(seat)
            # WB-AUCTION-DEFAULT: the coins go to the bank in front of the table, and the
            # bank is public, so the amount is public too (WB-HIDDEN-MONEY).
            events.append(event("payment_failed", seat=seat, bid=amount, forfeited=lost))
        self.auction = None
        pile = getattr(self, pile_name)
        if winner is None:
            # Reading: no bid could be paid, so the card goes back on top of its pile.
            pile.append(card)
            events.append(event("no_sale", pile=pile_name))
        else:
            assert price is not None  # found with the winner
            # WB-AUCTION-PAY: half (rounded down) to the auctioneer, the rest to the bank.
            to_auctioneer = 0 if winner == auctioneer else price // 2
            self.players[winner]["money"] -= price
            self.players[auctioneer]["money"] += to_auctioneer
            self.bank += price - to_auctioneer
            self.players[winner]["hand"].append(card)
            fields: JSONObject = {
                "seat": winner,
                "price": price,
                "pile": pile_name,
                "to_auctioneer": to_auctioneer,
            }
            if k.known_to(self, card, None):
                events.append(event("auction_won", card=card, **fields))
            else:
                k.learn(self, card, [winner, auctioneer])
                events.append(secret_event("auction_won", [winner, auctioneer], {"card": card}, **fields))
            if self.pools:
                k.settle_all(self)
            if not pile and not self.end_triggered:
                # WB-END-TRIGGER: the last card of a pile has been auctioned.
                self.end_triggered = True
                events.append(event("pile_exhausted", pile=pile_name))
        self.phase = BUILD_OR_SABOTAGE
        self.pending = []
        return events

    # ---- step 3a: building (WB-BUILD-*) -------------------------------------------------
    def _pending_ends(self, seat: int) -> c.Ends:
        ends = c.ends_of(self.players[seat]["city"])
        for placed in self.pending:
            ends = c.place_ends(ends, m.KIND[placed["card"]], placed["end"])
        return ends

    def _build_moves(self, seat: int) -> list[Move]:
        player = self.players[seat]
        pending = self.pending
        if len(pending) >= m.MAX_CARDS_PER_BUILD:
            return []
        final = self.phase == FINAL_BUILD
        ends = self._pending_ends(seat)
        set_out = {placed["card"] for placed in pending}
        cards = sorted((card for card in player["hand"] if card not in set_out), key=m.CARD_ORDER.__getitem__)
        # WB-BUILD-FIRST: the first build is exactly three cards, so only list a card that
        # still leaves a way to lay the rest of the three.
        still_needed = 0 if player["has_built"] else m.FIRST_BUILD_CARDS - len(pending) - 1
        kinds: dict[str, int] = {}
        for card in cards:
            kinds[m.KIND[card]] = kinds.get(m.KIND[card], 0) + 1
        verdict: dict[tuple[str, str], bool] = {}
        moves = []
        for card in cards:
            kind = m.KIND[card]
            for end in m.ENDS:
                key = (kind, end)
                ok = verdict.get(key)
                if ok is None:
                    ok = c.placement_error(ends, kind, end, final) is None
                    if ok and still_needed > 0:
                        kinds[kind] -= 1
                        ok = c.can_complete(c.place_ends(ends, kind, end), kinds, still_needed, final)
                        kinds[kind] += 1
                    verdict[key] = ok
                if ok:
                    moves.append({"type": "build", "card": card, "end": end})
        return moves

    def _may_end_turn(self, seat: int) -> bool:
        """Ending the turn commits what is set out; a first build must then be three cards."""
        pending = len(self.pending)
        return not pending or self.players[seat]["has_built"] or pending >= m.FIRST_BUILD_CARDS

    def _set_out(self, seat: int, card: str, end: str) -> list[Event]:
        self.pending.append({"card": card, "end": end})
        if len(self.pending) >= m.MAX_CARDS_PER_BUILD:
            return self._commit_build(seat)
        # The partial choice stays private until it is committed (the hand is unchanged).
        return [secret_event("card_set_out", [seat], {"card": card, "end": end}, seat=seat)]

    def _commit_build(self, seat: int) -> list[Event]:
        player = self.players[seat]
        built = []
        for placed in self.pending:
            card = placed["card"]
            player["hand"].remove(card)
            c.place(player["city"], card, placed["end"])
            k.into_the_open(self, card)
            built.append({"card": card, "end": placed["end"]})
        player["has_built"] = True
        self.pending = []
        events = [event("turn_ended", seat=seat, built=built, city=list(player["city"]))]
        return events + self._end_turn()

    # ---- step 3b: sabotage (WB-SABOTAGE-*) ----------------------------------------------
    def weakest_cities(self, seat: int) -> list[int]:
        """WB-SABOTAGE-TARGET: the other built cities with the fewest shields."""
        cities = [(c.shields(p["city"]), s) for s, p in enumerate(self.players) if s != seat and p["city"]]
        if not cities:
            return []
        low = min(count for count, _ in cities)
        return [s for count, s in cities if count == low]

    def _sabotage_moves(self, seat: int) -> list[Move]:
        if not self.players[seat]["saboteurs"]:
            return []
        moves: list[Move] = []
        for target in self.weakest_cities(seat):
            for slot, card in enumerate(self.players[target]["city"]):
                if card is not None:
                    moves.append({"type": "sabotage_city", "target": target, "slot": slot})
        for target, player in enumerate(self.players):
            if target != seat and len(player["hand"]) >= m.HAND_SABOTAGE_MINIMUM:
                moves.append({"type": "sabotage_hand", "target": target})
        return moves

    def _use_saboteur(self, seat: int) -> None:
        # WB-SABOTAGE-RETURN: whatever comes of it, the saboteur goes back to the centre.
        self.players[seat]["saboteurs"] -= 1
        self.centre_saboteurs += 1

    def _sabotage_city(self, seat: int, target: int, slot: int) -> list[Event]:
        self._use_saboteur(seat)
        face = self.roll(m.DIE_SIDES)
        card = self.players[target]["city"][slot]
        assert card is not None  # only buildings are listed, never gaps
        outcome = m.SABOTAGE_OUTCOME[face]
        events = [
            event(
                "city_sabotaged",
                seat=seat,
                target=target,
                slot=slot,
                card=card,
                die=m.die_face(face),
                outcome=outcome,
            )
        ]
        if outcome == m.SABOTAGE_DISCOVERED:
            # WB-SABOTAGE-RANSOM: the target may pay the building's value to keep it.
            self.sabotage = {"saboteur": seat, "target": target, "slot": slot, "card": card, "die": face}
            self.phase = RANSOM
            return events
        if outcome == m.SABOTAGE_SUCCESS:
            events += self._demolish(target, slot)
        return events + self._end_turn()

    def _pay_ransom(self, seat: int) -> list[Event]:
        value = m.VALUE[self.discovered_sabotage()["card"]]
        self.players[seat]["money"] -= value
        self.bank += value  # reading: the ransom goes to the bank
        return [event("ransom_paid", seat=seat, amount=value), *self._end_turn()]

    def smaller_pile(self) -> str:
        """WB-SABOTAGE-PILE: the smaller pile; the face-down one when both are as big."""
        return m.FACE_UP if len(self.face_up) < len(self.face_down) else m.FACE_DOWN

    def _demolish(self, target: int, slot: int) -> list[Event]:
        city = self.players[target]["city"]
        card = city[slot]
        assert card is not None  # a building is demolished, never a gap
        c.remove(city, slot)
        pile_name = self.smaller_pile()
        getattr(self, pile_name).insert(0, card)
        k.publish(self, card)  # everyone saw the building go under the pile
        return [event("building_destroyed", target=target, card=card, pile=pile_name, city=list(city))]

    def _sabotage_hand(self, seat: int, target: int) -> list[Event]:
        self._use_saboteur(seat)
        hand = self.players[target]["hand"]
        index = self.random_below(len(hand))
        card = hand[index]
        pile_name = self.smaller_pile()
        if pile_name == m.FACE_UP:
            hand.pop(index)
            self.face_up.insert(0, card)
            k.publish(self, card)  # laid face up, everyone sees it
            events = [event("hand_sabotaged", seat=seat, target=target, pile=pile_name, card=card)]
        else:
            k.lose_secretly(self, target, hand, card)
            hand.pop(index)
            self.face_down.insert(0, card)
            events = [
                secret_event(
                    "hand_sabotaged", [target], {"card": card}, seat=seat, target=target, pile=pile_name
                )
            ]
        return events + self._end_turn()

    # ---- turns and the end (WB-END-*) ---------------------------------------------------
    def _end_turn(self) -> list[Event]:
        self.pending = []
        self.sabotage = None
        if self.phase == FINAL_BUILD:
            self.final_queue.pop(0)
            if self.final_queue:
                self.current = self.final_queue[0]
                return []
            self.phase = OVER
            return [event("game_over", result=self.final_result().to_dict())]
        if self.end_triggered:
            # WB-END-FINAL-ROUND: after this turn each player, this one last, may add up
            # to three cards; only now may a second corner tower be laid.
            order = [(self.current + step) % self.seats for step in range(1, self.seats + 1)]
            self.final_queue = order
            self.current = order[0]
            self.phase = FINAL_BUILD
            return [event("final_round", order=list(order))]
        self.current = (self.current + 1) % self.seats
        return self._begin_turn()

    # ---- what seats see ---------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        over = self.phase == OVER
        pooled = k.pooled_for(self, seat) if self.pools else set()
        players = []
        for s, player in enumerate(self.players):
            shown: dict[str, Any] = {
                "seat": s,
                "city": list(player["city"]),
                "city_value": c.value(player["city"]),
                "shields": c.shields(player["city"]),
                "coins": c.coins(player["city"]),
                "saboteurs": player["saboteurs"],
                "hand_size": len(player["hand"]),
                "has_built": player["has_built"],
            }
            if s == seat or over:
                shown["hand"] = sorted(player["hand"], key=m.CARD_ORDER.__getitem__)
            else:
                known, kinds = self._hand_knowledge(player["hand"], seat, pooled)
                shown["known_cards"] = known
                shown["known_kinds"] = kinds
            if s == seat:
                shown["money"] = player["money"]
                if s == self.current and self.pending:
                    shown["set_out"] = [dict(placed) for placed in self.pending]
            players.append(shown)
        return {
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "first_player": self.first,
            "die": None if self.die is None else m.die_face(self.die),
            "bank": self.bank,
            "bid_ceiling": self.bid_ceiling(),
            "centre_saboteurs": self.centre_saboteurs,
            "face_up": self._pile_view(self.face_up, seat, pooled, face_up=True),
            "face_down": self._pile_view(self.face_down, seat, pooled, face_up=False),
            "smaller_pile": self.smaller_pile(),
            "auction": self._auction_view(seat, pooled),
            "sabotage": None
            if self.sabotage is None
            else {
                "saboteur": self.sabotage["saboteur"],
                "target": self.sabotage["target"],
                "slot": self.sabotage["slot"],
                "card": self.sabotage["card"],
                "die": m.die_face(self.sabotage["die"]),
            },
            "players": players,
            "end_triggered": self.end_triggered,
            "final_queue": list(self.final_queue),
            "options": dict(self.options),
        }

    def _hand_knowledge(self, hand: list[str], seat: int | None, pooled: set[str]) -> tuple[list, list]:
        known, kinds = [], []
        for card in hand:
            if k.known_to(self, card, seat):
                known.append(card)
            elif card in self.type_shown and card not in pooled:
                kinds.append(m.KIND[card])
        known.sort(key=m.CARD_ORDER.__getitem__)
        kinds.sort(key=m.KINDS.index)
        return known, kinds

    def _pile_view(self, pile: list[str], seat: int | None, pooled: set[str], face_up: bool) -> dict:
        known, kinds = [], []
        size = len(pile)
        for index, card in enumerate(pile):
            depth = size - 1 - index  # 0 = the top card
            if k.known_to(self, card, seat):
                known.append({"depth": depth, "card": card})
            elif card in self.type_shown and card not in pooled:
                kinds.append({"depth": depth, "kind": m.KIND[card]})
        known.reverse()
        kinds.reverse()
        shown: dict[str, Any] = {"size": size, "known": known, "known_kinds": kinds}
        if face_up:
            shown["top"] = pile[-1] if pile else None
        return shown

    def _auction_view(self, seat: int | None, pooled: set[str]) -> dict[str, Any] | None:
        auction = self.auction
        if auction is None:
            return None
        card = auction["card"]
        known = k.known_to(self, card, seat)
        kind_shown = card in self.type_shown and card not in pooled
        bids = auction["bids"]
        return {
            "pile": auction["pile"],
            "auctioneer": auction["auctioneer"],
            "card": card if known else None,
            "kind": m.KIND[card] if known or kind_shown else None,
            "bids": [{"seat": s, "amount": a} for s, a in bids],
            "high_bid": bids[-1][1] if bids else None,
            "high_bidder": bids[-1][0] if bids else None,
            "passed": sorted(auction["passed"]),
            "bidder": auction["bidder"],
            "came_round": auction["came_round"],
        }

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        breakdown: list[dict[str, object]] = []
        scores: list[int] = []
        for player in self.players:
            scored = c.score(player["city"], player["hand"])
            scores.append(scored["total"])
            hand = sorted(player["hand"], key=m.CARD_ORDER.__getitem__)
            breakdown.append({**scored, "city": list(player["city"]), "hand": hand})
        # WB-WINNER: the highest total wins; the rulebook names no tie-break.
        return Result(scores, ranks_from_keys([(s,) for s in scores]), breakdown, "pile_exhausted")

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Re-deal what ``seat`` cannot locate (knowledge.py); money is never re-dealt.

        Every payment is made in front of the table (income, bids, the auctioneer's half,
        ransoms), so a seat that remembers knows each player's money even though the screen
        hides it from the view. Cards another seat has set out but not committed are put
        back in its hand: the seat does not know that a build has begun.
        """
        if self.pending and self.current != seat:
            self.pending = []
        k.redeal(self, seat, rng)

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        from .explain import explain

        return explain(self, seat, move)

    def label(self, move: Move) -> Message:
        kind = move["type"]
        if kind == "auction":
            if move["pile"] == m.FACE_UP:
                return say("wettstreit.label.auction_face_up", card=m.the_card(self.face_up[-1]))
            return say("wettstreit.label.auction_face_down")
        if kind == "bid":
            opening = not self.running_auction()["bids"]
            return say("wettstreit.label.open" if opening else "wettstreit.label.bid", count=move["amount"])
        if kind == "pass":
            return say("wettstreit.label.pass")
        if kind == "build":
            built = m.the_card(move["card"])
            if not self.players[self.current]["city"] and not self.pending:
                return say("wettstreit.label.start_city", card=built)
            return say(f"wettstreit.label.build_at_{move['end']}", card=built)
        if kind == "end_turn":
            if self.pending:
                return say("wettstreit.label.build_set_out")
            final = self.phase == FINAL_BUILD
            return say("wettstreit.label.end_turn_final" if final else "wettstreit.label.end_turn")
        if kind == "sabotage_city":
            building = self.players[move["target"]]["city"][move["slot"]]
            assert building is not None  # only buildings are listed, never gaps
            return say("wettstreit.label.sabotage_city", seat=move["target"], card=m.the_card(building))
        if kind == "sabotage_hand":
            return say("wettstreit.label.sabotage_hand", seat=move["target"])
        if kind == "pay_ransom":
            card = self.discovered_sabotage()["card"]
            return say("wettstreit.label.pay_ransom", count=m.VALUE[card], card=m.the_card(card))
        if kind == "refuse_ransom":
            return say("wettstreit.label.refuse_ransom", card=m.the_card(self.discovered_sabotage()["card"]))
        return say("wettstreit.label.take_saboteur", seat=move["from"])
