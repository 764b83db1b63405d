"""Fifth Avenue (Wilko Manz, alea 2004), 2 to 4 players; Gédéon bids as a third at two."""

from __future__ import annotations

from pathlib import Path

from ..core import Game, Option
from .evaluate import evaluate, evaluate_seats
from .rules import FifthAvenueState

GAME = Game(
    id="fifth-avenue",
    title="Fifth Avenue",
    min_seats=2,
    max_seats=4,
    state_class=FifthAvenueState,
    folder=Path(__file__).parent,
    rules_version=1,
    summary=(
        "Manhattan in the 1930s: place shops, steer the commissions, win plots at auction with "
        "construction cards and build skyscrapers beside the most varied shops."
    ),
    options=(
        Option(
            "quick_start",
            "Quick start: the 7 initial shops and everyone's two initial skyscrapers are placed at "
            "random (within the setup rules) instead of by the players.",
            default=False,
        ),
        Option(
            "six_plot_board",
            "Play the other side of the board: six plots per district, the sixth (with no colour) "
            "holding the initial shop. Meant for four players.",
            default=False,
        ),
    ),
    max_moves=30_000,
    evaluate=evaluate,
    evaluate_seats=evaluate_seats,
)
