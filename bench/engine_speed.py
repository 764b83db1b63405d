"""Engine speed: random-playout moves per second and the longest listing, per game and seat count.

Usage: python bench/engine_speed.py [--seconds 3] [--game property]
Not a test: figures go to bench/RESULTS.md by hand, with the machine they were taken on.
"""

from __future__ import annotations

import argparse
import random
import time

from engines.registry import GAMES


def measure(game_id: str, seats: int, seconds: float) -> dict:
    game = GAMES[game_id]
    options = game.option_combinations(seats)[0]
    moves = games = longest = 0
    clone_time = clones = 0
    started = time.perf_counter()
    seed = 0
    while time.perf_counter() - started < seconds:
        state = game.setup(seats, options, seed)
        rng = random.Random(seed)
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = rng.choice(acting)
            listing = state.legal_moves(seat)
            longest = max(longest, len(listing))
            state.apply_listed(seat, rng.choice(listing))
            moves += 1
            if moves % 50 == 0:
                t = time.perf_counter()
                state.clone()
                clone_time += time.perf_counter() - t
                clones += 1
        games += 1
        seed += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game_id,
        "seats": seats,
        "moves_per_second": round(moves / elapsed),
        "games": games,
        "moves_per_game": round(moves / max(games, 1)),
        "longest_listing": longest,
        "clone_us": round(1e6 * clone_time / max(clones, 1), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=sorted(GAMES))
    args = parser.parse_args()
    print("| game | seats | moves/s | moves/game | longest listing | clone µs |")
    print("|---|---|---|---|---|---|")
    for game_id in [args.game] if args.game else sorted(GAMES):
        for seats in GAMES[game_id].seat_counts():
            r = measure(game_id, seats, args.seconds)
            print(
                f"| {r['game']} | {r['seats']} | {r['moves_per_second']} | {r['moves_per_game']} "
                f"| {r['longest_listing']} | {r['clone_us']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
