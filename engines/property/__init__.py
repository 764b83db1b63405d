"""Property (Sid Sackson, A Gamut of Games, 1969), 2 to 6 players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import Game, InvalidOptions, Option, say
from .evaluate import evaluate
from .rules import PropertyState


def _check_setup(seats: int, options: dict[str, Any]) -> None:
    if options["bankruptcies_to_end"] >= seats:
        raise InvalidOptions(
            "option_needs_more_seats",
            say("property.refusal.option_needs_more_seats", seats=seats, count=seats - 1),
        )


GAME = Game(
    id="property",
    title="Property",
    min_seats=2,
    max_seats=6,
    state_class=PropertyState,
    folder=Path(__file__).parent,
    rules_version=1,
    summary="Sid Sackson's card-driven land grab on an 8x8 grid: rent, purchase, mortgage, bankruptcy.",
    options=(
        Option(
            "bankruptcies_to_end",
            "The game ends at this many bankruptcies (the rulebook's longer game: 2 or 3); "
            "a bankrupt player's squares become vacant. At most one less than the number of "
            "seats (2 seats: 1, 3 seats: up to 2); more is refused with option_needs_more_seats.",
            default=1,
            minimum=1,
            maximum=3,
        ),
        Option(
            "property_value",
            "Each square owned counts $5 in the final fortunes (never for paying rent).",
            default=False,
        ),
    ),
    max_moves=20_000,
    evaluate=evaluate,
    # Medium's 400 iterations won 52 % of 40 games against the greedy bot, 1,200 won 68 %
    # of the same seeds (bench/RESULTS.md); 1,200 take about 0.4 s here.
    ismcts_iteration_scale=3,
    # Hard's 1.2 s do about 6,300 iterations here (bench/bots.py --reach hard, machine
    # quiet): five trees of 1,286, not seven.
    ismcts_max_searches=5,
    check_setup=_check_setup,
)
