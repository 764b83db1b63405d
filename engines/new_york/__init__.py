"""New York (Sid Sackson & Sven Kübler, Piatnik 1995), 3 to 5 players, 2 with two colours each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import Game, InvalidOptions, Option, say
from .evaluate import evaluate
from .plays import playout_moves
from .rules import NewYorkState


def _check_setup(seats: int, options: dict[str, Any]) -> None:
    """Rules NY-PLAYERS, NY-V3, NY-V4: which seat counts each variant is played with."""
    if options["two_colours"] and seats != 2:
        raise InvalidOptions(
            "two_colours_needs_two_players", say("new_york.refusal.two_colours_needs_two_players")
        )
    if seats == 2 and not options["two_colours"]:
        # Only when a client asks for it: with 2 seats the option is on unless turned off.
        raise InvalidOptions(
            "two_players_need_two_colours", say("new_york.refusal.two_players_need_two_colours")
        )
    if options["teams"] and seats != 4:
        raise InvalidOptions("teams_need_four_players", say("new_york.refusal.teams_need_four_players"))


GAME = Game(
    id="new-york",
    title="New York",
    min_seats=2,
    max_seats=5,
    state_class=NewYorkState,
    folder=Path(__file__).parent,
    # 2: one's own building may be designated by choice (NY-TAKE-OWN); in variant 3 the
    # price and Statik's leader count the player's two colours (NY-V3-OWNER).
    rules_version=2,
    summary="Sackson & Kübler's Manhattan: play an avenue and a street card, take or buy the building "
    "at the crossing, and grow the largest connected block.",
    options=(
        Option(
            "events",
            "Variant 1: the 12 event cards (Sanierung, Ruin, Spekulation, Baulöwe, Statik) are shuffled "
            "into the deck.",
            default=False,
        ),
        Option(
            "chosen_colours",
            "Variant 2: players choose their colour before the preliminary round and place their own "
            "pieces in it (no colour draw).",
            default=False,
        ),
        Option(
            "two_colours",
            "Variant 3: the 2-player game, each playing two colours as if 4 played. The only way two "
            "play: on by default with 2 seats (x-seat-defaults), refused with more.",
            default=False,
            seat_defaults=((2, True),),
        ),
        Option(
            "own_building_last_resort",
            "Reading of the German review (ludorium, LUNY: 'wenn nicht anders möglich, müssen eigene "
            "Gebäude entfernt werden'): one's own building is lost only when no card pair can take a "
            "building. Off: the French rules, where designating one's own building is a normal "
            "choice ('Si le bâtiment choisi appartient au joueur, le joueur le perd').",
            default=False,
        ),
        Option(
            "price_per_colour",
            "Variant 3 only: the purchase price and Statik's leader count the buildings of the "
            "colour, as if 4 played (the setup is 'comme pour 4 joueurs'; this server's reading "
            "before rules version 2). Off: they count the owner player's buildings in both colours "
            "('le nombre de bâtiments que le propriétaire actuel a').",
            default=False,
            seats=(2,),
        ),
        Option(
            "teams",
            "Variant 4: 4 players in teams of two, partners opposite (seats 0 and 2, 1 and 3); partners "
            "may exchange cards and add their points.",
            default=False,
        ),
    ),
    max_moves=20_000,
    evaluate=evaluate,
    # Measured (bench/bots.py --rollout-depth): against the greedy bot ISMCTS won 58 % of 80
    # games judging each new node at once, 48 % of the same seeds with random moves first.
    ismcts_rollout_depth=0,
    # With ties in the search's prior broken at random: 400 iterations won 54 % of 80 games
    # against the greedy bot, 800 won 59 %, 1,200 won 65 % of the same seeds (bench/bots.py
    # --iterations). Medium's 0.5 s hold about 940 of them here (bench/bots.py --reach medium).
    ismcts_iteration_scale=3,
    # Hard's 1.2 s did about 2,400 iterations here (bench/bots.py --reach hard, machine
    # quiet, 2026-11-27): two trees of 1,286, not seven. A faster machine (2026-11-28)
    # held three, which won no more against medium (55 of 100), so two stay.
    ismcts_max_searches=2,
    check_setup=_check_setup,
    playout_moves=playout_moves,
)
