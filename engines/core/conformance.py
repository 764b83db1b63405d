"""Checks every game must pass, run over random playouts (the conformance suite).

Written as plain functions over the protocol so the test suite, a new engine's author
and a benchmark can all use them. Failures raise ``ConformanceError`` naming the seed,
the step and what broke, which is enough to replay the position.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import GameOver, IllegalMove, InvalidMove, RulesError, UnknownSeat
from .events import redact
from .game import Game
from .state import Move, State, move_key

MAX_LISTED_MOVES = 1000

# How often a random playout picks among the game's preferred moves (Game.playout_moves).
PREFERRED_SHARE = 0.9

# The codes of a move not shaped like any move of the game, the same in every game.
SHAPE_CODES = ("malformed_move", "unknown_move_type")


# Viewers that are neither a seat nor the spectator (None); ``view`` must refuse them.
def _no_such_viewers(seats: int) -> list[Any]:
    return [seats, seats + 3, -1, "x", "0", True, 0.0, [0]]


Validator = Callable[[Any], None]


class ConformanceError(AssertionError):
    pass


@dataclass
class Playout:
    game: Game[State]
    seats: int
    options: dict[str, Any]
    seed: int
    moves: list[tuple[int, Move]] = field(default_factory=list)
    final: State | None = None
    saw_hidden: bool = False


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _fail(p: Playout, step: int, what: str) -> ConformanceError:
    return ConformanceError(
        f"{p.game.id} seats={p.seats} options={p.options} seed={p.seed} step={step}: {what}"
    )


def illegal_candidates(state: State, seat: int, rng: random.Random, limit: int = 10) -> list[Any]:
    """Moves that ``seat`` may not play now: junk, and mutations of its legal moves."""
    legal = state.legal_moves(seat)
    legal_keys = {move_key(m) for m in legal}
    candidates: list[Any] = ["not a move", [], {"type": 7}, {"type": "no_such_move"}, {}]
    for move in rng.sample(legal, min(3, len(legal))):
        candidates.append({**move, "unexpected": 1})
        for key, value in move.items():
            if key == "type":
                continue
            without = dict(move)
            del without[key]
            candidates.append(without)
            for other in _mutations(value):
                candidates.append({**move, key: other})
    candidates = [c for c in candidates if not isinstance(c, dict) or move_key(c) not in legal_keys]
    rng.shuffle(candidates)
    return candidates[:limit]


def _mutations(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value)]
    if isinstance(value, int):
        return [value + 1, value - 1, -1, 10**6, float(value), str(value)]
    if isinstance(value, float):
        return [value + 1.0, -1.0]
    if isinstance(value, str):
        return [value + "?", "", 0]
    if isinstance(value, list):
        return [[], value + value[:1] if value else [0], None]
    if isinstance(value, dict):
        return [{}, None]
    return [0, "x"]


def _has_float(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return isinstance(value, float)


def _is_shaped(validate_shape: Validator, move: Any) -> bool:
    """Whether the move fits the game's structural move schema (``Game.move_shape_schema``).
    No move field is fractional and moves are read exactly, so a float counts as malformed
    even where JSON Schema would let 1.0 be an integer."""
    if _has_float(move):
        return False
    try:
        validate_shape(move)
    except Exception:  # noqa: BLE001 - any validator's failure means "not shaped"
        return False
    return True


def check_refusal_kind(
    p: Playout, step: int, bad: Any, error: RulesError, validate_shape: Validator | None
) -> None:
    """One family and one code per fault: every refusal of a move is an ``IllegalMove``; a
    move whose fields do not fit the game's structural move schema is an ``InvalidMove``
    with a shape code, and a move that fits it is refused by a rule (never as malformed)."""
    if not isinstance(error, IllegalMove):
        raise _fail(p, step, f"refusal of {bad!r} is a {type(error).__name__}, not an IllegalMove")
    if validate_shape is None:
        return
    shaped = _is_shaped(validate_shape, bad)
    if not shaped and not (isinstance(error, InvalidMove) and error.code in SHAPE_CODES):
        raise _fail(
            p,
            step,
            f"{bad!r} does not fit the move schema but was refused as {error.code} "
            f"({type(error).__name__}), not as an InvalidMove with a code among {SHAPE_CODES}",
        )
    if shaped and (isinstance(error, InvalidMove) or error.code in SHAPE_CODES):
        raise _fail(p, step, f"{bad!r} fits the move schema but was refused as malformed ({error.code})")


def check_refusals(
    p: Playout, step: int, state: State, rng: random.Random, validate_shape: Validator | None = None
) -> None:
    """Unlisted moves are refused with a code and a sentence, leaving the state unchanged."""
    before = state.to_dict()
    acting = state.to_act()
    for seat in acting:
        for bad in illegal_candidates(state, seat, rng):
            try:
                accepted = state.resolve(seat, bad)
            except RulesError as error:
                if not error.code or not isinstance(error.code, str) or not error.message:
                    raise _fail(p, step, f"refusal of {bad!r} has no code or sentence") from None
                check_refusal_kind(p, step, bad, error, validate_shape)
            else:
                # An unlisted move is accepted only as the listed move it is the rules'
                # equivalent of; then it must play exactly as that move does.
                if accepted not in state.legal_moves(seat):
                    raise _fail(p, step, f"unlisted move {bad!r} of seat {seat} was accepted")
                as_sent, as_listed = state.clone(), state.clone()
                if as_sent.apply(seat, bad) != as_listed.apply(seat, accepted) or as_sent != as_listed:
                    raise _fail(p, step, f"{bad!r} was accepted as {accepted!r} but plays differently")
            if state.to_dict(copy=False) != before:
                raise _fail(p, step, f"refusing {bad!r} changed the state")
    idle = [s for s in range(state.seats) if s not in acting]
    if idle and acting:
        moves = state.legal_moves(acting[0])
        seat = rng.choice(idle)
        try:
            state.apply(seat, rng.choice(moves))
        except RulesError as error:
            if error.code != "not_your_turn":
                raise _fail(p, step, f"a move of idle seat {seat} gave {error.code}") from None
        else:
            raise _fail(p, step, f"seat {seat}, not to act, had a move accepted")
        if state.to_dict(copy=False) != before:
            raise _fail(p, step, "refusing a move of an idle seat changed the state")


def check_listing(
    p: Playout,
    step: int,
    state: State,
    validate_move: Validator | None,
    checked: dict[str, Move] | None = None,
) -> dict[int, list[Move]]:
    """``to_act`` and every seat's listing: unique JSON moves of known types, with labels, that
    fit the game's move schema. ``checked`` (move key -> the move as JSON reads it) holds the
    moves already found JSON, of a known type and valid in this playout: a move is listed at
    many steps, and what it is does not change, so it is checked once (its label, which depends
    on the state, at every step)."""
    if checked is None:
        checked = {}
    acting = state.to_act()
    if acting != sorted(set(acting)) or any(not 0 <= s < state.seats for s in acting):
        raise _fail(p, step, f"to_act {acting!r} is not a sorted list of seats")
    listings = {}
    for seat in range(state.seats):
        moves = state.legal_moves(seat)
        if seat not in acting:
            if moves:
                raise _fail(p, step, f"seat {seat} is not to act but has moves")
            continue
        if not moves:
            raise _fail(p, step, f"seat {seat} is to act but has no legal move")
        if len(moves) > MAX_LISTED_MOVES:
            raise _fail(p, step, f"seat {seat} has {len(moves)} moves listed (> 1000)")
        keys = [move_key(m) for m in moves]
        if len(set(keys)) != len(keys):
            raise _fail(p, step, f"seat {seat} has duplicate moves listed")
        for key, move in zip(keys, moves, strict=True):
            # json.loads(move_key(move)) is the move's JSON round trip: == tells a tuple from a
            # list, and the key tells 1 from 1.0 and True.
            read = checked.get(key)
            if read is None:
                read = json.loads(key)
                if read != move or move.get("type") not in state.move_types:
                    raise _fail(p, step, f"listed move {move!r} is not a JSON move of a known type")
                if validate_move is not None:
                    validate_move(move)
                checked[key] = read
            elif read != move:
                raise _fail(p, step, f"listed move {move!r} is not a JSON move of a known type")
            label = str(state.label(move))  # a Message reads as its English sentence
            if not isinstance(label, str) or not label.strip():
                raise _fail(p, step, f"listed move {move!r} has no label")
        listings[seat] = moves
    return listings


def check_views(
    p: Playout,
    step: int,
    state: State,
    rng: random.Random,
    validate_view: Validator | None,
    probed: list[int] | None = None,
) -> None:
    """The spectator's view and each ``probed`` seat's (every seat if None) are JSON and fit the
    game's schema, and a seat's view does not change when its hidden facts are re-dealt."""
    seats = list(range(state.seats)) if probed is None else probed
    before = state.to_dict()
    for viewer in _no_such_viewers(state.seats):
        try:
            state.view(viewer)
        except UnknownSeat:
            pass
        else:
            raise _fail(p, step, f"view({viewer!r}) answered for a seat that does not exist")
    views = {}
    for viewer in [None, *seats]:
        view = views[viewer] = state.view(viewer)
        if _json_roundtrip(view) != view:
            raise _fail(p, step, f"view of {viewer} is not plain JSON")
        if validate_view is not None:
            validate_view(view)
    for seat in seats:
        other = state.determinize(seat, random.Random(rng.random()))
        if other.view(seat) != views[seat]:
            raise _fail(p, step, f"view of seat {seat} depends on facts hidden from it")
        # determinize must depend only on what the seat knows: from the truth or from any
        # other state the seat cannot tell apart, the same rng gives the same sample.
        salt = rng.random()
        if state.determinize(seat, random.Random(salt)) != other.determinize(seat, random.Random(salt)):
            raise _fail(p, step, f"determinize({seat}) carries a trace of facts hidden from seat {seat}")
        if other.to_act() != state.to_act() or other.legal_moves(seat) != state.legal_moves(seat):
            raise _fail(p, step, f"determinize changed what seat {seat} may do")
        if {**other.__dict__, "rng": 0} != {**state.__dict__, "rng": 0}:
            p.saw_hidden = True
    if state.to_dict(copy=False) != before:
        raise _fail(p, step, "determinize or view changed the state")


def check_copies(p: Playout, step: int, state: State, rng: random.Random) -> None:
    data = state.to_dict()
    restored = p.game.restore(_json_roundtrip(data))
    if restored != state:
        raise _fail(p, step, "from_dict(to_dict()) is not the same state")
    copy = state.clone()
    acting = copy.to_act()
    if acting:
        seat = rng.choice(acting)
        copy.apply(seat, rng.choice(copy.legal_moves(seat)))
        if state.to_dict(copy=False) != data:
            raise _fail(p, step, "a move on a clone changed the original")


def check_evaluation(p: Playout, step: int, state: State, probed: list[int] | None = None) -> None:
    """A game's every-seat evaluation gives exactly its evaluate for each ``probed`` seat (every
    seat if None); its sharper one (Game.evaluate_seats_sharp) a finite number per seat,
    leaving the state unchanged."""
    if p.game.evaluate_seats_sharp is not None:
        before = state.to_dict()
        sharp = list(p.game.evaluate_seats_sharp(state))
        if len(sharp) != state.seats or not all(math.isfinite(value) for value in sharp):
            raise _fail(p, step, f"evaluate_seats_sharp gave {sharp} for {state.seats} seats")
        if state.to_dict(copy=False) != before:
            raise _fail(p, step, "evaluate_seats_sharp changed the state")
    if p.game.evaluate_seats is None:
        return
    evaluate = p.game.evaluate
    assert evaluate is not None, f"{p.game.id} has evaluate_seats but no evaluate"
    seats = range(state.seats) if probed is None else probed
    every = list(p.game.evaluate_seats(state))
    if len(every) != state.seats:
        raise _fail(p, step, f"evaluate_seats gave {every} for {state.seats} seats")
    together = [every[seat] for seat in seats]
    alone = [evaluate(state, seat) for seat in seats]
    if together != alone:
        raise _fail(p, step, f"evaluate_seats gave {together}, evaluate seat by seat {alone}")


def check_events(p: Playout, step: int, events: Any) -> None:
    if not isinstance(events, list) or _json_roundtrip(events) != events:
        raise _fail(p, step, "apply did not return a JSON list of events")
    for e in events:
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            raise _fail(p, step, f"event {e!r} has no type")
        secret = e.get("secret")
        if secret is not None:
            public = redact(e, None)
            if "secret" in public or any(k in public for k in secret.get("fields", {})):
                raise _fail(p, step, f"event {e!r} shows its secret to a spectator")


def check_result(p: Playout, state: State) -> None:
    result = state.result()
    if result is None:
        raise _fail(p, -1, "the game is over but has no result")
    data = result.to_dict()
    if _json_roundtrip(data) != data:
        raise _fail(p, -1, "the result is not plain JSON")
    n = state.seats
    if len(result.scores) != n or len(result.ranks) != n or len(result.breakdown) != n:
        raise _fail(p, -1, "the result does not give one score, rank and breakdown per seat")
    # Automata (Gédéon, Tom) are ranked beside the seats in result.extra["automata"].
    everyone = list(result.ranks) + [a.get("rank") for a in result.automata()]
    if 1 not in everyone or any(not isinstance(r, int) or not 1 <= r <= len(everyone) for r in everyone):
        raise _fail(p, -1, f"ranks {everyone} are not 1..{len(everyone)} with a winner")
    for seat in range(n):
        if state.legal_moves(seat):
            raise _fail(p, -1, f"seat {seat} has moves after the end")
    try:
        state.apply(0, {"type": state.move_types[0]})
    except GameOver:
        pass
    else:
        raise _fail(p, -1, "a move was accepted after the end")


def replay(
    game: Game[State], seats: int, options: dict[str, Any], seed: int, moves: list[tuple[int, Move]]
) -> State:
    """Return the state reached by replaying ``moves`` from a new game with that seed."""
    state = game.setup(seats, options, seed)
    for seat, move in moves:
        state.apply(seat, move)
    return state


def _playout_pool(
    game: Game[State], state: State, seat: int, moves: list[Move], rng: random.Random
) -> list[Move]:
    if game.playout_moves is None or rng.random() >= PREFERRED_SHARE:
        return moves
    return game.playout_moves(state, seat, moves) or moves


def random_playout(
    game: Game[State],
    seats: int,
    options: dict[str, Any],
    seed: int,
    *,
    probe_rate: float = 0.15,
    validate_move: Validator | None = None,
    validate_view: Validator | None = None,
    validate_shape: Validator | None = None,
    check: bool = True,
) -> Playout:
    """Play a whole game with random legal moves, checking the protocol along the way.

    Every step: the listings and the events. At step 0, then at a share ``probe_rate`` of the
    steps, and at the end: views, refusals, copies and evaluations. What is checked seat by seat
    (a seat's view, its re-deal of what it cannot see, its evaluation) takes every seat at step
    0 and at the end, and one seat in turn at the probes between: each seat is looked at all
    along the game, at a share of the cost (a re-deal is the costliest check).
    """
    p = Playout(game, seats, options, seed)
    rng = random.Random(f"{game.id}/{seats}/{seed}")
    state = game.setup(seats, options, seed)
    checked_moves: dict[str, Move] = {}
    step = probes = 0
    while True:
        listings = check_listing(p, step, state, validate_move, checked_moves) if check else None
        acting = state.to_act()
        if not acting:
            break
        if check and (step == 0 or rng.random() < probe_rate):
            probed = None if step == 0 else [probes % seats]
            probes += 1
            check_views(p, step, state, rng, validate_view, probed)
            check_refusals(p, step, state, rng, validate_shape)
            check_copies(p, step, state, rng)
            check_evaluation(p, step, state, probed)
        seat = rng.choice(acting)
        moves = listings[seat] if listings else state.legal_moves(seat)
        move = rng.choice(_playout_pool(game, state, seat, moves, rng))
        events = state.apply(seat, move)
        if check:
            check_events(p, step, events)
        p.moves.append((seat, move))
        step += 1
        if step > game.max_moves:
            raise _fail(p, step, f"the game did not end within {game.max_moves} moves")
    p.final = state
    if check:
        check_views(p, step, state, rng, validate_view)
        check_evaluation(p, step, state)
        check_result(p, state)
        again = replay(game, seats, options, seed, _json_roundtrip(p.moves))
        if again != state:
            raise _fail(p, step, "replaying (seed, options, moves) gave a different state")
    return p
