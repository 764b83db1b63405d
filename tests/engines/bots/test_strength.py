"""Strength regression: a change that breaks a bot's play (an evaluation, the search) fails here.

Fixed seeds, played exactly as ``bench/bots.py`` plays them (same seats, same seeds, no clock),
so every run gives the same games. Each title's greedy bot must win nearly every game against
random moves; the thresholds are chosen so that a bot no better than random fails: with
``games`` games at two seats a coin-flipper wins ``wins_needed`` or more with the chance given,
and the Wilson 95 % lower bound of the share needed is above the even share. Wettstreit is
played at three seats (one greedy bot, two random), where the even share is a third.

The medium level (ISMCTS with its real iteration budget) is checked on the cheapest title,
Fresh Fish, whose games take a few seconds; the others take 10–25 s a game, too long for
``make test`` (bench/RESULTS.md has their 100-game rows). About 40 s of CPU in all.
"""

from __future__ import annotations

import pytest

from bench.bots import play_match, table, wilson

# title: (games, wins needed). Two seats: 9 of 10 (Wilson lower bound 60 %, a coin-flipper
# passes 1 % of the time), 7 of 8 (53 %, 3.5 %). Wettstreit, three seats: 4 of 5 first
# places (38 % against an even 33 %; a bot with the even share passes 4.5 % of the time).
GREEDY_AGAINST_RANDOM = {
    "fifth-avenue": (8, 7),
    "fresh-fish": (10, 9),
    "new-york": (8, 7),
    "new-york-city": (10, 9),
    "property": (10, 9),
    "wettstreit": (5, 4),
}
MEDIUM_AGAINST_RANDOM = {"fresh-fish": (2, 2)}


def _wins(game_id: str, tested: str, opponent: str, games: int) -> float:
    return sum(play_match((game_id, tested, opponent, seed, {})) for seed in range(games))


def _even_share(game_id: str) -> float:
    seats, _ = table(game_id)
    return 1 / seats


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(GREEDY_AGAINST_RANDOM))
def test_the_greedy_bot_beats_random_play(game_id):
    games, needed = GREEDY_AGAINST_RANDOM[game_id]
    assert wilson(needed, games)[0] > _even_share(game_id), "the threshold must exclude an even share"
    wins = _wins(game_id, "greedy", "random", games)
    assert wins >= needed, f"greedy won {wins} of {games} games against random in {game_id}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(MEDIUM_AGAINST_RANDOM))
def test_the_medium_bot_beats_random_play(game_id):
    games, needed = MEDIUM_AGAINST_RANDOM[game_id]
    wins = _wins(game_id, "medium", "random", games)
    assert wins >= needed, f"medium won {wins} of {games} games against random in {game_id}"
