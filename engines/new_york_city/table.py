"""The state's attributes, and the records they hold: the base every part of the state shares.

The state class is assembled from mixins (rules.py), each a part of the rules working on the
same attributes; so the attributes are declared once, here, on the class every mixin derives
from. The methods one mixin calls on another are declared here too, for the type checker only:
at run time they do not exist on this class, and each mixin's own is found first anyway.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from ..core import Event, State

Events = list[Event]


class Player(TypedDict):
    """A participant: a seat, or a Tom (``tom``) after the seats."""

    name: str
    tom: bool
    hand: list[str]
    hand_tags: list[int]  # per card what the table knows of it (cards.py: KNOWN or an epoch)
    reserve: list[str]  # face down under the player board; all of a Tom's cards, open
    reserve_tags: list[int]
    shown: list[str]  # reserve cards lying face up (character 3)
    reserve_size: int
    mixed: bool  # cards exchanged between hand and reserve this round
    staged: list[str]  # a Tom's cards set out for the bid of the round
    dollars: int
    on_characters: int  # Dollars placed on characters this round
    board: int  # skyscrapers on the player board
    supply: int  # skyscrapers of the player's colour still in the supply
    score: int
    characters: list[int]
    used: list[bool]  # per character: used this round
    vehicles: list[str]
    pairs_taken: int  # this round


# Where a player keeps cards: its hand, or its reserve.
Place = Literal["hand", "reserve"]


def cards_and_tags(player: Player, where: Place) -> tuple[list[str], list[int]]:
    """A player's hand or reserve, and what the table knows of each of its cards."""
    if where == "hand":
        return player["hand"], player["hand_tags"]
    return player["reserve"], player["reserve_tags"]


class Bid(TypedDict):
    value: int
    cards: list[str]
    double: bool  # character 19
    characters: list[int]


class Bidding(TypedDict):
    """The bidding round going on (Phase II)."""

    round: int  # index in cards.BIDDING_ROUNDS
    order: list[int]
    index: int  # of the player in ``order`` whose chance it is
    bids: list[Bid | None]
    used18: bool
    ranking: list[int]  # the bidders, highest bid first, once evaluated


class Element(TypedDict):
    """A part of a bid being built (bidding.py names the kinds)."""

    kind: str
    cards: list[str]
    value: int


class PendingBid(TypedDict):
    """The bid a player is building, private until it is laid down (bidding.new_pending)."""

    elements: list[Element]
    value: int
    base: bool  # holds an element that lets jokers join
    uses: list[int]  # characters used, paid when the bid is laid down
    cards: list[str]
    tags: list[int]
    from_hand: int
    steps: int  # press spaces given back (character 14)
    double: bool
    locked_hand: dict[str, int]  # cards exchanged into the hand this turn, by symbol
    locked_reserve: dict[str, int]
    select12: list[str] | None  # the reserve cards character 12 discards, while chosen


class PickTurn(TypedDict):
    """A player's turn of Phase I."""

    takes: int  # pairs it may take (2 with character 4)
    taken: int
    last: list[str]  # the pair just taken (character 8)
    select: list[str] | None  # the cards character 1 discards, while chosen
    discard: int  # cards character 5 still makes it discard (0 or 1: two at once)


class FinalScores(TypedDict):
    totals: list[int]  # per participant
    breakdown: list[dict[str, Any]]  # per participant: points by source (scoring.final_scores)


class Table(State):
    """What a game of New York City holds, all plain JSON (see State)."""

    humans: int
    toms: int
    tom_mode: str  # "A", "B" or "C"; "" without a Tom
    tom_cards: int  # what a Tom draws in Phase I
    stacks: list[list[int]]  # the dark character tiles face down, by value
    display: list[list[int]]  # the characters beside the elevator, by floor
    piles: list[list[int]]  # the starting piles still to choose
    box: list[int]  # characters never seen
    removed: list[int]  # characters discarded with character 7
    letters: list[str]  # per district its progression letter
    base: list[int]  # per district its base value
    tiles: list[list[int]]  # per district its prestige tiles
    prestige_stack: list[int]
    prestige_open: list[int]
    prestige_box: list[int]
    statue_flipped: bool
    connections: list[int]  # the vehicles still on the board
    deck: list[str]  # top = end
    discard: list[str]
    epoch: int  # reshuffles of the discard into the deck so far
    table: list[str]  # cards played in the current bidding round
    black: list[int]  # per district its black skyscrapers
    black_removed: int
    towers: list[list[int]]  # [district][participant]: skyscrapers
    players: list[Player]
    supply_dollars: int
    press: list[list[int]]  # the press track (press.Track): [pawn, space], leader first
    round: int
    mayor: int  # the Mayor's district, -1 before the first round
    pairs: list[list[str]]
    starter: int  # who starts the next bidding round, -1 before the first
    bidding: Bidding | None
    turn: PickTurn | None
    pending: PendingBid | None
    choice: None  # never set to anything else; saved states carry it
    final: FinalScores | None
    stage: str  # stages.py
    queue: list[int]  # who acts next in the stage
    actor: int  # the seat to act, -1 while the engine plays an automatic step

    # ---- what a stage works on (set while it lasts) ---------------------------------------------
    def current_bidding(self) -> Bidding:
        assert self.bidding is not None, "no bidding round is going on"
        return self.bidding

    def bid_in_progress(self) -> PendingBid:
        assert self.pending is not None, "no bid is being built"
        return self.pending

    def pick_turn(self) -> PickTurn:
        assert self.turn is not None, "no Phase I turn is going on"
        return self.turn

    # ---- for the type checker: what one part of the rules calls on another ---------------------
    if TYPE_CHECKING:
        # rules.py
        def _start_round(self, ev: Events) -> None: ...
        def _finish(self, ev: Events) -> None: ...

        # cards.py
        def _draw(self, count: int, ev: Events, epochs: list[int] | None = None) -> list[str]: ...
        def _draw_into(self, p: int, where: Place, count: int, ev: Events, why: str) -> list[str]: ...
        def _take(self, p: int, where: Place, symbol: str) -> int: ...
        def _take_from_reserve(self, p: int, symbol: str) -> int: ...
        def _refill_reserve(self, p: int, ev: Events, why: str) -> None: ...

        # company.py
        def _can_use(self, p: int, number: int, pending: Iterable[int] = (), reserved: int = 0) -> bool: ...
        def _usable(
            self, p: int, numbers: Iterable[int], pending: Iterable[int] = (), reserved: int = 0
        ) -> list[int]: ...
        def _use(self, p: int, number: int, ev: Events) -> None: ...
        def _receive_character(self, p: int, number: int) -> None: ...
        def _take_from_elevator(self, number: int) -> int | None: ...
        def _available_characters(self, limit: int) -> list[int]: ...
        def _gain(self, p: int, points: int, ev: Events, reason: str) -> None: ...
        def _take_dollars(self, p: int, amount: int, ev: Events, reason: str) -> int: ...
        def _towers_to_board(self, p: int, amount: int, ev: Events, reason: str) -> int: ...

        # picking.py
        def _discard_from_hand(self, p: int, cards: list[str], ev: Events, reason: str) -> None: ...

        # bidding.py
        def _start_bidding(self, r: int, ev: Events) -> None: ...

        # actions.py
        def _evaluate(self, ev: Events) -> None: ...
        def _character_limit(self, p: int) -> int: ...
        def _build_count(self, p: int) -> int: ...
        def _place_prestige(self, p: int, tile: int, conn: int, d: int, ev: Events) -> None: ...

        # tom.py
        def _tom_takes_pairs(self, ev: Events) -> None: ...
        def _tom_draws(self, p: int, r: int, ev: Events) -> None: ...
        def _tom_bids(self, p: int, ev: Events) -> None: ...
        def _tom_takes_character(self, p: int, limit: int, ev: Events) -> None: ...
        def _tom_prestige(self, p: int, ev: Events) -> None: ...
        def _tom_builds(self, p: int, count: int, ev: Events) -> None: ...
