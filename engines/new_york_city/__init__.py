"""New York City (Stefan Feld, City Collection 3, Queen Games 2021), 1 to 4 players and Tom."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import Game, InvalidOptions, Option, say
from .evaluate import evaluate, evaluate_seats
from .rules import NewYorkCityState
from .tom import RECOMMENDED_LEVEL

MAX_PLAYERS = 4  # four player colours: seats and Toms together


def toms_in_play(seats: int, options: dict[str, Any]) -> int:
    """A game with a single seat is always played against Tom (at least one)."""
    return options["toms"] or (1 if seats == 1 else 0)


def _check_setup(seats: int, options: dict[str, Any]) -> None:
    toms = toms_in_play(seats, options)
    if seats + toms > MAX_PLAYERS:
        raise InvalidOptions(
            "too_many_players",
            say("new_york_city.refusal.too_many_players", seats=seats, count=MAX_PLAYERS - seats),
        )
    if not toms and options["tom_level"] != RECOMMENDED_LEVEL:
        raise InvalidOptions("option_needs_tom", say("new_york_city.refusal.option_needs_tom"))


GAME = Game(
    id="new-york-city",
    title="New York City",
    min_seats=1,
    max_seats=4,
    state_class=NewYorkCityState,
    folder=Path(__file__).parent,
    rules_version=1,
    summary=(
        "Stefan Feld's skyline race: take pairs of cards, bid them in six rounds for press, dollars, "
        "characters, plans, prestige and skyscrapers, win the districts' majorities. Solo or with Tom."
    ),
    options=(
        Option(
            "toms",
            "How many Toms (the automaton of the solo rules, played by the engine) join the seats; "
            "seats and Toms are at most 4. A single seat always plays against at least one Tom (0 means 1).",
            default=0,
            minimum=0,
            maximum=3,
        ),
        Option(
            "tom_level",
            "Tom's level from the rulebook's table: 1 A6, 2 B3, 3 C2, 4 A7 (easy), 5 B4 (recommended), "
            "6 C3, 7 A8, 8 B5 (medium), 9 C4, 10 A9, 11 B6, 12 C5 (hard): "
            "mode A/B/C and cards drawn in Phase I.",
            default=RECOMMENDED_LEVEL,
            minimum=1,
            maximum=12,
        ),
    ),
    max_moves=20_000,
    evaluate=evaluate,
    evaluate_seats=evaluate_seats,
    # Against the greedy bot the search won 49 of 100 games judging from an even game, 65 of
    # the same 100 seeds judging from the position searched (bench/RESULTS.md).
    ismcts_centred_margins=True,
    # Hard with seven trees of random rollouts won 58 of 100 against medium; two trees whose
    # rollouts play the greedy bot's replies won 24 of 30 trial games (bench/RESULTS.md). Two
    # trees of 428 iterations are what its 1.2 s hold at the median on a quiet machine.
    ismcts_voting_greedy_rollouts=True,
    ismcts_max_searches=2,
    check_setup=_check_setup,
)
