"""Fresh Fish (Friedemann Friese, 2F-Spiele 1997), 2 to 5 players."""

from __future__ import annotations

from pathlib import Path

from ..core import Game, Option
from .evaluate import evaluate, evaluate_seats
from .rules import FreshFishState

GAME = Game(
    id="fresh-fish",
    title="Fresh Fish",
    min_seats=2,
    max_seats=5,
    state_class=FreshFishState,
    folder=Path(__file__).parent,
    rules_version=1,
    summary=(
        "Friedemann Friese's city of plots: reserve, build, win retailers in blind auctions, "
        "and keep the street routes from the distributors short while expropriation reshapes them."
    ),
    options=(
        Option(
            "distributors",
            "Where the four distributors stand: 'corners' (the easier game: the port and the other "
            "three in the corners), 'quarters' (the harder game as recommended: the players place "
            "them, the port in a corner, one per quarter of the board) or 'anywhere' (the harder "
            "game as written: the port in a corner, the others on any plot).",
            default="corners",
            choices=("corners", "quarters", "anywhere"),
        ),
    ),
    max_moves=1_000,
    evaluate=evaluate,
    evaluate_seats=evaluate_seats,
)
