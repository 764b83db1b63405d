"""Fifth Avenue (Wilko Manz, alea 2004): skyscrapers beside the right shops, won at auction.

Rulebook: seeds/fifth-avenue.fr.txt; rule ids in docs/rules/fifth-avenue.md.

Setup is played: the seats place the 7 initial shops (one drawn tile at a time), then two
skyscrapers each in snake order (option ``quick_start`` deals both at random). A turn is
one action, A to D, played in three phases: (1) A takes 3 skyscrapers, B places a shop of
the active block, C draws a black card and moves a commission pawn, D scores a district
holding a pawn; (2) A–C take two colour cards of different colours, D draws two black
cards (and every player without a skyscraper in that district one); (3) a commission pawn
moves. A pawn moved from Central Park back to Start stops the turn for the auctions
(auction.py); the turn then goes on. The 12th shop placed or the second building stop
ends the game; every open district and Central Park are then scored.

Hidden: the secret cards of each hand, the unseen part of the piles, the order of the face-
down shop tiles, and a seat's unfinished bid (its draft). Chance: every shuffle, the black
draws, Gédéon's bid and the three tiles revealed from under Central Park, all from the
state's generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TypedDict

from ..core import (
    Event,
    IllegalMove,
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
from . import auction, board, piles, scoring
from . import material as m
from .auction import Auction
from .explain import explain
from .view import build_view

SETUP_PHASES = ("initial_shop", "initial_skyscraper")
TURN_PHASES = ("choose_action", "place_shop", "score_district", "move_commission", "take_cards")
ACTIONS = ("A", "B", "C", "D")
Events = list[Event]


class Player(piles.Hand):
    score: int
    points: dict[str, int]  # by scoring category (scoring.CATEGORIES)
    reserve: int  # skyscrapers ready to build
    supply: int  # skyscrapers still in the common supply for this player
    park: int  # skyscrapers beside Central Park
    boxed: int  # skyscrapers removed by building stops


class Gedeon(TypedDict):
    supply: int
    boxed: int


class Turn(TypedDict):
    action: str | None
    step: int  # the phase of the action, 1 to 3
    taken: list[str]  # colours of the cards taken this turn


class SetupStep(TypedDict):
    tile: str | None  # the initial shop tile to place
    placed: int
    order: list[int]  # the snake order of the initial skyscrapers
    index: int


class End(TypedDict):
    reason: str
    revealed: list[str]  # tiles revealed from under Central Park


class FifthAvenueState(State):
    move_types = (
        "place_initial_shop",
        "place_initial_skyscraper",
        "choose_action",
        "place_shop",
        "score_district",
        "move_commission",
        "take_card",
        "add_card",
        "bid",
        "pass",
        "build",
        "close_district",
    )

    # The attributes, all plain JSON (see State).
    districts: list[board.District]
    pawns: dict[str, str]  # where each commission pawn is
    expertise: dict[str, list[str]]  # the districts holding each colour's tokens
    closed_order: list[str]  # districts closed, in order
    blocks: list[list[str]]  # the shop supply, 8 blocks left to right
    under_park: list[str]  # tiles under Central Park
    boxed_tiles: list[str]  # shops removed by building stops
    tile_bag: list[str]  # face-down shop tiles (hidden order)
    shops_placed: int  # by the players in play
    colour_piles: dict[str, piles.Pile[str]]  # see piles.py
    black_pile: piles.Pile[piles.BlackCard]
    players: list[Player]
    gedeon: Gedeon | None  # Gédéon's skyscrapers (two players)
    phase: str
    current: int
    turn: Turn
    setup_step: SetupStep
    auction: Auction | None
    end: End | None

    def running_auction(self) -> Auction:
        assert self.auction is not None, "no auction is going on"
        return self.auction

    def gedeon_skyscrapers(self) -> Gedeon:
        assert self.gedeon is not None, "Gédéon plays only in the two-player game"
        return self.gedeon

    def game_end(self) -> End:
        assert self.end is not None, "the game is not over"
        return self.end

    @property
    def rings(self) -> tuple[tuple[str, ...], ...]:
        return m.rings(self.options["six_plot_board"])

    # ---- setup (rules FA-SETUP-*) ------------------------------------------------------------
    def setup(self) -> None:
        seats = self.seats
        self.districts = [{"closed": False, "plots": [board.new_plot() for _ in ring]} for ring in self.rings]
        self.pawns = {pawn: m.START for pawn in m.PAWNS}
        self.expertise = {pawn: [] for pawn in m.PAWNS}
        self.closed_order = []
        self.blocks = [[] for _ in m.SUPPLY_BLOCKS]
        self.under_park = []
        self.boxed_tiles = []
        self.shops_placed = 0
        self.players = [
            {
                "hand": [],
                "shown": [],
                "score": 0,
                "points": {category: 0 for category in scoring.CATEGORIES},
                "reserve": m.INITIAL_RESERVE,
                "supply": m.COMMON_SUPPLY,
                "park": 0,
                "boxed": 0,
            }
            for _ in range(seats)
        ]
        self.gedeon = {"supply": m.GEDEON_SKYSCRAPERS, "boxed": 0} if seats == 2 else None
        # Colour cards: one of each colour to every player face down, then the piles face up.
        self.colour_piles = {}
        for colour in m.COLOURS:
            cards = [c for c in m.COLOUR_DECK if m.CARD_KIND[c] == colour]
            self.shuffle(cards)
            for player in self.players:
                piles.give(player, cards.pop(0), seen=False)
            self.colour_piles[colour] = piles.new_pile(cards)
        cards = list(m.BLACK_DECK)
        self.shuffle(cards)
        for player in self.players:
            for _ in range(m.INITIAL_BLACK_CARDS):
                piles.give(player, cards.pop(0), seen=False)
        self.black_pile = piles.new_pile(cards)
        self.tile_bag = list(m.SHOP_TILES)
        self.shuffle(self.tile_bag)
        self.current = 0  # the first player (rule FA-FIRST)
        self.turn = {"action": None, "step": 0, "taken": []}
        self.auction = None
        self.end = None
        self.phase = "initial_shop"
        self.setup_step = {"tile": self.tile_bag.pop(0), "placed": 0, "order": [], "index": 0}
        if self.options["quick_start"]:
            # Rule FA-QUICK-START: the same setup decisions, each drawn at random.
            while self.phase in SETUP_PHASES:
                seat = self.to_act()[0]
                moves = self._legal_moves(seat)
                self._apply(seat, moves[self.random_below(len(moves))])

    def snake_order(self) -> list[int]:
        """Rule FA-SETUP-SKYSCRAPERS: from the first player to the right, then back to the left."""
        first = [0] + list(range(self.seats - 1, 0, -1))
        return first + first[::-1]

    # ---- the protocol ----------------------------------------------------------------------
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "initial_shop":
            return [self.setup_step["placed"] % self.seats]
        if phase == "initial_skyscraper":
            return [self.setup_step["order"][self.setup_step["index"]]]
        if phase in ("bid", "build"):
            return [self.running_auction()["turn"]]
        return [self.current]

    def _legal_moves(self, seat: int) -> list[Move]:
        phase = self.phase
        if phase == "choose_action":
            return [{"type": "choose_action", "action": a} for a in self.available_actions()]
        if phase == "move_commission":
            return self.commission_moves()
        if phase in ("bid", "build"):
            return auction.moves(self, seat)
        if phase == "take_cards":
            return [{"type": "take_card", "colour": c} for c in self.colour_choices()]
        if phase == "place_shop":
            return self.shop_moves()
        if phase == "score_district":
            return [{"type": "score_district", "district": d} for d in self.scorable_districts()]
        if phase == "initial_shop":
            return self.initial_shop_moves()
        if phase == "initial_skyscraper":
            return self.initial_skyscraper_moves(seat)
        return []

    def _apply(self, seat: int, move: Move) -> Events:
        kind = move["type"]
        if kind == "add_card":
            return auction.add_card(self, seat, move["card"])
        if kind == "bid":
            return auction.bid(self, seat)
        if kind == "pass":
            return auction.pass_turn(self, seat)
        if kind == "build":
            return auction.build(self, seat, move["count"])
        if kind == "close_district":
            return auction.order_closure(self, seat)
        if kind == "choose_action":
            return self._choose_action(seat, move["action"])
        if kind == "place_shop":
            return self._place_shop(seat, move)
        if kind == "score_district":
            return self._score_district(seat, move["district"])
        if kind == "move_commission":
            return self._move_commission(seat, move["pawn"], move["to"])
        if kind == "take_card":
            return self._take_card(seat, move["colour"])
        if kind == "place_initial_shop":
            return self._place_initial_shop(seat, move)
        return self._place_initial_skyscraper(seat, move)

    # ---- setup moves -------------------------------------------------------------------------
    def initial_shop_moves(self) -> list[Move]:
        """Rule FA-SETUP-SHOPS: one shop per district, at most 2 per plot colour, every colour once.

        On the six-plot side the shop goes on the sixth plot (rule FA-SIX-PLOTS).
        """
        open_districts = [
            d for d, district in enumerate(self.districts) if not any(p["shops"] for p in district["plots"])
        ]
        if self.options["six_plot_board"]:
            return [
                {"type": "place_initial_shop", "district": m.DISTRICT_IDS[d], "plot": m.SIXTH}
                for d in open_districts
            ]
        per_colour = self.initial_shop_colours()
        left_after = m.INITIAL_SHOPS - self.setup_step["placed"] - 1
        moves = []
        for d in open_districts:
            for colour in self.rings[d]:
                if per_colour[colour] >= m.INITIAL_SHOPS_PER_COLOUR_MAX:
                    continue
                missing = sum(1 for c in m.COLOURS if per_colour[c] == 0 and c != colour)
                if missing <= left_after:
                    moves.append(
                        {"type": "place_initial_shop", "district": m.DISTRICT_IDS[d], "plot": colour}
                    )
        return moves

    def initial_shop_colours(self) -> dict[str, int]:
        counts = {colour: 0 for colour in m.COLOURS}
        for d, district in enumerate(self.districts):
            for i, plot in enumerate(district["plots"]):
                if plot["shops"] and self.rings[d][i] in counts:
                    counts[self.rings[d][i]] += len(plot["shops"])
        return counts

    def _place_initial_shop(self, seat: int, move: Move) -> Events:
        step = self.setup_step
        d = m.DISTRICT_INDEX[move["district"]]
        tile = step["tile"]
        assert tile is not None  # drawn for each initial shop
        self.districts[d]["plots"][self.rings[d].index(move["plot"])]["shops"].append(tile)
        step["placed"] += 1
        events = [
            event("initial_shop_placed", seat=seat, shop=tile, district=move["district"], plot=move["plot"])
        ]
        if step["placed"] < m.INITIAL_SHOPS:
            step["tile"] = self.tile_bag.pop(0)
            events.append(event("shop_tile_drawn", shop=step["tile"]))
            return events
        # Rule FA-SETUP-SUPPLY: 20 more tiles face up in the 8 blocks; the other 9 stay boxed.
        step["tile"] = None
        for block, size in zip(self.blocks, m.SUPPLY_BLOCKS, strict=True):
            block.extend(self.tile_bag.pop(0) for _ in range(size))
        step["order"], step["index"] = self.snake_order(), 0
        self.phase = "initial_skyscraper"
        events.append(event("shop_supply_revealed", blocks=[list(b) for b in self.blocks]))
        return events

    def initial_skyscraper_moves(self, seat: int) -> list[Move]:
        """Rule FA-SETUP-SKYSCRAPERS: a free plot, in a district where the seat has none yet."""
        moves = []
        for d, district in enumerate(self.districts):
            plots = district["plots"]
            if board.plot_of(plots, seat) is not None:
                continue
            for i, plot in enumerate(plots):
                if board.is_free(plot):
                    moves.append(
                        {
                            "type": "place_initial_skyscraper",
                            "district": m.DISTRICT_IDS[d],
                            "plot": self.rings[d][i],
                        }
                    )
        return moves

    def _place_initial_skyscraper(self, seat: int, move: Move) -> Events:
        d = m.DISTRICT_INDEX[move["district"]]
        plot = self.districts[d]["plots"][self.rings[d].index(move["plot"])]
        plot["owner"], plot["count"] = seat, 1
        step = self.setup_step
        step["index"] += 1
        events = [event("initial_skyscraper_placed", seat=seat, district=move["district"], plot=move["plot"])]
        if step["index"] == len(step["order"]):
            self.phase = "choose_action"
            self.current = 0
            events.append(event("turn_started", seat=0))
        return events

    # ---- a turn: phase 1 ---------------------------------------------------------------------
    def available_actions(self) -> list[str]:
        """Rule FA-TURN: A and C always; B if a shop can go somewhere; D if a pawn is in a district."""
        actions = ["A"]
        if self.active_block() is not None and next(self._shop_plots(), None) is not None:
            actions.append("B")
        actions.append("C")
        if self.scorable_districts():
            actions.append("D")
        return actions

    def active_block(self) -> list[str] | None:
        """Rule FA-SHOP-BLOCK: the leftmost block that still holds tiles."""
        for block in self.blocks:
            if block:
                return block
        return None

    def _shop_plots(self) -> Iterator[tuple[int, int]]:
        for d, district in enumerate(self.districts):
            if district["closed"]:
                continue
            for i, plot in enumerate(district["plots"]):
                if board.takes_a_shop(plot):
                    yield d, i

    def shop_moves(self) -> list[Move]:
        block = self.active_block() or []
        shops = [s for s in m.SHOPS if s in block]
        plots = [(m.DISTRICT_IDS[d], self.rings[d][i]) for d, i in self._shop_plots()]
        return [
            {"type": "place_shop", "shop": shop, "district": district, "plot": plot}
            for shop in shops
            for district, plot in plots
        ]

    def scorable_districts(self) -> list[str]:
        """Rule FA-D-SCORE: an open district holding at least one commission pawn."""
        found = {loc for loc in self.pawns.values() if loc in m.DISTRICT_INDEX}
        return [d for d in m.DISTRICT_IDS if d in found and not self.districts[m.DISTRICT_INDEX[d]]["closed"]]

    def _choose_action(self, seat: int, action: str) -> Events:
        self.turn = {"action": action, "step": 1, "taken": []}
        events = [event("action_chosen", seat=seat, action=action)]
        if action == "A":
            player = self.players[seat]
            taken = min(m.TAKE_SKYSCRAPERS, player["supply"])
            player["supply"] -= taken
            player["reserve"] += taken
            events.append(event("skyscrapers_taken", seat=seat, count=taken))
            return events + self._phase_two()
        if action == "B":
            self.phase = "place_shop"
        elif action == "C":
            events += self.draw_black_cards(seat, 1)
            self.phase = "move_commission"
        else:
            self.phase = "score_district"
        return events

    def _place_shop(self, seat: int, move: Move) -> Events:
        block = self.active_block()
        assert block is not None  # action B needs a shop to place
        block.remove(move["shop"])
        d = m.DISTRICT_INDEX[move["district"]]
        self.districts[d]["plots"][self.rings[d].index(move["plot"])]["shops"].append(move["shop"])
        self.shops_placed += 1
        events = [
            event(
                "shop_placed",
                seat=seat,
                shop=move["shop"],
                district=move["district"],
                plot=move["plot"],
                shops_placed=self.shops_placed,
            )
        ]
        if len(block) == 1:
            # The block's last tile goes face up under Central Park; the next block is active.
            self.under_park.append(block.pop())
            events.append(event("shop_to_central_park", shop=self.under_park[-1]))
        if self.shops_placed >= m.SHOPS_TO_END:
            return events + self.end_game("last_shop")  # phases 2 and 3 are not played
        special = scoring.special_scoring(self, self.shops_placed)
        if special is not None:
            events.append(special)
        return events + self._phase_two()

    def _score_district(self, seat: int, district: str) -> Events:
        """Action D: score the district; draw 2 black cards; 1 more to each player without a skyscraper."""
        index = m.DISTRICT_INDEX[district]
        events = [scoring.score_district(self, index, "district_scorings")]
        self.turn["step"] = 2
        events += self.draw_black_cards(seat, m.SCORING_BLACK_CARDS)
        plots = self.districts[index]["plots"]
        for offset in range(self.seats):
            other = (seat + offset) % self.seats
            if not board.skyscrapers_in(plots, other):
                events += self.draw_black_cards(other, m.ABSENT_BLACK_CARDS)
        return events + self._phase_three()

    # ---- phases 2 and 3 ----------------------------------------------------------------------
    def _phase_two(self) -> Events:
        """Rule FA-PHASE2-COLOUR: after A, B or C, two colour cards of different colours."""
        self.turn["step"] = 2
        if self.colour_choices():
            self.phase = "take_cards"
            return []
        return [event("no_colour_card_left")] + self._phase_three()

    def colour_choices(self) -> list[str]:
        taken = self.turn["taken"]
        return [c for c in m.COLOURS if c not in taken and piles.size(self.colour_piles[c])]

    def _take_card(self, seat: int, colour: str) -> Events:
        card = piles.take_top(self.colour_piles[colour])
        piles.give(self.players[seat], card, seen=True)
        self.turn["taken"].append(colour)
        events = [event("colour_card_taken", seat=seat, card=card)]
        if len(self.turn["taken"]) < m.TAKE_COLOUR_CARDS and self.colour_choices():
            return events
        return events + self._phase_three()

    def _phase_three(self) -> Events:
        """Rule FA-PHASE3-COMMISSION: every turn ends with a commission pawn moved."""
        self.turn["step"] = 3
        self.phase = "move_commission"
        return []

    def commission_moves(self) -> list[Move]:
        closed = self.closed_districts()
        return [
            {"type": "move_commission", "pawn": pawn, "to": to}
            for pawn in m.PAWNS
            for to in board.destinations(self.pawns[pawn], closed)
        ]

    def closed_districts(self) -> set[str]:
        return set(self.closed_order)

    def _move_commission(self, seat: int, pawn: str, to: str) -> Events:
        """Rules FA-COMMISSION-PATH, FA-EXPERTISE, FA-COMMISSION-RETURN."""
        came_from = self.pawns[pawn]
        self.pawns[pawn] = to
        events = [event("commission_moved", seat=seat, pawn=pawn, origin=came_from, to=to)]
        if came_from in m.DISTRICT_INDEX and came_from not in self.closed_order:
            self.expertise[pawn].append(came_from)
            events.append(event("expertise_placed", pawn=pawn, district=came_from))
        if came_from == m.CENTRAL_PARK:
            return events + auction.start(self, pawn, seat)
        return events + self.resume_turn()

    def resume_turn(self) -> Events:
        """After a pawn move (and its auctions): phase 2 after C's first move, else the next turn."""
        if self.turn["step"] == 1:
            return self._phase_two()
        self.current = (self.current + 1) % self.seats
        self.turn = {"action": None, "step": 0, "taken": []}
        self.phase = "choose_action"
        return [event("turn_started", seat=self.current)]

    # ---- cards -------------------------------------------------------------------------------
    def draw_black_cards(self, seat: int, count: int) -> Events:
        player = self.players[seat]
        drawn: list[str] = []
        events: Events = []
        for _ in range(count):
            got = piles.draw_black(self.black_pile)
            if got is None:  # every black card is in a hand or a bid: nothing to draw
                break
            piles.give(player, got[0], seen=got[1])
            drawn.append(got[0])
            events += self.settle_black()
        draw = secret_event("black_cards_drawn", [seat], {"cards": drawn}, seat=seat, count=len(drawn))
        return [draw] + events

    def settle_black(self) -> Events:
        if piles.settle_black(self.black_pile, self.shuffle):
            return [event("black_pile_reshuffled", size=len(self.black_pile["hidden"]))]
        return []

    # ---- the end (rules FA-END-SHOPS, FA-END-CLOSURE, FA-FINAL-SCORE) ------------------------
    def end_game(self, reason: str) -> Events:
        self.phase = "over"
        self.auction = None
        self.end = {"reason": reason, "revealed": []}
        events = [event("game_ending", reason=reason)] + scoring.final_scoring(self)
        events.append(event("game_over", result=self.final_result().to_dict()))
        return events

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        scores = [p["score"] for p in self.players]
        # Rule FA-WINNER: most points; a tie goes to the most cards left in hand.
        keys = [(p["score"], len(p["hand"])) for p in self.players]
        breakdown = [
            {**p["points"], "cards_in_hand": len(p["hand"]), "central_park_skyscrapers": p["park"]}
            for p in self.players
        ]
        end = self.game_end()
        extra = {"central_park_revealed": list(end["revealed"])}
        return Result(scores, ranks_from_keys(keys), breakdown, end["reason"], extra)

    # ---- labels ------------------------------------------------------------------------------
    def label(self, move: Move) -> Message:
        kind = move["type"]
        if kind == "choose_action":
            return say(f"fifth_avenue.label.action_{move['action']}")
        if kind in ("place_shop", "place_initial_shop", "place_initial_skyscraper"):
            where = {"plot": m.the_plot(move["plot"]), "district": m.DISTRICT_NAMES[move["district"]]}
            if kind == "place_initial_skyscraper":
                return say("fifth_avenue.label.place_skyscraper", **where)
            shop = move.get("shop") if kind == "place_shop" else self.setup_step["tile"]
            return say("fifth_avenue.label.place_shop", shop=m.the_shop(shop), **where)
        if kind == "score_district":
            return say("fifth_avenue.label.score_district", district=m.DISTRICT_NAMES[move["district"]])
        if kind == "move_commission":
            to = move["to"]
            place = (
                say(f"fifth_avenue.place.{to}") if to in (m.START, m.CENTRAL_PARK) else m.DISTRICT_NAMES[to]
            )
            return say(f"fifth_avenue.label.move_{move['pawn']}_pawn", place=place)
        if kind == "take_card":
            card = piles.top(self.colour_piles[move["colour"]])
            if card:
                return say(f"fifth_avenue.label.take_seen_card.{move['colour']}", card=m.card_text(card))
            return say(f"fifth_avenue.label.take_card.{move['colour']}")
        if kind == "add_card":
            return say("fifth_avenue.label.add_card", card=m.card_text(move["card"]))
        a = self.running_auction()
        if kind == "bid":
            seat = a["turn"]
            added = a["draft"][seat]
            bid_total = auction.total(a["bids"][seat]) + auction.total(added)
            return say(
                "fifth_avenue.label.bid", value=bid_total, cards=m.listed([m.card_text(c) for c in added])
            )
        if kind == "pass":
            return say("fifth_avenue.label.pass")
        venue = a["venues"][0]
        if kind == "build":
            if venue == m.CENTRAL_PARK:
                return say("fifth_avenue.label.build_beside_park", count=move["count"])
            plot = auction.won_award(self)["colour"]
            return say("fifth_avenue.label.build", count=move["count"], plot=m.the_plot(plot))
        return say("fifth_avenue.label.close_district", district=m.DISTRICT_NAMES[venue])

    # ---- what seats see ----------------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        return build_view(self, seat)

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Re-deal the other hands' secret cards with the unseen pile parts, kind by kind.

        ``seat`` knows every card it saw: its hand, the piles' top cards, the cards seen put
        under the piles, the cards others took face up or took back from a bid, and the kind
        (colour or black) of every secret card. Another seat's unfinished bid is private: in
        the copy that seat has not started choosing. The face-down shop tiles are shuffled
        (sorted first: the sample must not depend on their true order).
        """
        others = [s for s in range(self.seats) if s != seat]
        if self.auction is not None:
            for s in others:
                self.auction["draft"][s] = []
        piles.redeal(self.players, self.colour_piles, self.black_pile, others, rng)
        self.tile_bag.sort()
        rng.shuffle(self.tile_bag)

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        return explain(self, seat, move)
