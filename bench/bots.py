"""Bot strength and speed, per game: matches between levels, ISMCTS iterations per second.

    python bench/bots.py [--games 20] [--game property] [--jobs 2]
        [--matchups medium:greedy,...] [--rollout-depth N] [--iterations N] [--prior-visits N]
        [--centred on|off] [--searches N] [--greedy-rollouts] [--sharp on|off] [--first-seed N]
    python bench/bots.py --reach hard [--game G] [trial settings]
    python bench/bots.py --agreement --games 30 [--game G] [--searches N]

For each game, in two-seat games (or the game's smallest table when it needs more), plays
    ismcts (medium, the default level) vs random, ismcts vs greedy, greedy vs random,
alternating seats, and prints the tested bot's win share (rank 1; a shared first place
counts as a win shared among the tied) with a 95 % Wilson interval. At tables of three or
more the other seats are all played by the opponent bot. Also prints ISMCTS iterations per
second on positions from random games. Iteration budgets only (no clock), so runs repeat.
``--rollout-depth``, ``--iterations``, ``--prior-visits``, ``--centred``, ``--searches``,
``--greedy-rollouts`` and ``--sharp`` play ISMCTS with another rollout depth, budget, weight of
its greedy prior, centre of its judgement, number of voting trees, rival model in its rollouts
or evaluation than the level's own as played in that game, for the tested level only
(how hard's seven searches and each game's ``ismcts_rollout_depth``,
``ismcts_iteration_scale``, ``ismcts_prior_visits`` and ``ismcts_centred_margins`` were chosen).
Not a test; record the output in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.bots import LEVELS, choose, play  # noqa: E402
from engines.core.conformance import random_playout  # noqa: E402
from engines.registry import GAMES  # noqa: E402


def bot(name: str, overrides: dict):
    """The level as the worker plays it (engines.bots.choose), with no clock: iteration budgets only.

    ``overrides`` (rollout_depth, iterations) change the level as the game plays it, to
    measure another setting.
    """
    if not overrides:
        return lambda s, seat, rng: choose(s, seat, None, rng, level=name)
    return lambda s, seat, rng: play(replace(LEVELS[name].for_game(s.game), **overrides), s, seat, rng)


def table(game_id: str) -> tuple[int, dict]:
    game = GAMES[game_id]
    seats = min(max(2, game.min_seats), game.max_seats)
    return seats, game.option_combinations(seats)[0]


def play_match(args: tuple[str, str, str, int, dict]) -> float:
    """One game: the tested level in one seat (rotating), the opponent level elsewhere."""
    game_id, tested, opponent, seed, overrides = args
    game = GAMES[game_id]
    seats, options = table(game_id)
    state = game.setup(seats, options, seed)
    tested_seat = seed % seats
    players = {s: bot(tested, overrides) if s == tested_seat else bot(opponent, {}) for s in range(seats)}
    rng = random.Random(seed)
    while not state.is_over():
        acting = state.to_act()
        seat = acting[rng.randrange(len(acting))]
        state.apply(seat, players[seat](state, seat, rng))
    ranks = state.result().ranks
    automata = state.result().to_dict().get("automata", [])
    firsts = ranks.count(1) + sum(1 for a in automata if a.get("rank") == 1)
    return 1.0 / firsts if ranks[tested_seat] == 1 else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - margin), min(1.0, centre + margin))


def positions(game_id: str, count: int = 6):
    """(state, seat, seed): positions part way through random games, with a choice to make."""
    game = GAMES[game_id]
    seats, options = table(game_id)
    for seed in range(count):
        playout = random_playout(game, seats, options, seed, check=False)
        state = game.setup(seats, options, seed)
        for seat, move in playout.moves[: len(playout.moves) * (seed + 1) // (count + 1)]:
            state.apply(seat, move)
        seat = state.to_act()[0]
        if len(state.legal_moves(seat)) >= 2:
            yield state, seat, seed


def search(plan, state, seat: int, seed: int, out_of_time=None) -> dict:
    """Run ``plan``'s ISMCTS once; its stats (iterations done)."""
    stats: dict = {}
    play(plan, state, seat, random.Random(seed), out_of_time=out_of_time, stats=stats)
    return stats


def iterations_per_second(game_id: str) -> float:
    medium = LEVELS["medium"].for_game(GAMES[game_id])
    total_iterations, total_seconds = 0, 0.0
    for state, seat, seed in positions(game_id):
        started = time.perf_counter()
        total_iterations += search(medium, state, seat, seed)["iterations"]
        total_seconds += time.perf_counter() - started
    return total_iterations / total_seconds if total_seconds else float("nan")


def clock_reach(game_id: str, level: str, overrides: dict | None = None) -> list[int]:
    """Iterations ``level`` does within its own clock (one core, no queue), per position.

    The bench plays iteration budgets only; this says how much of a budget a live bot,
    stopped by the level's ``seconds``, actually searches.
    """
    plan = replace(LEVELS[level].for_game(GAMES[game_id]), **(overrides or {}))
    reached = []
    for state, seat, seed in positions(game_id, 12):
        deadline = time.perf_counter() + plan.seconds
        stats = search(plan, state, seat, seed, lambda deadline=deadline: time.perf_counter() >= deadline)
        reached.append(stats["iterations"])
    return reached


def greedy_positions(game_id: str, count: int):
    """(state, seat): every seventh choice of two or more moves in greedy-against-greedy games."""
    game = GAMES[game_id]
    seats, options = table(game_id)
    found: list = []
    seed = 100
    while len(found) < count:
        state = game.setup(seats, options, seed)
        rng = random.Random(seed)
        decision = 0
        while not state.is_over() and len(found) < count:
            acting = state.to_act()
            seat = acting[rng.randrange(len(acting))]
            if len(state.legal_moves(seat)) >= 2:
                if decision % 7 == 3:
                    found.append((state.clone(), seat))
                decision += 1
            state.apply(seat, choose(state, seat, None, rng, level="greedy"))
        seed += 1
    return found


def agreement(game_id: str, overrides: dict, count: int = 30) -> dict[str, float]:
    """How often medium, hard and greedy choose the same move, and each with itself.

    Medium searches each position three times and hard twice, on other seeds: a level that
    agrees with another as often as with itself chooses like it, and more iterations change
    its play only by steadying it.
    """
    medium = replace(LEVELS["medium"].for_game(GAMES[game_id]), seconds=None)
    hard = replace(LEVELS["hard"].for_game(GAMES[game_id]), seconds=None, **overrides)
    pairs: dict[str, list[float]] = {
        name: [] for name in ("medium-medium", "hard-hard", "medium-hard", "medium-greedy", "hard-greedy")
    }

    def same(left: list, right: list) -> float:
        return sum(a == b for a in left for b in right) / (len(left) * len(right))

    def self_same(choices: list) -> float:
        pairs_of = list(itertools.combinations(choices, 2))
        return sum(a == b for a, b in pairs_of) / len(pairs_of)

    key = orjson.dumps
    for state, seat in greedy_positions(game_id, count):
        by_medium = [key(play(medium, state, seat, random.Random(seed))) for seed in (1, 2, 3)]
        by_hard = [key(play(hard, state, seat, random.Random(seed))) for seed in (1, 2)]
        by_greedy = [key(choose(state, seat, None, random.Random(1), level="greedy"))]
        pairs["medium-medium"].append(self_same(by_medium))
        pairs["hard-hard"].append(self_same(by_hard))
        pairs["medium-hard"].append(same(by_medium, by_hard))
        pairs["medium-greedy"].append(same(by_medium, by_greedy))
        pairs["hard-greedy"].append(same(by_hard, by_greedy))
    return {name: sum(values) / len(values) for name, values in pairs.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per matchup")
    parser.add_argument(
        "--first-seed", type=int, default=0, help="play seeds first-seed onwards (to extend a run)"
    )
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--speed-only", action="store_true", help="only ISMCTS iterations per second")
    parser.add_argument(
        "--reach", choices=("medium", "hard"), help="only: iterations the level does within its clock"
    )
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="only: how often medium, hard (with the trial settings) and greedy choose alike",
    )
    parser.add_argument(
        "--rollout-depth", type=int, help="ISMCTS rollout depth instead of the game's own (a trial)"
    )
    parser.add_argument("--iterations", type=int, help="ISMCTS iterations instead of the level's (a trial)")
    parser.add_argument(
        "--prior-visits", type=int, help="ISMCTS's greedy prior worth this many visits (a trial)"
    )
    parser.add_argument(
        "--centred",
        choices=("on", "off"),
        help="ISMCTS judges lines from the margins of the position searched, or from an even game (a trial)",
    )
    parser.add_argument(
        "--searches", type=int, help="ISMCTS as this many trees voting, sharing the iterations (a trial)"
    )
    parser.add_argument(
        "--sharp",
        choices=("on", "off"),
        help="ISMCTS judges with the title's sharper evaluation (Game.evaluate_seats_sharp) or not (a trial)",
    )
    parser.add_argument(
        "--greedy-rollouts",
        action="store_true",
        help="ISMCTS rollouts play the greedy bot's move rather than a random one (a trial)",
    )
    parser.add_argument(
        "--matchups", default="medium:random,medium:greedy,greedy:random", help="tested:opponent,..."
    )
    args = parser.parse_args()
    titles = args.game or sorted(GAMES)
    overrides = {
        name: value
        for name, value in (
            ("rollout_depth", args.rollout_depth),
            ("iterations", args.iterations),
            ("prior_visits", args.prior_visits),
            ("centred_margins", None if args.centred is None else args.centred == "on"),
            ("searches", args.searches),
            ("greedy_rollouts", args.greedy_rollouts or None),
            ("sharp_evaluation", None if args.sharp is None else args.sharp == "on"),
        )
        if value is not None
    }
    speeds = {}
    if args.agreement:
        for game_id in titles:
            rates = agreement(game_id, overrides, args.games)
            shown = ", ".join(f"{name} {rate:.0%}" for name, rate in rates.items())
            print(f"{game_id} ({args.games} positions): {shown}", flush=True)
        return
    if not (args.speed_only or args.reach):
        print("| game | seats | tested | opponent | games | win share | 95 % interval |")
        print("|---|---|---|---|---|---|---|")
    with multiprocessing.Pool(args.jobs) as pool:
        for game_id in titles:
            if args.reach:
                plan = replace(LEVELS[args.reach].for_game(GAMES[game_id]), **overrides)
                reached = sorted(clock_reach(game_id, args.reach, overrides))
                print(
                    f"{game_id}: {args.reach} ({plan.iterations} iterations, {plan.searches} searches,"
                    f" {plan.seconds} s) reached {reached} iterations"
                    f" (median {reached[len(reached) // 2]})",
                    flush=True,
                )
                continue
            if args.speed_only:
                speeds[game_id] = iterations_per_second(game_id)
                continue
            seats, _ = table(game_id)
            for tested, opponent in (pair.split(":") for pair in args.matchups.split(",")):
                started = time.perf_counter()
                results = []
                seeds = range(args.first_seed, args.first_seed + args.games)
                matches = [(game_id, tested, opponent, seed, overrides) for seed in seeds]
                for seed, result in zip(seeds, pool.imap(play_match, matches, chunksize=1), strict=True):
                    results.append(result)
                    # every game, so that a long run cut short still counts to the last seed
                    print(
                        f"  {game_id} {tested}:{opponent} seed {seed}: {result:g}"
                        f" (so far {sum(results):g}/{len(results)})",
                        file=sys.stderr,
                        flush=True,
                    )
                wins = sum(results)
                low, high = wilson(wins, len(results))
                share = wins / len(results)
                seconds = time.perf_counter() - started
                row = f"| {game_id} | {seats} | {tested} | {opponent} | {len(results)} | {share:.0%} "
                wins_seeds = f"{wins:g} wins, seeds {seeds.start}–{seeds.stop - 1}"
                print(f"{row}| {low:.0%}–{high:.0%} |  <!-- {wins_seeds}, {seconds:.0f} s -->", flush=True)
            speeds[game_id] = iterations_per_second(game_id)
    if args.reach:
        return
    print()
    print("| game | ISMCTS iterations/s (one core) |")
    print("|---|---|")
    for game_id, speed in speeds.items():
        print(f"| {game_id} | {speed:.0f} |")


if __name__ == "__main__":
    main()
