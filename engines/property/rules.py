"""Property (Sid Sackson, 1969): claim squares of an 8×8 grid with a red and a black card.

Rulebook: seeds/new-york-and-property.fr.txt, "PROPERTY"; rule ids in docs/rules/property.md.

A turn: play one red card (column) and one black card (row) — 9s and 10s are wild within
their colour. An empty square is claimed; an opponent's square costs rent ($1 per square
of the owner's connected group, doubled by a ♥ or a ♠, quadrupled by both), after which
the square may be bought for one purchasing unit per square of the group; one's own
square is mortgaged, and lost if already mortgaged. Then the hand is refilled until it
holds both colours. The first bankruptcy ends the game (or the second or third, as an
option); the richest player wins.

Hidden: each hand, and the order of the stock. Everything else is on the table: money,
purchasing units (face up), the grid, the discard pile. Chance: the cut for first player
and every shuffle, drawn from the state's generator.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import TypedDict

from ..core import (
    Event,
    IllegalMove,
    InvalidMove,
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
from ..core.cards import draw, refill_from_discard
from . import material as m

PLAY, BUY = "play", "buy"

# The cards a hidden hand slot may hold, by (stock epoch, red): None for either colour when no
# colour pattern fits (redeal_hidden).
Pools = dict[tuple[int, bool | None], list[str]]
# How many cards of each (epoch, red) a colour pattern of a hand needs.
Need = dict[tuple[int, bool], int]
# A hand's colour pattern: the majority colour (red?), the lone slot (-1: none), its needs.
Candidate = tuple[bool, int, Need]


class Square(TypedDict):
    owner: int
    mortgaged: bool


class Player(TypedDict):
    hand: list[str]
    # The stock epoch (reshuffles so far) each card of the hand was drawn in.
    hand_epochs: list[int]
    money: int
    units: dict[str, int]
    bankrupt: bool


class Purchase(TypedDict):
    """The square on offer after a rent, at one purchasing unit per square of its group."""

    column: int
    row: int
    owner: int
    price: int


class PropertyState(State):
    move_types = ("play", "buy", "decline", "pass")

    # The attributes, all plain JSON (see State).
    grid: list[list[Square | None]]  # 8 rows (row 1 first) of 8 squares
    players: list[Player]
    stock: list[str]  # top = end
    discard: list[str]
    stock_epoch: int  # reshuffles of the discard into the stock so far
    current: int
    phase: str
    pending: Purchase | None
    bankrupt_order: list[int]
    turn: int
    cut: list[dict[str, str]]  # each round of the cut for first player: seat (a string) -> card

    def setup(self) -> None:
        seats = self.seats
        unit_hands = [dict(h) for h in m.UNIT_HANDS[seats]]
        self.shuffle(unit_hands)
        money = m.starting_money(seats)
        self.players = [
            {
                "hand": [],
                "hand_epochs": [],
                "money": money,
                "units": {kind: unit_hands[s].get(kind, 0) for kind in m.UNIT_KINDS},
                "bankrupt": False,
            }
            for s in range(seats)
        ]
        self.grid = [[None] * m.GRID_SIZE for _ in range(m.GRID_SIZE)]
        self.discard = []
        self.stock_epoch = 0
        self.bankrupt_order = []
        self.turn = 0
        self.phase = PLAY
        self.pending = None
        self.current = self._cut_for_first_player()
        self.stock = list(m.DECK)
        self.shuffle(self.stock)
        for offset in range(seats):
            seat = (self.current + offset) % seats
            self._refill_hand(seat)

    def _cut_for_first_player(self) -> int:
        """Rule P-FIRST: each cuts a card; the highest (ace = 1) starts; ties cut again."""
        deck = list(m.DECK)
        self.shuffle(deck)
        contenders = list(range(self.seats))
        self.cut = []
        while True:
            cards = {seat: deck.pop() for seat in contenders}
            self.cut.append({str(seat): card for seat, card in cards.items()})
            best = max(m.card_rank(c) for c in cards.values())
            contenders = [s for s in contenders if m.card_rank(cards[s]) == best]
            if len(contenders) == 1:
                return contenders[0]
            if len(deck) < len(contenders):
                deck = list(m.DECK)
                self.shuffle(deck)

    # ---- the protocol -----------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self._finished() else [self.current]

    def _finished(self) -> bool:
        solvent = self.seats - len(self.bankrupt_order)
        return len(self.bankrupt_order) >= self.options["bankruptcies_to_end"] or solvent < 2

    def _legal_moves(self, seat: int) -> list[Move]:
        if self.phase == BUY:
            return self._purchase_moves(seat)
        moves = self._play_moves(seat)
        return moves or [{"type": "pass"}]

    def _play_moves(self, seat: int) -> list[Move]:
        hand = self.players[seat]["hand"]
        red_of = m.RED
        reds = _distinct_plays([c for c in hand if red_of[c]])
        blacks = _distinct_plays([c for c in hand if not red_of[c]])
        numbers = m.NUMBERS
        return [
            {"type": "play", "red": red, "black": black, "column": column, "row": row}
            for red in reds
            for black in blacks
            for column in numbers[red]
            for row in numbers[black]
        ]

    def _purchase_moves(self, seat: int) -> list[Move]:
        assert self.pending is not None  # the buy phase has a purchase on offer
        price = self.pending["price"]
        units = self.players[seat]["units"]
        moves: list[Move] = [{"type": "buy", "pay": pay} for pay in minimal_payments(units, price)]
        moves.append({"type": "decline"})
        return moves

    def label(self, move: Move) -> Message:
        kind = move["type"]
        if kind == "play":
            column, row = move["column"], move["row"]
            target = self._square(column, row)
            where = {
                "red": m.card_text(move["red"]),
                "black": m.card_text(move["black"]),
                "column": column,
                "row": row,
            }
            if target is None:
                return say("property.label.claim", **where)
            if target["owner"] == self.current:
                what = "lose" if target["mortgaged"] else "mortgage"
                return say(f"property.label.{what}", **where)
            rent = self.rent(column, row, move["red"], move["black"])
            return say("property.label.rent", **where, rent=rent, owner=target["owner"])
        if kind == "buy":
            paid = [say(f"property.unit.{k}", count=n) for k, n in move["pay"].items() if n]
            return say("property.label.buy", paid=paid)
        if kind == "decline":
            return say("property.label.decline")
        return say("property.label.pass")

    def _apply(self, seat: int, move: Move) -> list[Event]:
        events: list[Event] = []
        kind = move["type"]
        if kind == "play":
            events.extend(self._play(seat, move))
        elif kind == "buy":
            events.extend(self._buy(seat, move["pay"]))
        elif kind == "decline":
            self.phase, self.pending = PLAY, None
            events.append(event("purchase_declined", seat=seat))
        if self.phase == PLAY and not self._finished():
            events.extend(self._end_turn(seat))
        elif self._finished():
            events.append(event("game_over", result=self.final_result().to_dict()))
        return events

    # ---- a turn -------------------------------------------------------------------
    def _play(self, seat: int, move: Move) -> list[Event]:
        player = self.players[seat]
        for card in (move["red"], move["black"]):
            index = player["hand"].index(card)
            del player["hand"][index]
            del player["hand_epochs"][index]
            self.discard.append(card)
        column, row = move["column"], move["row"]
        events = [
            event("cards_played", seat=seat, red=move["red"], black=move["black"], column=column, row=row)
        ]
        square = self._square(column, row)
        if square is None:
            self.grid[row - 1][column - 1] = {"owner": seat, "mortgaged": False}
            events.append(event("square_claimed", seat=seat, column=column, row=row))
        elif square["owner"] == seat:
            if square["mortgaged"]:
                self.grid[row - 1][column - 1] = None
                events.append(event("square_lost", seat=seat, column=column, row=row))
            else:
                square["mortgaged"] = True
                events.append(event("square_mortgaged", seat=seat, column=column, row=row))
        else:
            events.extend(self._pay_rent(seat, square["owner"], move))
        return events

    def _pay_rent(self, seat: int, owner: int, move: Move) -> list[Event]:
        column, row = move["column"], move["row"]
        group = len(self.group(column, row))
        rent = self.rent(column, row, move["red"], move["black"])
        payer = self.players[seat]
        if rent > payer["money"]:
            paid = payer["money"]
            payer["money"] = 0
            self.players[owner]["money"] += paid
            return [
                event("rent_paid", seat=seat, owner=owner, amount=paid, rent=rent, group=group),
                *self._go_bankrupt(seat),
            ]
        payer["money"] -= rent
        self.players[owner]["money"] += rent
        events = [event("rent_paid", seat=seat, owner=owner, amount=rent, rent=rent, group=group)]
        if m.unit_total(payer["units"]) >= group:
            self.phase = BUY
            self.pending = {"column": column, "row": row, "owner": owner, "price": group}
            events.append(event("purchase_offered", seat=seat, column=column, row=row, price=group))
        return events

    def _go_bankrupt(self, seat: int) -> list[Event]:
        """Rule P-BANKRUPT (and P-OPT-LONGER: a bankrupt player's squares become vacant)."""
        player = self.players[seat]
        player["bankrupt"] = True
        self.bankrupt_order.append(seat)
        events = [event("bankrupt", seat=seat)]
        if not self._finished():
            for row in self.grid:
                for column, square in enumerate(row):
                    if square is not None and square["owner"] == seat:
                        row[column] = None
            self.discard.extend(player["hand"])
            events.append(event("hand_discarded", seat=seat, cards=list(player["hand"])))
            player["hand"] = []
            player["hand_epochs"] = []
        return events

    def _buy(self, seat: int, pay: dict[str, int]) -> list[Event]:
        pending = self.pending
        assert pending is not None  # the buy phase has a purchase on offer
        owner = pending["owner"]
        for kind, count in pay.items():
            self.players[seat]["units"][kind] -= count
            self.players[owner]["units"][kind] += count
        square = self.grid[pending["row"] - 1][pending["column"] - 1]
        assert square is not None  # the square on offer is the owner's
        square["owner"] = seat
        self.phase, self.pending = PLAY, None
        return [
            event(
                "square_bought",
                seat=seat,
                owner=owner,
                column=pending["column"],
                row=pending["row"],
                paid=dict(pay),
                mortgaged=square["mortgaged"],
            )
        ]

    def _end_turn(self, seat: int) -> list[Event]:
        events = [] if self.players[seat]["bankrupt"] else self._refill_hand(seat)
        self.turn += 1
        self.current = self._next_seat(seat)
        return events

    def _next_seat(self, seat: int) -> int:
        for offset in range(1, self.seats + 1):
            candidate = (seat + offset) % self.seats
            if not self.players[candidate]["bankrupt"]:
                return candidate
        return seat

    def _refill_hand(self, seat: int) -> list[Event]:
        """Rules P-HAND and P-DRAW: draw until the hand holds a red and a black card."""
        player = self.players[seat]
        drawn: list[str] = []
        events = []
        while not _has_both_colours(player["hand"]):
            if refill_from_discard(self.stock, self.discard, self.shuffle):
                self.stock_epoch += 1
                events.append(event("stock_reshuffled", size=len(self.stock)))
            if not self.stock:
                break
            card = draw(self.stock)[0]
            player["hand"].append(card)
            player["hand_epochs"].append(self.stock_epoch)
            drawn.append(card)
        if drawn:
            events.append(secret_event("cards_drawn", [seat], {"cards": drawn}, seat=seat, count=len(drawn)))
        return events

    # ---- rent ---------------------------------------------------------------------
    def _square(self, column: int, row: int) -> Square | None:
        return self.grid[row - 1][column - 1]

    def group(self, column: int, row: int) -> list[tuple[int, int]]:
        """Rule P-GROUP: the owner's squares joined to this one by sides, itself included."""
        square = self._square(column, row)
        assert square is not None, "only an owned square has a group"
        owner = square["owner"]
        seen = {(column, row)}
        frontier = [(column, row)]
        while frontier:
            c, r = frontier.pop()
            for nc, nr in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if 1 <= nc <= m.GRID_SIZE and 1 <= nr <= m.GRID_SIZE and (nc, nr) not in seen:
                    square = self._square(nc, nr)
                    if square is not None and square["owner"] == owner:
                        seen.add((nc, nr))
                        frontier.append((nc, nr))
        return sorted(seen)

    def rent(self, column: int, row: int, red: str, black: str) -> int:
        """Rules P-RENT and P-RENT-SUIT: $1 per square of the group, times the suit factors."""
        factor = m.SUIT_FACTOR[m.card_suit(red)] * m.SUIT_FACTOR[m.card_suit(black)]
        return len(self.group(column, row)) * factor

    # ---- what seats see -------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        players = []
        for s, player in enumerate(self.players):
            shown = {
                "seat": s,
                "money": player["money"],
                "units": dict(player["units"]),
                "unit_total": m.unit_total(player["units"]),
                "hand_size": len(player["hand"]),
                "bankrupt": player["bankrupt"],
            }
            if s == seat:
                shown["hand"] = sorted(player["hand"], key=_card_order)
            players.append(shown)
        return {
            "grid": [[None if sq is None else dict(sq) for sq in row] for row in self.grid],
            "players": players,
            "current": self.current,
            "phase": self.phase,
            "pending_purchase": None if self.pending is None else dict(self.pending),
            "stock_size": len(self.stock),
            "discard": list(self.discard),
            "turn": self.turn,
            "first_player_cut": [dict(c) for c in self.cut],
            "bankrupt_order": list(self.bankrupt_order),
            "options": dict(self.options),
        }

    def result(self) -> Result | None:
        if not self._finished():
            return None
        counts = self.property_counts()
        with_property = self.options["property_value"]
        scores, breakdown, keys = [], [], []
        for s, player in enumerate(self.players):
            value = counts[s] * m.PROPERTY_END_VALUE if with_property else 0
            scores.append(player["money"] + value)
            breakdown.append({"money": player["money"], "property": value, "squares": counts[s]})
            # Rule P-WINNER: solvent players by fortune; the bankrupt behind, last out first.
            solvent = 0 if player["bankrupt"] else 1
            out = self.bankrupt_order.index(s) if player["bankrupt"] else 0
            keys.append((solvent, scores[-1] if solvent else out))
        return Result(scores, ranks_from_keys(keys), breakdown, "bankruptcy")

    def property_counts(self) -> list[int]:
        counts = [0] * self.seats
        for row in self.grid:
            for square in row:
                if square is not None:
                    counts[square["owner"]] += 1
        return counts

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Re-deal other hands and the stock, keeping what ``seat`` knows.

        ``seat`` knows each hand's size, the stock epoch each of those cards was drawn
        from (cards drawn after a reshuffle come from the discards it saw), and each hand's
        colour shape: one card of one colour and the rest of the other, because a hand is
        refilled only until the missing colour comes; which colour is the lone one it does
        not know. So first a colour pattern is drawn for every hand (the lone colour and
        slot at random) until each epoch's cards can fill it; then the cards of each epoch
        and colour are shuffled into their slots, the current epoch's rest into the stock.
        Everything here depends only on what ``seat`` knows and on ``rng``.
        """
        others = [s for s in range(self.seats) if s != seat]
        slots = [(s, i, e) for s in others for i, e in enumerate(self.players[s]["hand_epochs"])]
        pools: Pools = {}
        for s, i, epoch in slots:
            card = self.players[s]["hand"][i]
            pools.setdefault((epoch, m.is_red(card)), []).append(card)
        for card in self.stock:
            pools.setdefault((self.stock_epoch, m.is_red(card)), []).append(card)
        pattern = self._colour_pattern(others, pools, rng)
        dealt = {s: list(self.players[s]["hand"]) for s in others}
        stock: list[str] = []
        if pattern is None:  # no pattern fits (never seen): keep only sizes and epochs
            pattern = {}
            for key in list(pools):
                pools[(key[0], None)] = pools.pop(key) + pools.get((key[0], None), [])
        for (epoch, red), cards in sorted(pools.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            pool = sorted(cards)
            rng.shuffle(pool)
            for s, i, e in slots:
                if e == epoch and pattern.get((s, i), None) is red:
                    dealt[s][i] = pool.pop()
            stock.extend(pool)  # only the current epoch has cards left over
        rng.shuffle(stock)
        for s in others:
            self.players[s]["hand"] = dealt[s]
        self.stock = stock

    def _colour_pattern(
        self, others: list[int], pools: Pools, rng: random.Random
    ) -> dict[tuple[int, int], bool] | None:
        """A colour for every hidden hand slot, fitting each hand's shape and the epochs' cards."""

        def counts(s: int, majority_red: bool, lone_slot: int) -> Need:
            need: Need = {}
            for i, epoch in enumerate(self.players[s]["hand_epochs"]):
                key = (epoch, majority_red != (i == lone_slot))
                need[key] = need.get(key, 0) + 1
            return need

        # Each hand's possible patterns, keeping those its epochs' cards could fill alone.
        candidates: dict[int, list[Candidate]] = {}
        for s in others:
            lone, size = _colour_shape(self.players[s]["hand"])
            options = [(red, slot) for red in (True, False) for slot in (range(size) if lone else [-1])]
            candidates[s] = [
                (red, slot, need)
                for red, slot in options
                for need in [counts(s, red, slot)]
                if all(n <= len(pools.get(key, ())) for key, n in need.items())
            ]
            if not candidates[s]:
                return None

        def fits(total: Need, complete: bool) -> bool:
            for key, n in total.items():
                available = len(pools.get(key, ()))
                if n > available or (complete and key[0] != self.stock_epoch and n != available):
                    return False
            return not complete or all(
                key[0] == self.stock_epoch or key in total for key, cards in pools.items() if cards
            )

        def add(total: Need, need: Need) -> Need:
            merged = dict(total)
            for key, n in need.items():
                merged[key] = merged.get(key, 0) + n
            return merged

        def pattern_of(chosen: dict[int, Candidate]) -> dict[tuple[int, int], bool]:
            return {
                (s, i): red != (i == slot)
                for s, (red, slot, _) in chosen.items()
                for i in range(len(self.players[s]["hand"]))
            }

        # Draw whole patterns at random; rarely (tight old epochs) none fits in time, and a
        # depth-first search in random order finds one (the truth proves one exists).
        for _ in range(100):
            chosen = {s: rng.choice(candidates[s]) for s in others}
            total: Need = {}
            for _, _, need in chosen.values():
                total = add(total, need)
            if fits(total, complete=True):
                return pattern_of(chosen)

        def search(index: int, total: Need, chosen: dict[int, Candidate]) -> dict[int, Candidate] | None:
            if index == len(others):
                return chosen if fits(total, complete=True) else None
            s = others[index]
            for candidate in rng.sample(candidates[s], len(candidates[s])):
                merged = add(total, candidate[2])
                if fits(merged, complete=False):
                    found = search(index + 1, merged, {**chosen, s: candidate})
                    if found is not None:
                        return found
            return None

        found = search(0, {}, {})
        return None if found is None else pattern_of(found)

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        return explain(self, seat, move)

    def equivalent_move(self, seat: int, move: Move) -> Move | None:
        """Rule P-WILD: « Les 9 et les 10 peuvent être utilisés… » alike, so a play with the
        10 of a suit whose 9 is also in hand is the listed play with the 9 (the listing
        names one card per way of playing, ``_distinct_plays``)."""
        if move.get("type") != "play":
            return None
        hand = self.players[seat]["hand"]
        listed = {m.PLAY_CLASS[card]: card for card in _distinct_plays(hand)}
        same = dict(move)
        for field in ("red", "black"):
            card = move.get(field)
            if isinstance(card, str) and card in hand:
                same[field] = listed[m.PLAY_CLASS[card]]
        return same if same != move else None


def _has_both_colours(hand: list[str]) -> bool:
    reds = sum(1 for card in hand if m.RED[card])
    return 0 < reds < len(hand)


def _colour_shape(hand: list[str]) -> tuple[int, int]:
    reds = sum(1 for card in hand if m.RED[card])
    return (min(reds, len(hand) - reds), len(hand))


def _numbers(card: str) -> tuple[int, ...]:
    """Rule P-WILD: the numbers a card can stand for."""
    return m.NUMBERS[card]


def _card_order(card: str) -> tuple[str, int]:
    return m.ORDER[card]


def _distinct_plays(cards: list[str]) -> list[str]:
    """Cards worth listing: a 9 and a 10 of one suit do the same, so list only the lower."""
    chosen: dict[tuple[str, int], str] = {}
    for card in sorted(cards, key=m.ORDER.__getitem__):
        chosen.setdefault(m.PLAY_CLASS[card], card)
    return list(chosen.values())


def minimal_payments(units: dict[str, int], price: int) -> list[dict[str, int]]:
    """Rule P-BUY-PAY: every way to pay at least ``price`` units with no card to spare.

    No change is given, so a payment where some card could be left out is never wise;
    listing only minimal ones keeps the choice short.
    """
    held = tuple(units.get(kind, 0) for kind in m.UNIT_KINDS)
    return [dict(zip(m.UNIT_KINDS, counts, strict=True)) for counts in _minimal_payments(held, price)]


@functools.lru_cache(maxsize=4096)
def _minimal_payments(held: tuple[int, ...], price: int) -> tuple[tuple[int, ...], ...]:
    values = [m.UNIT_VALUES[kind] for kind in m.UNIT_KINDS]
    out = []
    for counts in itertools.product(*(range(n + 1) for n in held)):
        total = sum(v * n for v, n in zip(values, counts, strict=True))
        if total >= price and all(total - v < price for v, n in zip(values, counts, strict=True) if n):
            out.append(counts)
    return tuple(out)


def explain(state: PropertyState, seat: int, move: Move) -> IllegalMove:
    """Name the rule that refuses a move that is not listed."""
    kind = move["type"]
    player = state.players[seat]
    if state.phase == BUY and kind in ("play", "pass"):
        return IllegalMove("purchase_pending", say("property.refusal.purchase_pending"))
    if state.phase == PLAY and kind in ("buy", "decline"):
        return IllegalMove("no_purchase_offered", say("property.refusal.no_purchase_offered"))
    if kind == "pass":
        return IllegalMove("must_play", say("property.refusal.must_play"))
    if kind == "play":
        expected = {"type", "red", "black", "column", "row"}
        if set(move) != expected:
            return InvalidMove("malformed_move", say("property.refusal.play_fields"))
        red, black, column, row = move["red"], move["black"], move["column"], move["row"]
        for field, card, want_red in (("red", red, True), ("black", black, False)):
            if not isinstance(card, str) or card not in m.DECK:
                return IllegalMove("no_such_card", say("property.refusal.no_such_card", card=repr(card)))
            if m.RED[card] != want_red:
                return IllegalMove("wrong_colour", say(f"property.refusal.wrong_colour.{field}"))
            if card not in player["hand"]:
                return IllegalMove(
                    "card_not_in_hand", say("property.refusal.card_not_in_hand", card=m.card_text(card))
                )
        for name, value, card in (("column", column, red), ("row", row, black)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 8:
                return IllegalMove("no_such_square", say(f"property.refusal.no_such_square.{name}"))
            if value not in _numbers(card):
                return IllegalMove(
                    "card_does_not_designate",
                    say(
                        f"property.refusal.card_does_not_designate.{name}",
                        card=m.card_text(card),
                        number=m.card_rank(card),
                        value=value,
                    ),
                )
        return IllegalMove("play_not_available", say("property.refusal.play_not_available"))
    if kind == "buy":
        pay = move.get("pay")
        if set(move) != {"type", "pay"} or not isinstance(pay, dict) or set(pay) != set(m.UNIT_KINDS):
            return InvalidMove(
                "malformed_move", say("property.refusal.payment_fields", kinds=", ".join(m.UNIT_KINDS))
            )
        for kind_name, count in pay.items():
            if not isinstance(count, int) or isinstance(count, bool):
                return InvalidMove("malformed_move", say("property.refusal.count_not_integer"))
            if count < 0:
                return IllegalMove("negative_count", say("property.refusal.negative_count"))
            if count > player["units"][kind_name]:
                return IllegalMove(
                    "units_not_held",
                    say(
                        "property.refusal.units_not_held",
                        units=say(f"property.unit.{kind_name}", count=count),
                    ),
                )
        assert state.pending is not None  # a buy is refused as no_purchase_offered without one
        price = state.pending["price"]
        if m.unit_total(pay) < price:
            return IllegalMove("not_enough_units", say("property.refusal.not_enough_units", count=price))
        return IllegalMove("payment_not_minimal", say("property.refusal.payment_not_minimal"))
    return IllegalMove("illegal_move", say("property.refusal.illegal_move"))
