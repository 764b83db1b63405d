"""What one seat (or a spectator) sees of a Fifth Avenue game (rule FA-HIDDEN).

Everything on the table is shown: the board, the shop supply, the tiles under Central Park,
scores, reserves, the top card of every colour pile, the cards seen going under a pile,
bids laid face up, and of every hand its size, the cards the table saw enter it and how many
secret cards of each kind it holds. Only its owner sees a hand whole and an unfinished bid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import View
from . import board, piles
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState


_CARD_ORDER = {card: (m.KINDS.index(m.CARD_KIND[card]), m.CARD_VALUE[card]) for card in m.ALL_CARDS}
# What never changes about a plot, per board side: its id, colour and neighbours.
_PLOT_FACTS = {
    six: [
        [
            (
                plot_id,
                None if plot_id == m.SIXTH else plot_id,
                [ring[j] for j in board.neighbours(len(ring), i)],
            )
            for i, plot_id in enumerate(ring)
        ]
        for ring in m.rings(six)
    ]
    for six in (False, True)
}


def _card_order(card: str) -> tuple[int, int]:
    return _CARD_ORDER[card]


def build_view(state: FifthAvenueState, seat: int | None) -> View:
    facts = _PLOT_FACTS[state.options["six_plot_board"]]
    districts = []
    for d, district in enumerate(state.districts):
        districts.append(
            {
                "id": m.DISTRICT_IDS[d],
                "name": m.DISTRICT_NAMES[m.DISTRICT_IDS[d]],
                "column": m.DISTRICT_COLUMN[m.DISTRICT_IDS[d]],
                "closed": district["closed"],
                "plots": [
                    {
                        "plot": plot_id,
                        "colour": colour,
                        "neighbours": list(beside),
                        "shops": list(plot["shops"]),
                        "owner": plot["owner"],
                        "skyscrapers": plot["count"],
                    }
                    for (plot_id, colour, beside), plot in zip(facts[d], district["plots"], strict=True)
                ],
            }
        )
    players = []
    for s, player in enumerate(state.players):
        shown = {
            "seat": s,
            "score": player["score"],
            "points": dict(player["points"]),
            "reserve": player["reserve"],
            "common_supply": player["supply"],
            "central_park": player["park"],
            "removed": player["boxed"],
            "hand_size": len(player["hand"]),
            "shown_cards": sorted(player["shown"], key=_card_order),
            "secret_cards": piles.hidden_kinds(player),
        }
        if s == seat:
            shown["hand"] = sorted(player["hand"], key=_card_order)
        players.append(shown)
    step = state.setup_step
    return {
        "options": dict(state.options),
        "phase": state.phase,
        "current": state.current,
        "turn": {
            "action": state.turn["action"],
            "phase": state.turn["step"],
            "colours_taken": list(state.turn["taken"]),
        },
        "setup": {
            "tile": step["tile"],
            "initial_shops_placed": step["placed"],
            "skyscraper_order": list(step["order"]),
            "skyscrapers_placed": step["index"],
        },
        "districts": districts,
        "commissions": dict(state.pawns),
        "expertise": {pawn: list(ds) for pawn, ds in state.expertise.items()},
        "building_stops": list(state.closed_order),
        "building_stop_signs_left": m.CLOSURE_SIGNS - len(state.closed_order),
        "shop_supply": [list(block) for block in state.blocks],
        "shops_placed": state.shops_placed,
        "under_central_park": list(state.under_park),
        "shops_removed": list(state.boxed_tiles),
        "face_down_shops": len(state.tile_bag),
        "colour_piles": {
            colour: {
                "top": piles.top(pile),
                "size": piles.size(pile),
                "known_bottom": list(pile["known"]),
            }
            for colour, pile in state.colour_piles.items()
        },
        "black_pile": {
            "size": piles.size(state.black_pile),
            "known_bottom": [{"card": c, "face_up": up} for c, up in state.black_pile["known"]],
        },
        "players": players,
        "gedeon": None
        if state.gedeon is None
        else {"skyscrapers_left": state.gedeon["supply"], "removed": state.gedeon["boxed"]},
        "auction": _auction_view(state, seat),
        "end": None
        if state.end is None
        else {"reason": state.end["reason"], "revealed": list(state.end["revealed"])},
    }


def _auction_view(state: FifthAvenueState, seat: int | None) -> dict[str, Any] | None:
    a = state.auction
    if a is None:
        return None
    g = a["gedeon"]
    return {
        "pawn": a["pawn"],
        "starter": a["starter"],
        "venue": a["venues"][0],
        "venues_left": list(a["venues"][1:]),
        "allowed_colours": [list(c) for c in a["allowed"]],
        "turn": a["turn"],
        "bids": [list(b) for b in a["bids"]],
        "bid_totals": [sum(m.CARD_VALUE[c] for c in b) for b in a["bids"]],
        "colours": list(a["colours"]),
        "passed": list(a["passed"]),
        "high": a["high"],
        "value": a["value"],
        "park_colour": a["park_colour"],
        "gedeon": None
        if g is None
        else {"cards": list(g["cards"]), "total": g["value"], "acted": g["acted"]},
        "award": None if a["award"] is None else dict(a["award"]),
        "my_draft": list(a["draft"][seat]) if seat is not None else None,
    }
