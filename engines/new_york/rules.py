"""New York (Sid Sackson & Sven Kübler, Piatnik 1995): build the largest block of Manhattan.

Rulebook: seeds/new-york-and-property.fr.txt, "NEW YORK"; rule ids in docs/rules/new-york.md.

The game: a preliminary round places as many pieces per colour as each player's money,
never orthogonally next to the same colour; then the colours are drawn at random (or were
chosen before, variant 2). Each draws until holding two red and two blue cards. A turn:
play a red card (an avenue) and a blue card (a street) - jokers name any - and take the
building at the crossing: free if unowned, bought from its owner at the lower of the
owner's counts in that avenue and that street, or - when the hand can take nothing -
lost if it is one's own. Cards that leave a choice (a joker's line) are played first and
the building chosen next. Then draw back to two of each colour. When only 4 buildings are
unowned the two Stop cards go on the discard pile; the first one drawn ends the game.
Largest group ×2, other buildings ×1, money ×1.

Variants are options: event cards (1), colours chosen before the preliminary round (2),
two players with two colours each (3), teams of two at four players (4).

Hidden: hands, the stock's order, an exchange offer between partners. Public: the board,
money, pieces, hand sizes, the discard pile. Chance: the shuffles and the colour draw.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, TypedDict

from ..core import Event, IllegalMove, Message, Move, Result, State, View, event, say, secret_event
from ..core.cards import refill_from_discard
from . import city, plays
from . import material as m
from .explain import explain
from .hands import complete, kinds
from .hidden import redeal
from .scoring import final_result
from .views import view

if TYPE_CHECKING:
    import random

# Phases of the game (what the seat in to_act is deciding).
CHOOSE, PRELIM, PLAY, TARGET, EXCHANGE, REBUILD, SURRENDER, OVER = (
    "choose_colour",
    "preliminary",
    "play",
    "target",
    "exchange",
    "rebuild",
    "surrender",
    "over",
)


class Line(TypedDict):
    kind: str  # "avenue" or "street"
    number: int


class Rebuild(TypedDict):
    """Sanierung or Ruin: the squares cleared still to refill, and who puts the next piece."""

    event: str
    squares: list[list[int]]  # [avenue, street]
    seat: int


class Surrender(TypedDict):
    """Spekulation or Statik: the victim chooses which building goes to the card player."""

    seat: int
    colour: int  # the victim's colour
    line: Line | None  # Statik's avenue or street
    gain: int  # the colour the card player takes it in
    event: str
    draw: bool  # whether the card player draws after it


class Pending(TypedDict):
    cards: list[str]


class Offer(TypedDict):
    card: str


class Revealed(TypedDict):
    seat: int
    cards: list[str]


class NewYorkState(State):
    move_types = (
        "place",
        "choose_colour",
        "play",
        "event",
        "take",
        "line",
        "name",
        "offer",
        "swap",
        "refuse",
        "discard_hand",
        "rebuild",
        "surrender",
    )

    # The attributes, all plain JSON (see State).
    colours: int  # how many piece colours are in play (the players, or 4 in variant 3)
    pieces_per_colour: int
    preliminary_per_colour: int
    colour_seat: list[int | None]  # [c]: the seat playing colour c (None until the colours are drawn)
    seat_colours: list[list[int]]  # [s]: the colours of seat s (two in variant 3)
    provisional_seat: list[int | None]  # [c]: who places colour c in the preliminary round
    board: list[list[int | None]]  # [avenue-1][street-1]: colour index or None
    avenue_counts: list[list[int]]  # [c][a-1]: pieces
    street_counts: list[list[int]]  # [c][s-1]: pieces
    on_board: list[int]  # [c]
    supply: list[int]  # [c]
    money: list[int]  # [s]
    hands: list[list[str]]  # [s]
    hand_epochs: list[list[int]]  # [s]: the stock epoch each card of the hand was drawn in
    known: list[dict[str, list[str]]]  # [s][str(v)]: cards of hand s that seat v knows (an exchange's)
    # [s]: cards s received in exchanges since its hand was last discarded (public: everyone
    # sees an exchange, not its cards; bounds known[s] when re-dealt)
    exchange_received: list[int]
    min_red_blue: list[list[int]]  # [s]: what the table knows of hand s: at least [red, blue] cards
    stock: list[str]  # top = end
    discard: list[str]
    stock_epoch: int  # reshuffles so far
    stops_added: bool  # the Stop cards are on the discard pile or in the stock
    stop_drawn_by: int | None  # the seat that drew a Stop card (the end)
    phase: str
    current: int
    turn: int
    choose_queue: list[int]
    prelim_queue: list[int]
    pick_order: list[int]
    rebuild: Rebuild | None
    surrender: Surrender | None
    pending: Pending | None  # cards played, waiting for the building / line / victim (phase "target")
    offer: Offer | None  # pending between partners
    exchanged: bool  # this turn's exchange is done
    colour_draw: list[str] | None  # the colour cards as drawn
    revealed: Revealed | None  # a hand shown by NY-DEAD-HAND

    # ---- setup -----------------------------------------------------------------------
    def setup(self) -> None:
        seats, opts = self.seats, self.options
        two_colours = opts["two_colours"]
        as_if = m.TWO_PLAYER_AS_IF if two_colours else seats
        self.colours = m.TWO_PLAYER_COLOURS if two_colours else seats
        self.pieces_per_colour = m.PIECES[as_if]
        self.preliminary_per_colour = m.MONEY[as_if]
        self.colour_seat = [None] * self.colours
        self.seat_colours = [[] for _ in range(seats)]
        self.board = [[None] * m.SIZE for _ in range(m.SIZE)]
        self.avenue_counts = [[0] * m.SIZE for _ in range(self.colours)]
        self.street_counts = [[0] * m.SIZE for _ in range(self.colours)]
        self.on_board = [0] * self.colours
        self.supply = [self.pieces_per_colour] * self.colours
        per_seat = self.colours // seats
        self.money = [m.MONEY[as_if] * per_seat] * seats
        self.hands = [[] for _ in range(seats)]
        self.hand_epochs = [[] for _ in range(seats)]
        self.known = [{} for _ in range(seats)]
        self.exchange_received = [0] * seats
        self.min_red_blue = [[0, 0] for _ in range(seats)]
        self.stock = list(m.deck(opts["events"]))
        self.shuffle(self.stock)
        self.discard = []
        self.stock_epoch = 0
        self.stops_added = False
        self.stop_drawn_by = None
        self.current = 0
        self.turn = 0
        self.rebuild = None
        self.surrender = None
        self.offer = None
        self.pending = None
        self.exchanged = False
        self.colour_draw = None
        self.revealed = None
        self.pick_order = []
        self.prelim_queue = []
        # Rule NY-PRELIM-ORDER: the youngest player (seat 0) begins, then clockwise.
        if opts["chosen_colours"]:
            # Variant 2: colours are chosen first, in the same order (twice round in variant 3).
            self.phase = CHOOSE
            self.choose_queue = [i % seats for i in range(self.colours)]
            self.provisional_seat = [None] * self.colours
        else:
            self.phase = PRELIM
            self.choose_queue = []
            # The provisional colour a player places is only a name (the real colours are
            # drawn afterwards), so seat i places colour i (i and i + 2 in variant 3).
            self.provisional_seat = [c % seats for c in range(self.colours)]
            self.pick_order = list(range(self.colours))
            self.prelim_queue = self.pick_order * self.preliminary_per_colour

    # ---- the protocol ----------------------------------------------------------------
    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == CHOOSE:
            return [self.choose_queue[0]]
        if phase == PRELIM:
            placer = self.provisional_seat[self.prelim_queue[0]]
            assert placer is not None  # the colours placed are chosen, or named provisionally
            return [placer]
        if phase == EXCHANGE:
            return [self.partner(self.current)]
        if phase == REBUILD:
            return [self.rebuilding()["seat"]]
        if phase == SURRENDER:
            return [self.surrendering()["seat"]]
        return [self.current]

    def _legal_moves(self, seat: int) -> list[Move]:
        phase = self.phase
        if phase == PLAY:
            return self.turn_moves(seat)
        if phase == TARGET:
            return list(plays.choices(self, seat, self.pending_cards()))
        if phase == PRELIM:
            colour = self.prelim_queue[0]
            return [{"type": "place", "avenue": a, "street": s} for a, s in self.preliminary_squares(colour)]
        if phase == CHOOSE:
            return [
                {"type": "choose_colour", "colour": m.COLOURS[c]}
                for c in range(self.colours)
                if self.colour_seat[c] is None
            ]
        if phase == EXCHANGE:
            moves: list[Move] = [{"type": "swap", "card": c} for c in kinds(self.hands[seat])]
            return moves + [{"type": "refuse"}]
        if phase == REBUILD:
            moves = []
            for a, s in self.rebuilding()["squares"]:
                moves.extend(plays.colour_variants(self, seat, {"type": "rebuild", "avenue": a, "street": s}))
            return moves
        if phase == SURRENDER:
            return [{"type": "surrender", "avenue": a, "street": s} for a, s in self.surrender_squares()]
        return []

    # ---- what a phase is about (set while the phase lasts) ------------------------------
    def pending_cards(self) -> list[str]:
        """The cards played whose building, line or victim is still to choose (phase target)."""
        assert self.pending is not None, "no cards wait for their target"
        return self.pending["cards"]

    def rebuilding(self) -> Rebuild:
        assert self.rebuild is not None, "no squares wait to be rebuilt"
        return self.rebuild

    def surrendering(self) -> Surrender:
        assert self.surrender is not None, "no building waits to be given up"
        return self.surrender

    def offered_card(self) -> str:
        assert self.offer is not None, "no card is offered between partners"
        return self.offer["card"]

    # ---- who plays what --------------------------------------------------------------
    def seat_of(self, colour: int) -> int:
        """The seat playing ``colour``, once the colours are drawn or chosen."""
        seat = self.colour_seat[colour]
        assert seat is not None, "the colours are not drawn yet"
        return seat

    def partner(self, seat: int) -> int:
        """Variant 4: partners sit opposite each other (seats 0 and 2, 1 and 3)."""
        return (seat + 2) % 4

    def colour_index(self, name: Any) -> int | None:
        if isinstance(name, str) and name in m.COLOURS[: self.colours]:
            return m.COLOURS.index(name)
        return None

    def _gain_colour(self, seat: int, move: Move) -> int:
        if "colour" in move:
            return m.COLOURS.index(move["colour"])
        return self.seat_colours[seat][0]

    # ---- the preliminary round (NY-PRELIM-*) --------------------------------------------
    def preliminary_squares(self, colour: int) -> list[tuple[int, int]]:
        """Rule NY-PRELIM-ADJACENT: any free square not beside (orthogonally) the same colour."""
        board = self.board
        beside: set[tuple[int, int]] = set()
        for a, s in m.SQUARES:
            if board[a - 1][s - 1] == colour:
                beside.update(city.NEIGHBOURS[(a, s)])
        return [(a, s) for a, s in m.SQUARES if board[a - 1][s - 1] is None and (a - 1, s - 1) not in beside]

    # ---- a turn ----------------------------------------------------------------------
    def turn_moves(self, seat: int) -> list[Move]:
        moves = plays.card_plays(self, seat)
        can_play = bool(moves)
        if self.options["teams"] and not self.exchanged and self.hands[seat]:
            moves.extend({"type": "offer", "card": c} for c in kinds(self.hands[seat]))
        if not can_play:
            # Rule NY-DEAD-HAND: no building can be taken with these cards.
            moves.append({"type": "discard_hand"})
        return moves

    def owner_is_player(self) -> bool:
        """Rule NY-V3-OWNER: in variant 3 a building's owner is the player (both colours),
        unless option price_per_colour counts each colour alone."""
        return self.options["two_colours"] and not self.options["price_per_colour"]

    def price_counts(self) -> tuple[list[list[int]], list[list[int]]]:
        """The owner's buildings per avenue and per street, indexed by colour: what the
        purchase price (NY-TAKE-BUY) and Statik's leader (NY-EV-STATIK) count. Each colour's
        own counts, except in variant 3 where a colour's are its player's (NY-V3-OWNER)."""
        if not self.owner_is_player():
            return self.avenue_counts, self.street_counts
        tables = []
        for counts in (self.avenue_counts, self.street_counts):
            # Listing asks this of every pair of cards: summed line by line with map and zip.
            per_seat = [
                list(map(sum, zip(*(counts[c] for c in colours), strict=True)))
                for colours in self.seat_colours
            ]
            tables.append([per_seat[self.seat_of(c)] for c in range(self.colours)])
        return tables[0], tables[1]

    def surrender_squares(self) -> list[tuple[int, int]]:
        pending = self.surrendering()
        colour = pending["colour"]
        # Statik in variant 3 (NY-V3-OWNER): the player gives a building of either colour.
        give = (
            set(self.seat_colours[self.seat_of(colour)])
            if pending["event"] == m.STATIK and self.owner_is_player()
            else {colour}
        )
        if pending["line"] is None:
            return city.buildings(self.board, colour)
        kind, number = pending["line"]["kind"], pending["line"]["number"]
        return [(a, s) for a, s in city.line_squares(kind, number) if self.board[a - 1][s - 1] in give]

    # ---- labels ----------------------------------------------------------------------
    def label(self, move: Move) -> Message:
        kind = move["type"]
        said = m.COLOUR_SAID
        if kind == "place":
            colour = said[m.COLOURS[self.prelim_queue[0]]]
            return say("new_york.label.place", colour=colour, avenue=move["avenue"], street=move["street"])
        if kind == "choose_colour":
            return say("new_york.label.choose_colour", colour=said[move["colour"]])
        if kind in ("play", "event"):
            cards = [move["red"], move["blue"]] if kind == "play" else [move["card"]]
            # Two cards joined by the catalogue ("A and B", « A et B »): what format_list writes for
            # two, without its locale lookup on every label.
            played = (
                say("new_york.cards.two", first=m.card_said(cards[0]), second=m.card_said(cards[1]))
                if len(cards) == 2
                else m.card_said(cards[0])
            )
            if m.CARD_EVENT[cards[0]] in (m.SANIERUNG, m.RUIN):
                return say("new_york.label.play", cards=played)
            options = list(itertools.islice(plays.choices(self, self.current, cards), 2))
            if len(options) == 1:
                choice = self._choice_said(cards, options[0], "new_york.choice")
                return say("new_york.label.play_to", cards=played, choice=choice)
            return say("new_york.label.play_then_choose", cards=played)
        if kind in ("take", "line", "name"):
            return self._choice_said(self.pending_cards(), move, "new_york.label")
        if kind == "offer":
            return say("new_york.label.offer", card=m.card_said(move["card"]))
        if kind == "swap":
            return say("new_york.label.swap", card=m.card_said(move["card"]))
        if kind == "refuse":
            return say("new_york.label.refuse")
        if kind == "discard_hand":
            return say("new_york.label.discard_hand")
        where = {"avenue": move["avenue"], "street": move["street"]}
        if kind == "rebuild":
            return say("new_york.label.rebuild", **where, in_colour=_in_colour(move))
        return say("new_york.label.surrender", **where)

    def _choice_said(self, cards: list[str], choice: Move, prefix: str) -> Message:
        """What a choice does: after "Play …:" (``new_york.choice``), or as a label of its own
        (``new_york.label``, which begins a sentence: capital and article where the language
        wants them)."""
        alone = prefix == "new_york.label"
        in_colour = _in_colour(choice)
        kind = choice["type"]
        if kind == "name":
            victim = _player_said(choice["victim"], alone)
            return say(f"{prefix}.name", victim=victim, in_colour=in_colour)
        if kind == "line":
            line_kind = "avenue" if "avenue" in choice else "street"
            line = say(f"new_york.line.{line_kind}{'_first' if alone else ''}", number=choice[line_kind])
            if "victim" not in choice:
                return say(f"{prefix}.line_no_effect", line=line)
            victim = _player_said(choice["victim"], False)
            if self.owner_is_player():  # NY-V3-OWNER: the player gives, of either colour
                first, second = self.seat_colours[self.seat_of(m.COLOURS.index(choice["victim"]))]
                victim = say(
                    "new_york.player.two_colours",
                    first=m.COLOUR_SAID[m.COLOURS[first]],
                    second=m.COLOUR_SAID[m.COLOURS[second]],
                )
            return say(f"{prefix}.line", line=line, victim=victim, in_colour=in_colour)
        a, s = choice["avenue"], choice["street"]
        owner = self.board[a - 1][s - 1]
        where = {"avenue": a, "street": s}
        if m.BAULOWE in (m.CARD_EVENT[cards[0]], m.CARD_EVENT[cards[-1]]):
            assert owner is not None  # Baulöwe takes another player's building
            owned = m.COLOUR_SAID[m.COLOURS[owner]]
            return say(f"{prefix}.take_free", owner=owned, **where, in_colour=in_colour)
        if owner is None:
            return say(f"{prefix}.build", **where, in_colour=in_colour)
        owned = m.COLOUR_SAID[m.COLOURS[owner]]
        if self.colour_seat[owner] == self.current:
            return say(f"{prefix}.lose", colour=owned, **where)
        cost = city.price(*self.price_counts(), owner, a, s)
        return say(f"{prefix}.buy", owner=owned, **where, count=cost, in_colour=in_colour)

    # ---- applying moves ----------------------------------------------------------------
    def _apply(self, seat: int, move: Move) -> list[Event]:
        kind = move["type"]
        if kind == "place":
            return self._place(seat, move)
        if kind == "choose_colour":
            return self._choose_colour(seat, move)
        if kind in ("play", "event"):
            return self._lay_down(seat, move)
        if kind in ("take", "line", "name"):
            cards = self.pending_cards()
            self.pending = None
            self.phase = PLAY
            return self._resolve(seat, cards, move)
        if kind == "offer":
            return self._offer(seat, move)
        if kind in ("swap", "refuse"):
            return self._answer_offer(seat, move)
        if kind == "discard_hand":
            return self._discard_hand(seat)
        if kind == "rebuild":
            return self._rebuild(seat, move)
        return self._surrender(seat, move)

    # -- before the game
    def _choose_colour(self, seat: int, move: Move) -> list[Event]:
        colour = m.COLOURS.index(move["colour"])
        self.colour_seat[colour] = seat
        self.provisional_seat[colour] = seat
        self.seat_colours[seat].append(colour)
        self.pick_order.append(colour)
        self.choose_queue.pop(0)
        events = [event("colour_chosen", seat=seat, colour=move["colour"])]
        if not self.choose_queue:
            # Variant 2: each places their own colour, in the order the colours were chosen.
            self.phase = PRELIM
            self.prelim_queue = self.pick_order * self.preliminary_per_colour
        return events

    def _place(self, seat: int, move: Move) -> list[Event]:
        colour = self.prelim_queue.pop(0)
        self._put(colour, move["avenue"], move["street"])
        events = [
            event(
                "piece_placed",
                seat=seat,
                colour=m.COLOURS[colour],
                avenue=move["avenue"],
                street=move["street"],
            )
        ]
        # A colour with no legal square left skips its placement (it can hardly happen).
        while self.prelim_queue and not self.preliminary_squares(self.prelim_queue[0]):
            skipped = self.prelim_queue.pop(0)
            events.append(event("placement_impossible", colour=m.COLOURS[skipped]))
        if not self.prelim_queue:
            events.extend(self._start_main_round())
        return events

    def _start_main_round(self) -> list[Event]:
        events = []
        if not self.options["chosen_colours"]:
            # Rule NY-COLOUR-DRAW: the colour cards are shuffled and each player draws one
            # (two in variant 3); the pieces already placed belong to whoever draws them.
            cards = list(range(self.colours))
            self.shuffle(cards)
            for position, colour in enumerate(cards):
                seat = position % self.seats
                self.colour_seat[colour] = seat
                self.seat_colours[seat].append(colour)
            for colours in self.seat_colours:
                colours.sort()
            self.colour_draw = [m.COLOURS[c] for c in cards]
            drawn = {m.COLOURS[c]: self.colour_seat[c] for c in range(self.colours)}
            events.append(event("colours_drawn", colours=drawn))
        # Rule NY-DEAL: the red player begins; one card each in turn until 2 red + 2 blue.
        first = self.seat_of(0)
        order = [(first + i) % self.seats for i in range(self.seats)]
        drawn_cards: dict[int, list[str]] = {s: [] for s in order}
        progress = True
        while progress:
            progress = False
            for seat in order:
                if complete(self.hands[seat]):
                    continue
                card = self._take_from_stock(events)
                if card is None:
                    break
                self._add_to_hand(seat, card)
                drawn_cards[seat].append(card)
                progress = True
        for seat in order:
            self.min_red_blue[seat] = [2, 2] if complete(self.hands[seat]) else [0, 0]
            cards_drawn = drawn_cards[seat]
            events.append(
                secret_event("cards_drawn", [seat], {"cards": cards_drawn}, seat=seat, count=len(cards_drawn))
            )
        self.phase = PLAY
        self.current = first
        events.append(event("turn_started", seat=first))
        return events

    # -- a turn
    def _lay_down(self, seat: int, move: Move) -> list[Event]:
        """Rule NY-PLAY: the cards are played face up; what they leave to choose comes next."""
        cards = [move["red"], move["blue"]] if move["type"] == "play" else [move["card"]]
        options = list(itertools.islice(plays.choices(self, seat, cards), 2))
        self._play_cards(seat, cards)
        events: list[Event] = [event("cards_played", seat=seat, cards=cards)]
        name = m.CARD_EVENT[cards[0]]
        if len(cards) == 1 and name in (m.SANIERUNG, m.RUIN):
            return events + self._clear_and_rebuild(seat, name)
        if len(options) == 1:
            return events + self._resolve(seat, cards, options[0])
        self.pending = {"cards": cards}
        self.phase = TARGET
        return events

    def _resolve(self, seat: int, cards: list[str], choice: Move) -> list[Event]:
        kind = choice["type"]
        if kind == "name":
            victim = m.COLOURS.index(choice["victim"])
            return self._ask_surrender(seat, victim, None, choice, m.SPEKULATION, draw=False)
        if kind == "line":
            line_kind = "avenue" if "avenue" in choice else "street"
            line: Line = {"kind": line_kind, "number": choice[line_kind]}
            if "victim" not in choice:
                events = [event("statik_no_effect", seat=seat, line=line)]
                return events + self._end_turn(seat, draw=True)
            victim = m.COLOURS.index(choice["victim"])
            return self._ask_surrender(seat, victim, line, choice, m.STATIK, draw=True)
        a, s = choice["avenue"], choice["street"]
        owner = self.board[a - 1][s - 1]
        events = []
        if m.BAULOWE in (m.CARD_EVENT[cards[0]], m.CARD_EVENT[cards[-1]]):
            # Rule NY-EV-BAULOWE: another player's building, taken free.
            colour = self._gain_colour(seat, choice)
            self._take(owner, a, s)
            self._put(colour, a, s)
            events.append(
                event(
                    "building_seized",
                    seat=seat,
                    colour=m.COLOURS[colour],
                    owner=m.COLOURS[owner],
                    avenue=a,
                    street=s,
                )
            )
        elif owner is None:
            # Rule NY-TAKE-FREE
            colour = self._gain_colour(seat, choice)
            self._put(colour, a, s)
            events.append(event("building_taken", seat=seat, colour=m.COLOURS[colour], avenue=a, street=s))
        elif self.colour_seat[owner] == seat:
            # Rule NY-TAKE-OWN
            self._take(owner, a, s)
            events.append(event("building_lost", seat=seat, colour=m.COLOURS[owner], avenue=a, street=s))
        else:
            # Rule NY-TAKE-BUY
            colour = self._gain_colour(seat, choice)
            cost = city.price(*self.price_counts(), owner, a, s)
            seller = self.colour_seat[owner]
            self.money[seat] -= cost
            self.money[seller] += cost
            self._take(owner, a, s)
            self._put(colour, a, s)
            events.append(
                event(
                    "building_bought",
                    seat=seat,
                    colour=m.COLOURS[colour],
                    owner=m.COLOURS[owner],
                    seller=seller,
                    price=cost,
                    avenue=a,
                    street=s,
                )
            )
        return events + self._end_turn(seat, draw=True)

    def _ask_surrender(
        self, seat: int, victim: int, line: Line | None, choice: Move, name: str, draw: bool
    ) -> list[Event]:
        """Spekulation and Statik: the victim chooses which building goes to the card player."""
        self.surrender = {
            "seat": self.seat_of(victim),
            "colour": victim,
            "line": line,
            "gain": self._gain_colour(seat, choice),
            "event": name,
            "draw": draw,
        }
        self.phase = SURRENDER
        return [event(name, seat=seat, victim=m.COLOURS[victim], line=line)]

    def _clear_and_rebuild(self, seat: int, name: str) -> list[Event]:
        """Rules NY-EV-SANIERUNG and NY-EV-RUIN: the squares are cleared, then refilled."""
        squares = m.CENTRE_SQUARES if name == m.SANIERUNG else m.CORNER_SQUARES
        cleared = []
        for a, s in squares:
            owner = self.board[a - 1][s - 1]
            if owner is not None:
                self._take(owner, a, s)
                cleared.append({"avenue": a, "street": s, "colour": m.COLOURS[owner]})
        events = [event(name, seat=seat, cleared=cleared)]
        self.rebuild = {"event": name, "squares": [[a, s] for a, s in squares], "seat": seat}
        self.phase = REBUILD
        return events + self._next_rebuilder(seat, first=True)

    def _next_rebuilder(self, after: int, first: bool = False) -> list[Event]:
        """From the card player on, clockwise, each puts one piece until the squares are full."""
        for offset in range(0 if first else 1, self.seats + (0 if first else 1)):
            seat = (after + offset) % self.seats
            if self.rebuilding()["squares"] and plays.gaining_colours(self, seat):
                self.rebuilding()["seat"] = seat
                return []
        # Done (or nobody has a piece left, which leaves squares empty).
        name = self.rebuilding()["event"]
        left = [{"avenue": a, "street": s} for a, s in self.rebuilding()["squares"]]
        self.rebuild = None
        self.phase = PLAY
        events = [event("rebuilt", event_card=name, left_empty=left)]
        return events + self._end_turn(self.current, draw=False)

    def _rebuild(self, seat: int, move: Move) -> list[Event]:
        a, s = move["avenue"], move["street"]
        colour = self._gain_colour(seat, move)
        self._put(colour, a, s)
        self.rebuilding()["squares"].remove([a, s])
        events = [event("piece_rebuilt", seat=seat, colour=m.COLOURS[colour], avenue=a, street=s)]
        return events + self._next_rebuilder(seat)

    def _surrender(self, seat: int, move: Move) -> list[Event]:
        pending = self.surrendering()
        a, s = move["avenue"], move["street"]
        gain = pending["gain"]
        given = self.board[a - 1][s - 1]  # the named colour, or its player's other (NY-V3-OWNER)
        self._take(given, a, s)
        self._put(gain, a, s)
        self.surrender = None
        self.phase = PLAY
        events = [
            event(
                "building_given",
                seat=seat,
                colour=m.COLOURS[given],
                to=self.current,
                to_colour=m.COLOURS[gain],
                avenue=a,
                street=s,
                event_card=pending["event"],
            )
        ]
        # Rule NY-EV-SINGLE: after a single event (Spekulation) the player does not draw.
        return events + self._end_turn(self.current, draw=pending["draw"])

    def _offer(self, seat: int, move: Move) -> list[Event]:
        self.offer = {"card": move["card"]}
        self.phase = EXCHANGE
        partner = self.partner(seat)
        return [
            secret_event(
                "exchange_offered", [seat, partner], {"card": move["card"]}, seat=seat, partner=partner
            )
        ]

    def _answer_offer(self, seat: int, move: Move) -> list[Event]:
        giver = self.current
        offered = self.offered_card()
        self.offer = None
        self.exchanged = True
        self.phase = PLAY
        if move["type"] == "refuse":
            return [event("exchange_refused", seat=seat, partner=giver)]
        back = move["card"]
        epoch_out = self._remove_from_hand(giver, offered)
        epoch_back = self._remove_from_hand(seat, back)
        self._add_to_hand(seat, offered, epoch_out)
        self._add_to_hand(giver, back, epoch_back)
        # Each partner now knows one card of the other's hand; the table only knows that
        # one card changed hands each way.
        self.known[seat].setdefault(str(giver), []).append(offered)
        self.known[giver].setdefault(str(seat), []).append(back)
        self.exchange_received[seat] += 1
        self.exchange_received[giver] += 1
        for s in (seat, giver):
            self.min_red_blue[s] = [max(0, n - 1) for n in self.min_red_blue[s]]
        return [
            secret_event(
                "cards_exchanged",
                [seat, giver],
                {"given": offered, "returned": back},
                seat=giver,
                partner=seat,
            )
        ]

    def _discard_hand(self, seat: int) -> list[Event]:
        """Rule NY-DEAD-HAND: show the hand, discard it all, draw a new one; the turn ends."""
        hand = sorted(self.hands[seat], key=m.CARD_RANK.__getitem__)
        self.revealed = {"seat": seat, "cards": hand}
        self.discard.extend(self.hands[seat])
        self.hands[seat] = []
        self.hand_epochs[seat] = []
        self.known[seat] = {}
        self.exchange_received[seat] = 0
        self.min_red_blue[seat] = [0, 0]
        events = [event("hand_revealed", seat=seat, cards=hand)]
        return events + self._end_turn(seat, draw=True)

    def _end_turn(self, seat: int, draw: bool) -> list[Event]:
        events = self._check_stop_trigger()
        if draw:
            events.extend(self._refill(seat))
        if self.stop_drawn_by is not None:
            self.phase = OVER
            events.append(event("game_over", result=self.final_result().to_dict()))
            return events
        self.turn += 1
        self.exchanged = False
        self.current = (self.current + 1) % self.seats
        self.phase = PLAY
        events.append(event("turn_started", seat=self.current))
        return events

    def _check_stop_trigger(self) -> list[Event]:
        """Rule NY-END-TRIGGER: at 4 unowned buildings the Stop cards go on the discard pile."""
        if self.stops_added or m.SIZE * m.SIZE - sum(self.on_board) > m.STOP_WHEN_UNOWNED:
            return []
        self.stops_added = True
        self.discard.extend(m.STOP_CARDS)
        return [event("stop_cards_added", unowned=m.SIZE * m.SIZE - sum(self.on_board))]

    # ---- cards -----------------------------------------------------------------------
    def _take_from_stock(self, events: list[Event]) -> str | None:
        """Rule NY-RESHUFFLE: an empty stock is rebuilt from the shuffled discards."""
        if refill_from_discard(self.stock, self.discard, self.shuffle):
            self.stock_epoch += 1
            events.append(event("stock_reshuffled", size=len(self.stock), stops=self.stock.count(m.STOP)))
        if not self.stock:
            return None
        return self.stock.pop()

    def _refill(self, seat: int) -> list[Event]:
        """Rule NY-DRAW: draw until the hand holds at least two red and two blue cards."""
        events: list[Event] = []
        drawn: list[str] = []
        hand = self.hands[seat]
        while not complete(hand):
            card = self._take_from_stock(events)
            if card is None:
                break
            if card == m.STOP:
                # Rule NY-END: the game ends at once; the Stop card is shown.
                self.stop_drawn_by = seat
                break
            self._add_to_hand(seat, card)
            drawn.append(card)
        if complete(hand):
            self.min_red_blue[seat] = [2, 2]
        if drawn:
            events.append(secret_event("cards_drawn", [seat], {"cards": drawn}, seat=seat, count=len(drawn)))
        if self.stop_drawn_by is not None:
            events.append(event("stop_drawn", seat=seat))
        return events

    def _add_to_hand(self, seat: int, card: str, epoch: int | None = None) -> None:
        self.hands[seat].append(card)
        self.hand_epochs[seat].append(self.stock_epoch if epoch is None else epoch)

    def _remove_from_hand(self, seat: int, card: str) -> int:
        hand = self.hands[seat]
        index = hand.index(card)
        del hand[index]
        epoch = self.hand_epochs[seat].pop(index)
        for cards in self.known[seat].values():
            if card in cards:
                cards.remove(card)
        return epoch

    def _play_cards(self, seat: int, cards: list[str]) -> None:
        minimum = self.min_red_blue[seat]
        for card in cards:
            self._remove_from_hand(seat, card)
            self.discard.append(card)
            i = 0 if m.card_colour(card) == m.RED else 1
            minimum[i] = max(0, minimum[i] - 1)
        self.revealed = None

    # ---- the board -------------------------------------------------------------------
    def _put(self, colour: int, avenue: int, street: int) -> None:
        self.board[avenue - 1][street - 1] = colour
        self.avenue_counts[colour][avenue - 1] += 1
        self.street_counts[colour][street - 1] += 1
        self.on_board[colour] += 1
        self.supply[colour] -= 1

    def _take(self, colour: int, avenue: int, street: int) -> None:
        self.board[avenue - 1][street - 1] = None
        self.avenue_counts[colour][avenue - 1] -= 1
        self.street_counts[colour][street - 1] -= 1
        self.on_board[colour] -= 1
        self.supply[colour] += 1

    def unowned(self) -> int:
        return m.SIZE * m.SIZE - sum(self.on_board)

    # ---- what seats see --------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        return view(self, seat)

    def result(self) -> Result | None:
        return final_result(self) if self.phase == OVER else None

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        redeal(self, seat, rng)

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        return explain(self, seat, move)


def _in_colour(move: Move) -> Message | str:
    """Variant 3: " in blue", the colour a building is taken in; nothing when a move names none."""
    return say("new_york.in_colour", colour=m.COLOUR_SAID[move["colour"]]) if "colour" in move else ""


def _player_said(colour: str, first: bool) -> Message:
    """The player of a colour ("red", « le joueur rouge »); ``first`` begins a sentence ("Red")."""
    if first:
        return say(f"new_york.player.first.{colour}")
    return say("new_york.player.plain", colour=m.COLOUR_SAID[colour])
