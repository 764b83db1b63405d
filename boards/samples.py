"""Positions to draw without a server: random games played by the engines, each shown to one
caller as ``GET /games/{id}`` shows it. Used by the tests and to draw docs/boards/.

    python -m boards.samples docs/boards      # one picture per title, seat 0's view mid-game

This module plays games, so it touches states; the renderers never do (they get ``shown``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from engines.core import State
from engines.core.game import Game
from engines.registry import GAMES

from . import render_svg


def seats_meta(count: int, humans: int | None = None) -> list[dict[str, Any]]:
    """Public seat entries as the service lists them (no tokens): humans first, then bots."""
    humans = count if humans is None else humans
    return [
        {"seat": s, "kind": "human", "name": f"Player {s + 1}"}
        if s < humans
        else {"seat": s, "kind": "bot", "bot": "random", "level": "random"}
        for s in range(count)
    ]


def shown_game(
    game: Game[State],
    state: State,
    seat: int | None,
    version: int,
    seats: list[dict[str, Any]],
    game_id: str = "sample",
) -> dict[str, Any]:
    """The reply of GET /games/{id} for ``seat`` (None: a spectator); see service/play/games.py."""
    result = state.result()
    return {
        "id": game_id,
        "title": game.id,
        "rules_version": game.rules_version,
        "version": version,
        "status": "finished" if state.is_over() else "active",
        "to_act": state.to_act(),
        "you": seat,
        "options": dict(state.options),
        "seats": seats,
        "view": state.view(seat),
        "result": None if result is None else result.to_dict(),
    }


def play_random(game: Game[State], state: State, rng: random.Random, moves: int) -> int:
    """Plays up to ``moves`` random legal moves; returns how many were played."""
    played = 0
    while played < moves and state.to_act():
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        played += 1
    return played


def sample(game_id: str, seats: int, seed: int, moves: int) -> tuple[Game, State, int]:
    game = GAMES[game_id]
    state = game.setup(seats, game.option_combinations(seats)[0], seed)
    played = play_random(game, state, random.Random(seed), moves)
    return game, state, played


def write_docs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in sorted(GAMES):
        path = folder / f"{game_id}.svg"
        path.write_text(render_svg(docs_example(game_id)), encoding="utf-8")
        written.append(path)
    return written


def docs_example(game_id: str) -> dict[str, Any]:
    """The position docs/boards/ draws: seat 0's view, 60 random moves into a seeded game."""
    game = GAMES[game_id]
    seats = max(game.min_seats, min(3, game.max_seats))
    game, state, played = sample(game_id, seats, seed=2026, moves=60)
    return shown_game(game, state, 0, played, seats_meta(seats, humans=1), game_id="example")


if __name__ == "__main__":
    for path in write_docs(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/boards")):
        print(path)
