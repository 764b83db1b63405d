"""A game's result as the service gives it: the rules' result, with resignations taken into account.

A resigned seat is marked in ``meta["seats"]`` (``"resigned": <order>``, 1 for the first seat to
resign). With two seats the game ends at once and the service writes the result itself
(``meta["ended"]``: the other seat wins, ``"reason": "resignation"``; no scores or breakdown,
the rules never reached their end). With more, the resigned seats are played to the end by a
stand-in bot and the rules' result is ranked anew: the seats that never resigned first, ranked
among themselves as the rules rank them, then the resigned seats in the order they resigned
(the last to resign first, the first to resign last: whoever stayed longer ranks higher).
Every result of a game with a resignation says which seats resigned (``resigned``, per seat).
"""

from __future__ import annotations

from typing import cast

from engines.core import ResultDict, State

from ..store.records import GameMeta, GameResult


def resigned_order(meta: GameMeta) -> dict[int, int]:
    """Seat -> its place in the order of resignations (1 = first), for the seats that resigned."""
    return {seat["seat"]: seat["resigned"] for seat in meta["seats"] if seat.get("resigned")}


def resignation_result(meta: GameMeta, winner: int) -> GameResult:
    """The result of a two-seat game ended by a resignation: ``winner`` wins."""
    count = len(meta["seats"])
    order = resigned_order(meta)
    return {
        "scores": [],
        "ranks": [1 if seat == winner else 2 for seat in range(count)],
        "winners": [winner],
        "breakdown": [],
        "reason": "resignation",
        "resigned": [seat in order for seat in range(count)],
    }


def rerank(result: ResultDict, meta: GameMeta) -> GameResult:
    """The rules' ``result`` with the resigned seats ranked last, in the order they resigned."""
    order = resigned_order(meta)
    if not order:
        return cast(GameResult, result)  # the same keys, none resigned
    ranks = result["ranks"]
    staying = [seat for seat in range(len(ranks)) if seat not in order]
    new_ranks = list(ranks)
    for seat in staying:
        new_ranks[seat] = 1 + sum(1 for other in staying if ranks[other] < ranks[seat])
    # The last to resign stayed longest: first among the resigned; the first to resign is last.
    for place, seat in enumerate(sorted(order, key=order.__getitem__, reverse=True), start=1):
        new_ranks[seat] = len(staying) + place
    # A cast: the game's own facts of the end ride along under keys GameResult does not name.
    return cast(
        GameResult,
        {
            **result,
            "ranks": new_ranks,
            "winners": [seat for seat, rank in enumerate(new_ranks) if rank == 1],
            "resigned": [seat in order for seat in range(len(ranks))],
        },
    )


def game_result(meta: GameMeta, state: State) -> GameResult | None:
    """The game's result (None while it runs): the service's own, or the rules' re-ranked."""
    ended = meta.get("ended")
    if ended is not None:
        return ended
    result = state.result()
    if result is None:
        return None
    return rerank(result.to_dict(), meta)
