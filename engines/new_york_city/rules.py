"""New York City (Stefan Feld, Queen Games 2021): the state, its setup and the flow of a round.

Rulebook: seeds/new-york-city.fr.txt; rule ids in docs/rules/new-york-city.md. The game runs
five rounds of phases 0 (prepare), I (take pairs of cards), II (six bidding rounds: Press,
Dollars, Characters, Building plans, Prestige, Skyscrapers) and III (characters), then the
final scoring. The pieces live in small modules, mixed into one state class:

- ``picking``: the starting piles and Phase I, with characters 1–11;
- ``bidding``: a player's bid in Phase II, with characters 12–20 and 22;
- ``actions``: what each bidding round gives (the six actions, the bonuses, character 21,
  the Statue of Liberty);
- ``tom``: the automaton Tom of the solo rules, played by the engine;
- ``closing``: Phase III (characters 23–27) and the end of a round;
- ``scoring``: the final scoring; ``hidden``: views and ``determinize``; ``explain``: refusals.

Participants are numbered seats first, then the Toms (``players[p]["tom"]``). Only seats act;
``_advance`` plays every automatic step (Tom, resolutions, phase changes) until a seat must
decide.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import Event, IllegalMove, Message, Move, Result, State, event, ranks_from_keys
from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .actions import ActionsMixin
from .bidding import BiddingMixin
from .closing import ClosingMixin
from .company import CompanyMixin
from .explain import explain
from .hidden import HiddenMixin
from .labels import label
from .picking import PickingMixin
from .scoring import final_scores
from .stages import BID, BUILD, CHARACTER, OVER, PHASE3, PICK, PILES, PRESTIGE, REPLACE
from .table import Events
from .tom import TOM_LEVELS, TomMixin

TOM_NAMES = ("Tom I", "Tom II", "Tom III")


class NewYorkCityState(
    PickingMixin,
    BiddingMixin,
    ActionsMixin,
    TomMixin,
    ClosingMixin,
    HiddenMixin,
    CompanyMixin,
    c.CardsMixin,
    State,
):
    move_types = (
        "choose_pile",
        "take_pair",
        "use",
        "select",
        "confirm",
        "discard",
        "done",
        "exchange",
        "play",
        "play_pair",
        "bid",
        "pass",
        "take_character",
        "prestige",
        "decline",
        "build",
    )
    hidden_information = True

    # ---- setup (rules NYC-SETUP-*) --------------------------------------------------------------
    def setup(self) -> None:
        humans = self.seats
        toms = self.options["toms"] or (1 if humans == 1 else 0)
        self.humans, self.toms = humans, toms
        mode, cards_drawn = TOM_LEVELS[self.options["tom_level"]]
        self.tom_mode, self.tom_cards = (mode, cards_drawn) if toms else ("", 0)
        count = humans + toms

        # Setup 3: dark tiles by value, shuffled, the top four of each stack face up.
        self.stacks, self.display = [], []
        for value in ch.ELEVATOR_FLOORS:
            stack = ch.dark_stack(value)
            self.shuffle(stack)
            shown = [stack.pop() for _ in range(min(ch.ELEVATOR_SHOWN, len(stack)))]
            self.stacks.append(stack)
            self.display.append(shown)
        # Setup 4: face-down starting piles of two different characters; N+1 revealed.
        self.piles = self._starting_piles()
        revealed = b.piles_to_reveal(humans, toms)
        self.box = sorted(n for pile in self.piles[revealed:] for n in pile)  # never seen
        self.removed = []  # characters discarded with character 7
        self.piles = self.piles[:revealed]
        # Setup 5–9: progression letters, base values, prestige tiles, statue, vehicles.
        letters = list(b.LETTERS)
        self.shuffle(letters)
        self.letters = letters
        values = list(b.BASE_VALUES)
        self.shuffle(values)
        self.base = values
        self.tiles = [[] for _ in b.DISTRICTS]
        self.prestige_stack = list(range(len(b.PRESTIGE_TILES)))
        self.shuffle(self.prestige_stack)
        self.prestige_open = []
        self.prestige_box = []
        self.statue_flipped = False
        self.connections = list(range(len(b.CONNECTIONS)))
        # Setup 10–12: Dollars, the deck, black skyscrapers and the black press pawn.
        self.deck = list(c.DECK)
        self.shuffle(self.deck)
        self.discard = []
        self.epoch = 0
        self.table = []  # cards played in the current bidding round
        self.black = [b.BLACK_PER_DISTRICT] * len(b.DISTRICTS)
        self.black_removed = 0
        self.towers = [[0] * count for _ in b.DISTRICTS]
        # Setup 14: player material. Tom gets no board skyscrapers, Dollar or reserve.
        x = self.letters.index("X")
        self.players = []
        for p in range(count):
            tom = p >= humans
            self.towers[x][p] = 1
            board = 0 if tom else b.START_BOARD_TOWERS
            self.players.append(
                {
                    "name": TOM_NAMES[p - humans] if tom and toms > 1 else "Tom" if tom else f"Seat {p}",
                    "tom": tom,
                    "hand": [],
                    "hand_tags": [],
                    "reserve": [],
                    "reserve_tags": [],
                    "shown": [],
                    "reserve_size": 0 if tom else c.RESERVE_SIZE,
                    "mixed": False,
                    "staged": [],
                    "dollars": 0 if tom else b.START_DOLLARS,
                    "on_characters": 0,
                    "board": board,
                    "supply": b.TOWERS_PER_COLOUR - 1 - board,
                    "score": 0,
                    "characters": [],
                    "used": [],
                    "vehicles": [],
                    "pairs_taken": 0,
                }
            )
        self.supply_dollars = b.DOLLARS_IN_BOX - humans * b.START_DOLLARS
        # Setup 14F: every press pawn on the start space, stacked at random.
        pawns = list(range(count))
        self.shuffle(pawns)
        self.press = [[b.BLACK, b.BLACK_PAWN_SPACE[count]]] + [[p, b.PRESS_START] for p in pawns]
        # Setup 15: two reserve cards each (not Tom).
        ignored: Events = []
        for p in range(humans):
            self._draw_into(p, "reserve", c.RESERVE_SIZE, ignored, "reserve")
        self.round = 0
        self.mayor = -1
        self.pairs = []
        self.starter = -1
        self.bidding = None
        self.turn = None
        self.pending = None
        self.choice = None
        self.final = None
        # Setup 16: starting piles chosen in reverse press order (then the Toms).
        self.stage = PILES
        self.queue = [p for p in reversed(press.order(self.press)) if p < humans]
        self.actor = -1
        self._advance(ignored)

    def _starting_piles(self) -> list[list[int]]:
        """Shuffle the light tiles into piles of two different characters (setup 4)."""
        tiles = ch.light_tiles()
        while True:
            self.shuffle(tiles)
            piles = [sorted(tiles[i : i + 2]) for i in range(0, len(tiles), 2)]
            if all(pile[0] != pile[1] for pile in piles):
                return piles

    # ---- the protocol ---------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [self.actor] if self.actor >= 0 else []

    def _legal_moves(self, seat: int) -> list[Move]:
        return _MOVES[self.stage](self, seat)

    def label(self, move: Move) -> Message:
        return label(self, move)

    def _apply(self, seat: int, move: Move) -> list[Event]:
        ev: Events = []
        _APPLY[self.stage](self, seat, move, ev)
        self._advance(ev)
        if self.stage == OVER:
            ev.append(event("game_over", result=self.final_result().to_dict()))
        return ev

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        return explain(self, seat, move)

    # ---- the flow ---------------------------------------------------------------------------------
    def _advance(self, ev: Events) -> None:
        """Play every automatic step until a seat must decide or the game is over."""
        while self.actor < 0 and self.stage != OVER:
            _STEPS[self.stage](self, ev)

    def _start_round(self, ev: Events) -> None:
        """Phase 0 (rule NYC-PHASE0): Dollars back, the Mayor moves, tiles and cards revealed."""
        self.round += 1
        for player in self.players:
            self.supply_dollars += player["on_characters"]
            player["on_characters"] = 0
            player["used"] = [False] * len(player["characters"])
            player["pairs_taken"] = 0
        self.mayor = self.letters.index(b.MAYOR_ROUTE[self.round - 1])
        for _ in range(b.PRESTIGE_REVEALED):
            if self.prestige_stack:
                self.prestige_open.append(self.prestige_stack.pop())
        ev.append(
            event(
                "round_started",
                round=self.round,
                mayor=b.DISTRICTS[self.mayor],
                prestige_tiles=list(self.prestige_open),
            )
        )
        for p in range(self.humans):
            self._draw_into(p, "hand", c.PHASE0_DRAW, ev, "phase 0")
        self.pairs = []
        for _ in range(b.pairs_to_reveal(self.humans, self.toms)):
            pair = self._draw(2, ev)
            if len(pair) < 2:
                self.discard.extend(pair)
                break
            self.pairs.append(c.sort_cards(pair))
        ev.append(event("pairs_revealed", pairs=[list(pair) for pair in self.pairs]))
        self.stage = PICK
        order = [p for p in reversed(press.order(self.press)) if p < self.humans]
        self.queue = order + order

    def result(self) -> Result | None:
        if self.final is None:
            return None
        totals = self.final["totals"]
        standing = press.standing(self.press)
        keys = [(totals[p], -standing[p]) for p in range(len(self.players))]
        ranks = ranks_from_keys(keys)
        breakdown = self.final["breakdown"]
        automata = [
            {"name": self.players[p]["name"], "score": totals[p], "rank": ranks[p], "breakdown": breakdown[p]}
            for p in range(self.humans, len(self.players))
        ]
        extra = {"automata": automata} if automata else {}
        return Result(
            scores=totals[: self.humans],
            ranks=ranks[: self.humans],
            breakdown=breakdown[: self.humans],
            reason="The fifth round is over: final scoring; ties go to the player ahead on the press track.",
            extra=extra,
        )

    def _finish(self, ev: Events) -> None:
        """Rule NYC-END: after the fifth round, the final scoring."""
        self.final = final_scores(self)
        self.stage = OVER
        self.actor = -1
        ev.append(event("final_scoring", totals=list(self.final["totals"])))


_STEPS: dict[str, Callable[[NewYorkCityState, Events], None]] = {
    PILES: NewYorkCityState._step_piles,
    PICK: NewYorkCityState._step_pick,
    BID: NewYorkCityState._step_bid,
    CHARACTER: NewYorkCityState._step_character,
    PRESTIGE: NewYorkCityState._step_prestige,
    BUILD: NewYorkCityState._step_build,
    REPLACE: NewYorkCityState._step_replace,
    PHASE3: NewYorkCityState._step_phase3,
}
_MOVES: dict[str, Callable[[NewYorkCityState, int], list[Move]]] = {
    PILES: NewYorkCityState._pile_moves,
    PICK: NewYorkCityState._pick_moves,
    BID: NewYorkCityState._bid_moves,
    CHARACTER: NewYorkCityState._character_moves,
    PRESTIGE: NewYorkCityState._prestige_moves,
    BUILD: NewYorkCityState._build_moves,
    REPLACE: NewYorkCityState._replace_moves,
    PHASE3: NewYorkCityState._phase3_moves,
    OVER: lambda state, seat: [],
}
_APPLY: dict[str, Callable[[NewYorkCityState, int, Move, Events], None]] = {
    PILES: NewYorkCityState._apply_pile,
    PICK: NewYorkCityState._apply_pick,
    BID: NewYorkCityState._apply_bid,
    CHARACTER: NewYorkCityState._apply_character,
    PRESTIGE: NewYorkCityState._apply_prestige,
    BUILD: NewYorkCityState._apply_build,
    REPLACE: NewYorkCityState._apply_replace,
    PHASE3: NewYorkCityState._apply_phase3,
}
