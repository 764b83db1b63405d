"""How well New York judgements foretell who wins: logistic fits on greedy games' positions.

A leaf judge serves a search best when its values order positions as the results do. This
plays greedy-against-greedy games (two seats, variant 3, as bench/bots.py plays them),
takes every position where a turn starts once the colours are drawn, and fits the chance
that seat 0 wins from a few features of it, one model per line of the table: evaluate's
margin alone, then evaluate's terms weighted freely, then those weights moving with the
share of the city owned. Models are compared by their log-loss on the games held out (every
fifth seed), never on the games they were fitted to.

    python bench/new_york_judge.py --games 1200 --first-seed 20000 [--save FILE | --rows FILE]

Pure Python (Newton's method on a handful of weights); about 0.4 s a game to play.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.bots import choose  # noqa: E402
from engines.new_york import city  # noqa: E402
from engines.new_york import material as m  # noqa: E402
from engines.new_york.evaluate import evaluate  # noqa: E402
from engines.new_york.scoring import colour_score  # noqa: E402
from engines.registry import GAMES  # noqa: E402

GAME = GAMES["new-york"]


def _largest_group_liberties(board, colour: int) -> int:
    """Free buildings beside the colour's largest group (the first such group in board order)."""
    found = city.groups(board, colour)
    if not found:
        return 0
    return len({(r, c) for square in found[0] for r, c in city.NEIGHBOURS[square] if board[r][c] is None})


def features(state, seat: int) -> dict[str, float]:
    """The seat's side less its rival's, term by term, and how much of the city is owned."""
    rival = 1 - seat
    by_colour = city.group_sizes_by_colour(state.board)
    two = state.options["two_colours"]

    def side(s: int) -> tuple[float, float, float, float, float]:
        points = second = liberties = 0.0
        for colour in state.seat_colours[s]:
            sizes = by_colour.get(colour, [])
            largest = sizes[0] if sizes else 0
            points += colour_score(largest, state.on_board[colour], two)
            second += sizes[1] if len(sizes) > 1 else 0
            liberties += _largest_group_liberties(state.board, colour)
        jokers = sum(1 for card in state.hands[s] if m.is_joker(card))
        return points, second, float(state.money[s]), float(jokers), liberties

    mine, theirs = side(seat), side(rival)
    names = ("points", "second", "money", "jokers", "liberties")
    row = {name: a - b for name, a, b in zip(names, mine, theirs, strict=True)}
    row["hand"] = float(len(state.hands[seat]) - len(state.hands[rival]))
    row["margin"] = evaluate(state, seat)
    row["progress"] = sum(state.on_board) / (m.SIZE * m.SIZE)
    return row


def play(seed: int) -> list[dict[str, float]]:
    """One greedy game's positions, each with the game's seed and seat 0's result (½ a tie)."""
    options = GAME.option_combinations(2)[0]
    state = GAME.setup(2, options, seed)
    rng = random.Random(seed)
    rows = []
    while not state.is_over():
        seat = state.to_act()[0]
        if state.phase == "play" and all(state.seat_colours):
            rows.append(features(state, 0))
        state.apply(seat, choose(state, seat, None, rng, level="greedy"))
    ranks = state.result().ranks
    result = 0.5 if ranks[0] == ranks[1] else float(ranks[0] == 1)
    return [{**row, "y": result, "seed": seed} for row in rows]


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a handful of unknowns)."""
    n = len(vector)
    rows = [line[:] + [vector[i]] for i, line in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                for k in range(col, n + 1):
                    rows[r][k] -= factor * rows[col][k]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1e-3, steps: int = 8) -> list[float]:
    """Logistic regression by Newton's method (a little ridge keeps it well posed)."""
    d = len(xs[0])
    weights = [0.0] * d
    for _ in range(steps):
        gradient = [0.0] * d
        hessian = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys, strict=True):
            p = _sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))
            spread = p * (1 - p)
            for i in range(d):
                gradient[i] += (p - y) * x[i]
                scaled = spread * x[i]
                line = hessian[i]
                for j in range(d):
                    line[j] += scaled * x[j]
        for i in range(d):
            hessian[i][i] += ridge
            gradient[i] += ridge * weights[i]
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def log_loss(weights: list[float], xs: list[list[float]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(1 - 1e-12, max(1e-12, _sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(xs)


TERMS = ("points", "second", "money", "jokers")
MODELS = {
    "no knowledge (a constant)": lambda r: [1.0],
    "evaluate's margin": lambda r: [1.0, r["margin"]],
    "evaluate's margin, weight moving with the city owned": lambda r: [
        1.0,
        r["margin"],
        r["margin"] * r["progress"],
    ],
    "evaluate's terms, each weighted": lambda r: [1.0] + [r[t] for t in TERMS],
    "the terms and liberties, each weighted": lambda r: [1.0] + [r[t] for t in (*TERMS, "liberties")],
    "the terms, weights moving with the city owned": lambda r: (
        [1.0] + [r[t] for t in TERMS] + [r[t] * r["progress"] for t in TERMS]
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--first-seed", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", help="read the positions from this file (JSON lines) instead of playing")
    parser.add_argument("--save", help="write the positions played to this file (JSON lines), for --rows")
    args = parser.parse_args()
    if args.rows:
        rows = [orjson.loads(line) for line in Path(args.rows).read_bytes().splitlines()]
    else:
        seeds = range(args.first_seed, args.first_seed + args.games)
        with multiprocessing.Pool(args.jobs) as pool:
            rows = [row for game in pool.imap(play, seeds, chunksize=4) for row in game]
        if args.save:
            Path(args.save).write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    train = [r for r in rows if r["seed"] % 5]
    test = [r for r in rows if not r["seed"] % 5]
    games = len({r["seed"] for r in rows})
    print(f"{len(rows)} positions of {games} games; fitted on {len(train)}, judged on {len(test)}\n")
    print("| model | held-out log-loss | fitted log-loss | weights (constant first) |")
    print("|---|---|---|---|")
    for name, shape in MODELS.items():
        xs = [shape(r) for r in train]
        weights = fit(xs, [r["y"] for r in train])
        held_out = log_loss(weights, [shape(r) for r in test], [r["y"] for r in test])
        fitted = log_loss(weights, xs, [r["y"] for r in train])
        shown = ", ".join(f"{w:.3f}" for w in weights)
        print(f"| {name} | {held_out:.4f} | {fitted:.4f} | {shown} |")


if __name__ == "__main__":
    main()
