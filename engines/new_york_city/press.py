"""The press track: who leads, how pawns move and stack (rules NYC-PRESS-TRACK, NYC-PRESS-MOVE).

The track is kept as one list of ``[pawn, space]`` from the leader to the last pawn: a pawn
ahead on a space, or on top of a stack, comes first. ``pawn`` is a player index (seats first,
then the Toms) or ``BLACK`` for the neutral pawn, which never moves.
"""

from __future__ import annotations

from .board import BLACK, PRESS_LAST, PRESS_START

Track = list[list[int]]


def place(track: Track, pawn: int, space: int) -> None:
    """Put a pawn on ``space``: on top of the pawns already there, but under them on the last
    space (the rulebook: a pawn reaching the last space goes under those already there)."""
    space = max(PRESS_START, min(PRESS_LAST, space))
    index = 0
    if space == PRESS_LAST:
        while index < len(track) and track[index][1] >= space:
            index += 1
    else:
        while index < len(track) and track[index][1] > space:
            index += 1
    track.insert(index, [pawn, space])


def move(track: Track, pawn: int, steps: int) -> int:
    """Move a pawn ``steps`` spaces (negative: back) and return its new space.

    Reading: a pawn moving back with character 14 lands on top of the pawns already there,
    as every pawn stopping on an occupied space does.
    """
    for i, (who, space) in enumerate(track):
        if who == pawn:
            del track[i]
            place(track, pawn, space + steps)
            return max(PRESS_START, min(PRESS_LAST, space + steps))
    raise KeyError(pawn)


def space_of(track: Track, pawn: int) -> int:
    for who, space in track:
        if who == pawn:
            return space
    raise KeyError(pawn)


def order(track: Track) -> list[int]:
    """Players from the leader to the last, the black pawn left out (play order, bid ties)."""
    return [who for who, _ in track if who != BLACK]


def standing(track: Track) -> dict[int, int]:
    """Index on the track of every pawn, black included (0 = leader): majority ties."""
    return {who: i for i, (who, _) in enumerate(track)}


def position(track: Track, pawn: int) -> int:
    """Character 27: the pawn's place among the players (1 = leader), the black pawn ignored."""
    return order(track).index(pawn) + 1
