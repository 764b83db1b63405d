"""A game: its identity, seat counts, options and schemas, and how to start one."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar

from . import options as opts
from . import shapes
from .chance import seed_state
from .errors import InvalidOptions
from .messages import say
from .state import Move, State

# The game's own state class. Covariant, so that any game is a ``Game[State]`` (the registry's):
# its functions (evaluate, playout_moves...) take its own states, and it is only ever given
# states it made (``setup``, ``restore``).
S = TypeVar("S", bound=State, covariant=True)


@dataclass(frozen=True, eq=False)
class Game(Generic[S]):
    """Everything the service, bots and tests need to know about one game.

    ``folder`` holds ``moves.schema.json`` and ``view.schema.json``, the JSON Schemas of
    the game's moves and views that the catalog publishes.
    """

    id: str
    title: str
    min_seats: int
    max_seats: int
    state_class: type[S]
    folder: Path
    rules_version: int = 1
    options: tuple[opts.Option, ...] = ()
    summary: str = ""
    # Upper bound on the number of moves of any game, so tests can prove games end.
    max_moves: int = 10_000
    # Score plus what the position promises, from ``seat``'s point of view (greedy bots).
    evaluate: Callable[[S, int], float] | None = None
    # Every seat's ``evaluate`` at once, where the seats share most of the work (New York
    # City scores the whole table once for all): bots evaluate every seat of every position
    # they judge. Must give exactly what ``evaluate`` gives seat by seat (conformance checks).
    evaluate_seats: Callable[[S], list[float]] | None = None
    # A sharper every-seat evaluation for the levels that judge with it (Level.sharp_evaluation,
    # ``hard``): costlier than ``evaluate``, and better by measurement (bench/RESULTS.md),
    # such as Wettstreit's, which knows what of a hand can still be laid. None: those levels
    # use evaluate.
    evaluate_seats_sharp: Callable[[S], list[float]] | None = None
    # How many random moves ISMCTS plays past a new node before judging with ``evaluate``
    # (negative: until the searching seat is to act again, at most that many); None keeps
    # the bot level's own. Set by measurement (bench/bots.py): 0 where evaluate judges a
    # position better than random moves from it do.
    ismcts_rollout_depth: int | None = None
    # ISMCTS levels search this many times their iterations here (their clock unchanged):
    # set by measurement (bench/bots.py --iterations) where iterations are cheap and more
    # of them win more games.
    ismcts_iteration_scale: int = 1
    # The most voting trees (levels with several searches, ``hard``) whose iterations, each
    # tree scaled as above, the level's clock allows here (bench/bots.py --reach hard); None:
    # the level's own. The level then searches that many trees of the same size, so its
    # iteration budget, which the bench plays, is what a live bot does in its time.
    ismcts_max_searches: int | None = None
    # How many visits the greedy bot's opinion of each root move is worth (None: the level's
    # own), set by measurement (bench/bots.py --prior-visits) where the search's own view
    # is poorer than the greedy bot's and should overturn it only on strong evidence.
    ismcts_prior_visits: int | None = None
    # ISMCTS judges each line by how far it moves every seat's margin from the position
    # searched, instead of from an even game: set by measurement (bench/bots.py --centred)
    # where margins far from even squash the differences between moves to nothing.
    ismcts_centred_margins: bool = False
    # Levels that vote over several trees (``hard``) play every rollout move with a choice as
    # the greedy bot would (ismcts_move's greedy_rollouts), set by measurement (bench/bots.py
    # --greedy-rollouts) where random rivals in the rollouts mislead the search. Such rollouts
    # cost several times the iterations: bound the trees with ismcts_max_searches.
    ismcts_voting_greedy_rollouts: bool = False
    # Random playouts (the conformance suite, tests, benchmarks) pick among these moves most
    # of the time (conformance.PREFERRED_SHARE), where uniform random play drags on for tens
    # of thousands of moves that no player would make (New York: losing one's own buildings
    # by choice, NY-TAKE-OWN). Every listed move is still played now and then; bots and the
    # service never use this.
    playout_moves: Callable[[S, int, list[Move]], list[Move]] | None = None
    # The moves ISMCTS considers for the other seats' and its own later decisions (below
    # the root, and in its rollouts): a game may leave out moves no sensible player makes
    # and whose numbers drown the search (Wettstreit: bids above one's own money, which
    # can only forfeit it, and jumps far above the last bid). The root keeps every move.
    search_moves: Callable[[S, int, list[Move]], list[Move]] | None = None
    # Extra setup checks over the whole option dict (raise InvalidOptions).
    check_setup: Callable[[int, dict[str, Any]], None] | None = field(default=None)

    def __post_init__(self) -> None:
        # The first Game to name a state class owns it (the engine's own, defined with the
        # class): a copy a test makes with dataclasses.replace must not rebind the class, or
        # every later state of that game, in any test, would answer to the copy.
        if "game" not in vars(self.state_class):
            self.state_class.game = self

    def normalize_options(self, seats: Any, given: Any) -> dict[str, Any]:
        """Return the full options for a game of ``seats`` seats, or raise InvalidOptions."""
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise InvalidOptions("invalid_seat_count", say("core.refusal.seats_not_integer"))
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                "invalid_seat_count",
                say(
                    "core.refusal.seat_count",
                    title=self.title,
                    min=self.min_seats,
                    max=self.max_seats,
                    seats=seats,
                ),
            )
        options = opts.normalize(self.options, given, seats)
        if self.check_setup is not None:
            self.check_setup(seats, options)
        return options

    def setup(self, seats: int, options: dict[str, Any] | None = None, seed: int | str = 0) -> S:
        """Return the initial state of a new game; the same arguments give the same state."""
        normalized = self.normalize_options(seats, options)
        state = object.__new__(self.state_class)
        state.seats = seats
        state.options = normalized
        state.rng = seed_state(seed)
        state.setup()
        return state

    def restore(self, data: dict[str, Any]) -> S:
        return self.state_class.from_dict(data)

    def seat_counts(self) -> range:
        return range(self.min_seats, self.max_seats + 1)

    def option_combinations(self, seats: int) -> list[dict[str, Any]]:
        """Option dicts that together play every value of every option (for tests)."""
        combos = opts.combinations(self.options, seats)
        valid = []
        for combo in combos:
            try:
                valid.append(self.normalize_options(seats, combo))
            except InvalidOptions:
                continue
        return valid

    @cached_property
    def options_schema(self) -> dict[str, Any]:
        return opts.options_schema(self.options)

    @cached_property
    def move_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = json.loads((self.folder / "moves.schema.json").read_text(encoding="utf-8"))
        return schema

    @cached_property
    def move_shape_schema(self) -> dict[str, Any]:
        """The move schema without value ranges: what a move must be to be judged by the rules
        rather than refused as malformed (engines/core/shapes.py)."""
        schema: dict[str, Any] = shapes.structural(self.move_schema)
        return schema

    @cached_property
    def view_schema(self) -> dict[str, Any]:
        """``view.schema.json``, with the view's ``options`` (every option, filled in) described
        by the options themselves rather than written out again in each game's file."""
        schema: dict[str, Any] = json.loads((self.folder / "view.schema.json").read_text(encoding="utf-8"))
        properties = schema.get("properties", {})
        if "options" in properties:
            properties["options"] = {
                **properties["options"],
                **self.options_schema,
                "required": [option.name for option in self.options],
            }
        return schema

    def catalog_entry(self) -> dict[str, Any]:
        return {
            "title": self.id,
            "name": self.title,
            "summary": self.summary,
            "rules_version": self.rules_version,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": self.options_schema,
            "moves": self.move_schema,
            "view": self.view_schema,
        }
