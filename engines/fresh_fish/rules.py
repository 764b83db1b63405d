"""Fresh Fish (Friedemann Friese, 2F-Spiele 1997): build retailers close to their distributors.

Rulebook: seeds/fresh-fish.fr.txt; rule ids in docs/rules/fresh-fish.md.

A turn: reserve a plot with a cube (beside a developed or reserved plot, anywhere on one's
first turn), or build on one of one's reserved plots by drawing a tile. A blocking building
(apartment, office, park) goes on one of the drawer's reserved plots. A retailer is sold in a
blind auction among the players who lack that type; the winner builds it on a reserved plot
(or keeps it in front of them, at the maximum distance), and a drawer who lost may act again.
After every build, undeveloped plots that could no longer be built on become streets
(expropriation). When every plot is developed, each player's four shortest street routes
(capped) are added, money left is subtracted, and the lowest total wins.

Hidden: the order of the face-down pile (its contents are known), and sealed bids until all
are in. Money is open: coins lie on the table and every bid is revealed. Chance: the first
player and the shuffle of the pile, from the state's generator.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any, Final, Literal, TypedDict

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
from . import auction
from . import material as m
from .board import cells, coordinates, corners, neighbours, one_per_quarter, plot_at, quarters
from .expropriation import unbuildable
from .routes import capped, distances_from, length_to

DISTRIBUTE, TURN, AUCTION, PLACE, OVER = "distribute", "turn", "auction", "place", "over"
FRONT: Final = "front"  # a retailer kept in front of its owner, off the board (rule FF-AUCTION-FRONT)
# Where a retailer is: a plot, or in front of its owner.
RetailerPlace = int | Literal["front"]


class Player(TypedDict):
    money: int
    cubes: int  # in hand
    set_aside: int  # cubes kept for the first two retailers
    retailers: dict[str, RetailerPlace]  # goods -> where


class LastAuction(TypedDict):
    retailer: str
    drawer: int
    bids: list[int | None]
    winner: int
    price: int
    free: bool  # given to the only seat lacking that goods (FF-LAST-RETAILER)


class FreshFishState(State):
    move_types = ("reserve", "draw", "place", "bid", "build", "place_distributor", "pass")

    # The attributes, all plain JSON (see State).
    size: int  # the board's edge for this player count
    cap: int  # the route cap for this player count
    board: list[str | None]  # per plot the tile on it (None: undeveloped)
    reserved: list[int | None]  # per plot the seat whose cube reserves it (undeveloped plots only)
    # Sorted free plots (undeveloped, unreserved) touching a developed or reserved plot by a
    # side: the plots open to reservation after one's first turn. A plot once developed or
    # reserved stays so, so the frontier is kept as plots fill instead of recomputed for
    # every listing.
    frontier: list[int]
    distributors: dict[str, int]  # goods -> plot
    players: list[Player]
    pile: list[str]  # top = end, hidden order
    set_aside: dict[str, int]  # blocking buildings out of the pile
    phase: str
    current: int
    first_player: int
    turn: int
    turns_taken: list[int]
    drawn: str | None  # the tile drawn, while it is auctioned or placed
    drawer: int | None
    placer: int | None  # who places the drawn tile or the next distributor
    bidders: list[int]
    bids: list[int | None]  # sealed
    last_auction: LastAuction | None
    next_distributor: int | None  # index in PLACEMENT_ORDER while they are placed freely
    acting_again: bool  # the drawer acts again after losing an auction, and may pass

    def setup(self) -> None:
        seats = self.seats
        self.size = m.BOARD_SIZE[seats]
        self.cap = m.ROUTE_CAP[seats]
        count = self.size * self.size
        self.board = [None] * count
        self.reserved = [None] * count
        self.frontier = []
        self.distributors = {}
        self.players = [
            {
                "money": m.STARTING_MONEY,
                "cubes": m.CUBES_FOR_RESERVING,
                "set_aside": m.CUBES_SET_ASIDE,
                "retailers": {},
            }
            for _ in range(seats)
        ]
        self.set_aside = m.set_aside_for(seats)
        self.turn = 0
        self.turns_taken = [0] * seats
        self.drawn = None
        self.drawer = None
        self.placer = None
        self.bidders = []
        self.bids = [None] * seats
        self.last_auction = None
        self.acting_again = False
        # Rule FF-FIRST: "whoever ate fish most recently" is not something a server can
        # ask, so the first player is drawn at random.
        self.first_player = self.random_below(seats)
        self.current = self.first_player
        self.pile = m.pile_for(seats)
        self.shuffle(self.pile)
        if self.options["distributors"] == "corners":
            last = self.size - 1
            for tile in m.PLACEMENT_ORDER:
                row, column = m.CORNER_LAYOUT[tile]
                self._put_distributor(row * last * self.size + column * last, tile)
            self.next_distributor = None
            self.phase = TURN
        else:
            self.next_distributor = 0
            self.phase = DISTRIBUTE
            self.placer = self.first_player

    # ---- the protocol -----------------------------------------------------------------
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            return [self.current]
        if phase == AUCTION:
            return [s for s in self.bidders if self.bids[s] is None]
        if phase in (PLACE, DISTRIBUTE):
            assert self.placer is not None  # these phases are a placer's
            return [self.placer]
        return []

    def _legal_moves(self, seat: int) -> list[Move]:
        phase = self.phase
        if phase == AUCTION:
            return [{"type": "bid", "amount": amount} for amount in range(self.players[seat]["money"] + 1)]
        if phase == PLACE:
            return self._plot_moves("place", self.reserved_plots(seat))
        if phase == DISTRIBUTE:
            return self._plot_moves("place_distributor", self.distributor_plots())
        return self._turn_moves(seat)

    def _turn_moves(self, seat: int) -> list[Move]:
        moves = []
        if self.players[seat]["cubes"]:
            moves = self._plot_moves("reserve", self.reservable_plots(seat))
        own = self.reserved_plots(seat)
        if own:
            if self.pile:
                moves.append({"type": "draw"})
            else:
                tiles = [m.STREET] + [kind for kind in m.BLOCKING if self.set_aside[kind]]
                for tile in tiles:
                    for plot in own:
                        moves.append({**self._plot_move("build", plot), "tile": tile})
        if self.is_acting_again():
            moves.append({"type": "pass"})  # Rule FF-AUCTION-AFTER: "peut", so may not
        return moves

    def is_acting_again(self) -> bool:
        # States saved before the pass existed lack the attribute: nobody was acting again
        # with a choice to pass then, so False is what they mean.
        return self.__dict__.get("acting_again", False)

    def _plot_move(self, kind: str, plot: int) -> Move:
        row, column = cells(self.size)[plot]
        return {"type": kind, "row": row, "column": column}

    def _plot_moves(self, kind: str, plots: list[int]) -> list[Move]:
        at = cells(self.size)
        return [{"type": kind, "row": at[plot][0], "column": at[plot][1]} for plot in plots]

    def _drawn_tile(self) -> str:
        """The tile drawn: only while it is auctioned or placed."""
        assert self.drawn is not None, "no tile is drawn now"
        return self.drawn

    def _next_distributor(self) -> int:
        """The next distributor's index in PLACEMENT_ORDER: only while they are placed freely."""
        assert self.next_distributor is not None, "the distributors are placed"
        return self.next_distributor

    def label(self, move: Move) -> Message:
        kind = move["type"]
        if kind == "bid":
            return say("fresh_fish.label.bid", count=move["amount"], tile=the(self._drawn_tile()))
        if kind == "draw":
            return say("fresh_fish.label.draw")
        if kind == "pass":
            return say("fresh_fish.label.pass")
        at = {"row": move["row"], "column": move["column"]}
        if kind == "reserve":
            return say("fresh_fish.label.reserve", **at)
        if kind == "place":
            return say("fresh_fish.label.place", tile=the(self._drawn_tile()), **at)
        if kind == "build":
            return say("fresh_fish.label.build", tile=say(f"fresh_fish.a.{move['tile']}"), **at)
        distributor = m.PLACEMENT_ORDER[self._next_distributor()]
        return say("fresh_fish.label.place_distributor", tile=the(distributor), **at)

    def _apply(self, seat: int, move: Move) -> list[Event]:
        kind = move["type"]
        if kind == "bid":
            return self._bid(seat, move["amount"])
        if kind == "draw":
            return self._draw(seat)
        if kind == "pass":
            return [event("turn_passed", seat=seat), *self._end_turn()]
        plot = plot_at(self.size, move["row"], move["column"])
        if kind == "reserve":
            return self._reserve(seat, plot)
        if kind == "place":
            return self._place(seat, plot)
        if kind == "build":
            return self._build_from_supply(seat, plot, move["tile"])
        return self._place_distributor(seat, plot)

    # ---- where things may go ------------------------------------------------------------
    def reserved_plots(self, seat: int) -> list[int]:
        """The seat's reserved, still undeveloped plots."""
        reserved = self.reserved
        out: list[int] = []
        # list.index runs in C: a handful of calls beats a Python loop over every plot
        try:
            plot = reserved.index(seat)
            while True:
                out.append(plot)
                plot = reserved.index(seat, plot + 1)
        except ValueError:
            return out

    def reservable_plots(self, seat: int) -> list[int]:
        """Rules FF-RESERVE and FF-RESERVE-FIRST: an empty plot beside a developed or reserved
        plot; anywhere on the player's first turn."""
        board, reserved = self.board, self.reserved
        if self.turns_taken[seat] == 0:
            return [plot for plot, tile in enumerate(board) if tile is None and reserved[plot] is None]
        return list(self.frontier)

    def distributor_plots(self) -> list[int]:
        """Rule FF-DISTRIBUTORS-FREE: where the next distributor may go."""
        size, board = self.size, self.board
        tile = m.PLACEMENT_ORDER[self._next_distributor()]
        # Every undeveloped plot is buildable: the check after each placement (FF-EXPROPRIATE)
        # has already turned the others into streets.
        candidates = [plot for plot, t in enumerate(board) if t is None]
        if tile == "port":
            return [plot for plot in candidates if plot in corners(size)]
        if self.options["distributors"] == "quarters":
            masks = quarters(size)
            placed = [masks[plot] for plot in self.distributors.values()]
            fitting = [plot for plot in candidates if one_per_quarter([*placed, masks[plot]])]
            # Reading: should no plot fit the one-per-quarter advice any more, any legal plot does.
            return fitting or candidates
        return candidates

    def can_act(self, seat: int) -> bool:
        if seat in self.reserved:
            return True
        return bool(self.players[seat]["cubes"]) and bool(self.reservable_plots(seat))

    def _occupy(self, plot: int) -> None:
        """The plot is now developed or reserved: it leaves the frontier, and its free
        neighbours join it."""
        frontier, board, reserved = self.frontier, self.board, self.reserved
        i = bisect_left(frontier, plot)
        if i < len(frontier) and frontier[i] == plot:
            del frontier[i]
        for other in neighbours(self.size)[plot]:
            if board[other] is None and reserved[other] is None:
                j = bisect_left(frontier, other)
                if j == len(frontier) or frontier[j] != other:
                    frontier.insert(j, other)

    # ---- a turn ---------------------------------------------------------------------------
    def _reserve(self, seat: int, plot: int) -> list[Event]:
        """Rule FF-RESERVE: a cube from hand marks the plot as the seat's alone."""
        self.reserved[plot] = seat
        self._occupy(plot)
        self.players[seat]["cubes"] -= 1
        row, column = coordinates(self.size, plot)
        return [event("plot_reserved", seat=seat, row=row, column=column), *self._end_turn()]

    def _draw(self, seat: int) -> list[Event]:
        """Rule FF-BUILD: draw the top tile of the face-down pile and reveal it."""
        tile = self.pile.pop()
        self.acting_again = False
        self.drawn = tile
        self.drawer = seat
        events = [event("tile_drawn", seat=seat, tile=tile, pile_size=len(self.pile))]
        if tile in m.RETAILERS:
            return events + self._open_auction(seat, tile)
        # Rule FF-BUILD-BLOCKING: it must go on one of the drawer's reserved plots.
        own = self.reserved_plots(seat)
        if len(own) == 1:
            return events + self._build_drawn(seat, own[0])
        self.phase, self.placer = PLACE, seat
        return events

    def _place(self, seat: int, plot: int) -> list[Event]:
        if self.drawn in m.RETAILERS:
            return self._build_retailer(seat, plot)
        return self._build_drawn(seat, plot)

    def _build_drawn(self, seat: int, plot: int) -> list[Event]:
        tile = self._drawn_tile()
        self.drawn = self.drawer = self.placer = None
        self.phase = TURN
        events = self._build(seat, plot, tile)
        return events + self._end_turn()

    def _build_from_supply(self, seat: int, plot: int, tile: str) -> list[Event]:
        """Rule FF-BUILD-EMPTY: with the pile empty, a street or a set-aside building."""
        if tile != m.STREET:
            self.set_aside[tile] -= 1
        return self._build(seat, plot, tile) + self._end_turn()

    def _build(self, seat: int, plot: int, tile: str) -> list[Event]:
        """Put a tile on the seat's reserved plot, then expropriate (rule FF-EXPROPRIATE)."""
        self.board[plot] = tile
        self.reserved[plot] = None
        player = self.players[seat]
        if tile in m.RETAILERS:
            # Rule FF-CUBES-RETAILER: a retailer keeps a cube as its owner's marker; the first
            # two use the cubes set aside, so the reservation cube comes back to hand.
            player["retailers"][m.GOODS_OF[tile]] = plot
            if player["set_aside"]:
                player["set_aside"] -= 1
                player["cubes"] += 1
        else:
            player["cubes"] += 1
        row, column = coordinates(self.size, plot)
        kind = "retailer_built" if tile in m.RETAILERS else "building_built"
        built = [event(kind, seat=seat, tile=tile, row=row, column=column)]
        if tile == m.STREET:
            # A street stays in the network, so no plot's legality changes: nothing to check.
            return built
        return built + self._expropriate()

    def _expropriate(self) -> list[Event]:
        """Rules FF-EXPROPRIATE, FF-CONNECTED, FF-ACCESS: every plot that could no longer be
        built on becomes a street at once; a reservation cube goes back to its owner."""
        taken = unbuildable(self.size, self.board)
        if not taken:
            return []
        plots = []
        for plot in taken:
            who = self.reserved[plot]
            if who is not None:
                self.players[who]["cubes"] += 1
                self.reserved[plot] = None
            self.board[plot] = m.STREET
            self._occupy(plot)
            row, column = coordinates(self.size, plot)
            plots.append({"row": row, "column": column, "owner": who})
        return [event("expropriated", plots=plots)]

    # ---- the auction ------------------------------------------------------------------------
    def _open_auction(self, drawer: int, tile: str) -> list[Event]:
        """Rules FF-AUCTION-BIDDERS and FF-LAST-RETAILER."""
        goods = m.GOODS_OF[tile]
        lacking = [s for s in range(self.seats) if goods not in self.players[s]["retailers"]]
        if len(lacking) == 1:
            self.last_auction = {
                "retailer": tile,
                "drawer": drawer,
                "bids": [None] * self.seats,
                "winner": lacking[0],
                "price": 0,
                "free": True,
            }
            given = event("retailer_given", seat=lacking[0], tile=tile, drawer=drawer)
            return [given, *self._award(lacking[0])]
        self.phase = AUCTION
        self.bidders = lacking
        self.bids = [None] * self.seats
        return [event("auction_opened", tile=tile, drawer=drawer, bidders=list(lacking))]

    def _bid(self, seat: int, amount: int) -> list[Event]:
        """Rule FF-AUCTION-SEALED: the bid stays hidden until every bidder has sealed one."""
        self.bids[seat] = amount
        events = [secret_event("bid_sealed", [seat], {"amount": amount}, seat=seat)]
        if any(self.bids[s] is None for s in self.bidders):
            return events
        bids, drawer, tile = self.bids, self.drawer, self._drawn_tile()
        assert drawer is not None  # the tile auctioned was drawn
        won = auction.winner(bids, drawer)
        price = bids[won]
        assert price is not None  # the winner bid
        self.players[won]["money"] -= price
        self.last_auction = {
            "retailer": tile,
            "drawer": drawer,
            "bids": list(bids),
            "winner": won,
            "price": price,
            "free": False,
        }
        self.bidders = []
        self.bids = [None] * self.seats
        events.append(event("auction_won", seat=won, tile=tile, price=price, bids=list(bids), drawer=drawer))
        return events + self._award(won)

    def _award(self, seat: int) -> list[Event]:
        """Rules FF-AUCTION-PLACE and FF-AUCTION-FRONT: build at once on a reserved plot
        (the winner chooses among several), or keep it in front, off the board."""
        own = self.reserved_plots(seat)
        if not own:
            tile = self._drawn_tile()
            self.players[seat]["retailers"][m.GOODS_OF[tile]] = FRONT
            events = [event("retailer_kept_in_front", seat=seat, tile=tile)]
            return events + self._after_retailer(seat)
        if len(own) == 1:
            return self._build_retailer(seat, own[0])
        self.phase, self.placer = PLACE, seat
        return []

    def _build_retailer(self, seat: int, plot: int) -> list[Event]:
        events = self._build(seat, plot, self._drawn_tile())
        return events + self._after_retailer(seat)

    def _after_retailer(self, seat: int) -> list[Event]:
        """Rule FF-AUCTION-AFTER: the drawer's turn ends if they got the retailer; otherwise
        they act again (reserve or draw)."""
        drawer = self.drawer
        assert drawer is not None  # the retailer was drawn
        self.drawn = self.drawer = self.placer = None
        self.phase = TURN
        if seat == drawer or None not in self.board:
            return self._end_turn()
        self.current = drawer
        if self.can_act(drawer):
            self.acting_again = True
            return [event("acts_again", seat=drawer)]
        return self._end_turn()

    # ---- turns and the end ------------------------------------------------------------------
    def _end_turn(self) -> list[Event]:
        self.acting_again = False
        self.turns_taken[self.current] += 1
        self.turn += 1
        self.phase = TURN
        if None not in self.board:
            return self._finish()
        events: list[Event] = []
        seat = self.current
        for _ in range(self.seats):
            seat = (seat + 1) % self.seats
            self.current = seat
            if self.can_act(seat):
                return events
            # Rule FF-STUCK: a player with no reserved plot and no plot to reserve passes.
            self.turns_taken[seat] += 1
            events.append(event("turn_skipped", seat=seat))
        # Nobody can act (it cannot happen: an undeveloped plot is either free, and then one
        # beside it is developed or reserved, or reserved, and then its owner can build).
        return events + self._finish()

    def _finish(self) -> list[Event]:
        self.phase = OVER
        self.drawn = self.drawer = self.placer = None
        return [event("game_over", result=self.final_result().to_dict())]

    # ---- free placement of the distributors ---------------------------------------------------
    def _put_distributor(self, plot: int, tile: str) -> list[Event]:
        self.board[plot] = tile
        self._occupy(plot)
        self.distributors[m.GOODS_OF[tile]] = plot
        return self._expropriate()

    def _place_distributor(self, seat: int, plot: int) -> list[Event]:
        placed = self._next_distributor()
        tile = m.PLACEMENT_ORDER[placed]
        row, column = coordinates(self.size, plot)
        events = [event("distributor_placed", seat=seat, tile=tile, row=row, column=column)]
        events += self._put_distributor(plot, tile)
        self.next_distributor = placed + 1
        if self.next_distributor < len(m.PLACEMENT_ORDER):
            self.placer = (self.first_player + self.next_distributor) % self.seats
            return events
        self.next_distributor = None
        self.placer = None
        self.phase = TURN
        self.current = self.first_player
        return events

    # ---- scoring ------------------------------------------------------------------------------
    def route_lengths(self, passable: list[bool] | None = None) -> list[dict[str, int | None]]:
        """Per seat and goods, the shortest route's length (None: none, or not on the board).

        Rule FF-ROUTE: through streets only, unless ``passable`` says otherwise."""
        size = self.size
        if passable is None:
            passable = [tile == m.STREET for tile in self.board]
        out: list[dict[str, int | None]] = [{} for _ in range(self.seats)]
        for goods in m.GOODS:
            source = self.distributors.get(goods)
            dist = distances_from(size, passable, source) if source is not None else None
            for seat, player in enumerate(self.players):
                plot = player["retailers"].get(goods)
                if dist is None or plot is None or plot == FRONT:
                    out[seat][goods] = None
                else:
                    out[seat][goods] = length_to(size, dist, plot)
        return out

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        lengths = self.route_lengths()
        scores, breakdown, keys = [], [], []
        for seat, player in enumerate(self.players):
            # Rule FF-CAP: a long route, a retailer in front, or one never obtained, scores
            # the cap.
            routes = {goods: capped(lengths[seat][goods], self.cap) for goods in m.GOODS}
            distance = sum(routes.values())
            money = player["money"]
            total = distance - money
            scores.append(total)
            breakdown.append(
                {
                    "routes": routes,
                    "retailers": {
                        goods: _where_retailer(self.size, player["retailers"].get(goods)) for goods in m.GOODS
                    },
                    "distance": distance,
                    "money": money,
                    "total": total,
                }
            )
            # Rule FF-WINNER: the lowest total wins; on a tie, the most money.
            keys.append((-total, money))
        return Result(scores, ranks_from_keys(keys), breakdown, "all_plots_developed")

    # ---- what seats see -----------------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        size = self.size
        board = self.board
        # The cube on a plot: a reservation, or the owner's marker on a retailer.
        owner = list(self.reserved)
        for s, player in enumerate(self.players):
            for plot in player["retailers"].values():
                if plot != FRONT:
                    owner[plot] = s
        grid = [
            [{"tile": board[r * size + c], "owner": owner[r * size + c]} for c in range(size)]
            for r in range(size)
        ]
        players = []
        for s, player in enumerate(self.players):
            on_board = sum(1 for plot in player["retailers"].values() if plot != FRONT)
            players.append(
                {
                    "seat": s,
                    "money": player["money"],
                    "cubes_in_hand": player["cubes"],
                    "cubes_set_aside": player["set_aside"],
                    "cubes_on_retailers": on_board,
                    "reserved": [_cell(size, plot) for plot in self.reserved_plots(s)],
                    "retailers": {
                        goods: _where_retailer(size, player["retailers"].get(goods)) for goods in m.GOODS
                    },
                    "turns_taken": self.turns_taken[s],
                }
            )
        auction_view = None
        if self.phase == AUCTION:
            auction_view = {
                "retailer": self.drawn,
                "drawer": self.drawer,
                "bidders": list(self.bidders),
                "has_bid": [s for s in self.bidders if self.bids[s] is not None],
            }
            if seat is not None and seat in self.bidders and self.bids[seat] is not None:
                auction_view["your_bid"] = self.bids[seat]
        contents: dict[str, int] = {}
        for tile in self.pile:
            contents[tile] = contents.get(tile, 0) + 1
        return {
            "size": size,
            "route_cap": self.cap,
            "grid": grid,
            "distributors": {goods: _cell(size, plot) for goods, plot in self.distributors.items()},
            "players": players,
            "phase": self.phase,
            "current": self.current,
            "first_player": self.first_player,
            "turn": self.turn,
            "drawn_tile": self.drawn,
            "drawer": self.drawer,
            "placer": self.placer,
            "next_distributor": (
                None if self.next_distributor is None else m.PLACEMENT_ORDER[self.next_distributor]
            ),
            "auction": auction_view,
            "last_auction": None if self.last_auction is None else _copy_auction(self.last_auction),
            "pile_size": len(self.pile),
            "pile_contents": dict(sorted(contents.items())),
            "set_aside_buildings": dict(self.set_aside),
            "options": dict(self.options),
        }

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Rule FF-HIDDEN: the pile's order, and the sealed bids of the other seats.

        The seat knows the pile's contents (all tiles minus those drawn) but not its order;
        it knows who has bid but not how much, so each other sealed bid becomes a random
        amount that bidder could have sealed (0 to their money)."""
        # Sorted first, so the sample depends only on what the seat knows (the contents),
        # never on the true order.
        pile = sorted(self.pile)
        rng.shuffle(pile)
        self.pile = pile
        for other in self.bidders:
            if other != seat and self.bids[other] is not None:
                self.bids[other] = rng.randint(0, self.players[other]["money"])

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        return explain(self, seat, move)


def _cell(size: int, plot: int) -> dict[str, int]:
    row, column = coordinates(size, plot)
    return {"row": row, "column": column}


def _where_retailer(size: int, plot: RetailerPlace | None) -> dict[str, int] | str | None:
    if plot is None or plot == FRONT:
        return "in_front" if plot == FRONT else None
    return _cell(size, plot)


def _copy_auction(last: LastAuction) -> LastAuction:
    return {**last, "bids": list(last["bids"])}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PLOT_MOVES = ("reserve", "place", "build", "place_distributor")


def explain(state: FreshFishState, seat: int, move: Move) -> IllegalMove:
    """Name the rule that refuses a move that is not listed."""
    kind = move["type"]
    phase = state.phase
    wanted = {
        "bid": AUCTION,
        "place": PLACE,
        "place_distributor": DISTRIBUTE,
        "reserve": TURN,
        "draw": TURN,
        "build": TURN,
        "pass": TURN,
    }[kind]
    if phase != wanted:
        if phase == AUCTION:
            return IllegalMove("auction_in_progress", say("fresh_fish.refusal.auction_in_progress"))
        if phase == PLACE:
            drawn = state.drawn
            named = the(drawn) if drawn is not None and drawn in m.NAMES else say("fresh_fish.tile")
            return IllegalMove("placement_pending", say("fresh_fish.refusal.placement_pending", tile=named))
        if phase == DISTRIBUTE:
            return IllegalMove("distributors_not_placed", say("fresh_fish.refusal.distributors_not_placed"))
        return IllegalMove("no_such_step_now", say(f"fresh_fish.refusal.no_such_step_now.{kind}"))
    fields = {"type"} | ({"row", "column"} if kind in PLOT_MOVES else set())
    fields |= {"amount"} if kind == "bid" else set()
    fields |= {"tile"} if kind == "build" else set()
    if set(move) != fields:
        listed = ", ".join(repr(f) for f in sorted(fields - {"type"}))
        if not listed:
            return InvalidMove("malformed_move", say("fresh_fish.refusal.no_fields", type=repr(kind)))
        return InvalidMove("malformed_move", say("fresh_fish.refusal.fields", type=repr(kind), fields=listed))
    player = state.players[seat]
    if kind == "bid":
        amount = move["amount"]
        if not _is_int(amount):
            return InvalidMove("malformed_move", say("fresh_fish.refusal.bid_not_integer"))
        if amount < 0:
            return IllegalMove("negative_bid", say("fresh_fish.refusal.negative_bid"))
        return IllegalMove(
            "bid_above_money", say("fresh_fish.refusal.bid_above_money", count=player["money"])
        )
    if kind == "pass":
        return IllegalMove(
            "pass_only_after_a_lost_auction", say("fresh_fish.refusal.pass_only_after_a_lost_auction")
        )
    if kind == "draw":
        if not state.reserved_plots(seat):
            return IllegalMove("no_reserved_plot", say("fresh_fish.refusal.no_reserved_plot"))
        return IllegalMove("pile_empty", say("fresh_fish.refusal.pile_empty"))
    row, column = move["row"], move["column"]
    size = state.size
    if not (_is_int(row) and _is_int(column) and 1 <= row <= size and 1 <= column <= size):
        return IllegalMove("no_such_plot", say("fresh_fish.refusal.no_such_plot", size=size))
    plot = plot_at(size, row, column)
    at = {"row": row, "column": column}
    tile, owner = state.board[plot], state.reserved[plot]
    if kind == "reserve":
        if not player["cubes"]:
            return IllegalMove("no_cube_in_hand", say("fresh_fish.refusal.no_cube_in_hand"))
        if tile is not None:
            return IllegalMove("plot_developed", say("fresh_fish.refusal.plot_developed", **at))
        if owner is not None:
            return IllegalMove("plot_reserved", say("fresh_fish.refusal.plot_reserved", **at))
        return IllegalMove("reservation_not_adjacent", say("fresh_fish.refusal.reservation_not_adjacent"))
    if kind == "place_distributor":
        if tile is not None:
            return IllegalMove("plot_developed", say("fresh_fish.refusal.plot_developed", **at))
        if m.PLACEMENT_ORDER[state._next_distributor()] == "port" and plot not in corners(size):
            return IllegalMove("port_not_in_corner", say("fresh_fish.refusal.port_not_in_corner"))
        return IllegalMove("quarter_taken", say("fresh_fish.refusal.quarter_taken"))
    if kind == "build":
        if move["tile"] not in m.EMPTY_PILE_TILES:
            return IllegalMove("no_such_tile", say("fresh_fish.refusal.no_such_tile"))
        if state.pile:
            return IllegalMove("pile_not_empty", say("fresh_fish.refusal.pile_not_empty"))
    if tile is not None or owner != seat:
        return IllegalMove("not_your_reserved_plot", say("fresh_fish.refusal.not_your_reserved_plot", **at))
    return IllegalMove("no_set_aside_tile", say(f"fresh_fish.refusal.no_set_aside_tile.{move['tile']}"))


def the(tile: str) -> Message:
    """A tile named with its definite article ("the port", « le port »): French's depends on it."""
    return say(f"fresh_fish.the.{tile}")
