"""Named levels a client picks for a bot seat: which strategy, with what budget.

``hard`` keeps a whole bot turn (job included) within 1.5 s at the 95th percentile;
``medium`` is ISMCTS's default level (the one the win-rate targets in bench/RESULTS.md
are measured at).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

from ..core.values import JSONObject

if TYPE_CHECKING:
    from ..core import Game, State


@dataclass(frozen=True)
class Level:
    name: str
    bot: str
    description: str
    iterations: int = 0
    seconds: float | None = None
    samples: int = 1
    epsilon: float = 0.0
    # Negative: play random moves until the searching seat is to act again (at most 12),
    # so every line is judged at the same point of the turn cycle (see docs/bots.md).
    rollout_depth: int = -12
    exploration: float = 0.2
    prior_visits: int = 10
    # Judge lines by how far they move each seat's margin from the position searched
    # (ismcts._Scale), where a game asks for it (Game.ismcts_centred_margins).
    centred_margins: bool = False
    # Independent trees sharing the iterations, voting on the move (ismcts_move).
    searches: int = 1
    # Rollout moves chosen as the greedy bot would (ismcts_move), not at random.
    greedy_rollouts: bool = False
    # Positions judged with the game's sharper evaluation (Game.evaluate_seats_sharp), where
    # it has one: set on the level, true in the catalog only for such games.
    sharp_evaluation: bool = False
    default_for_bot: bool = False

    def for_game(self, game: Game[State]) -> Level:
        """The level as played in ``game``: ISMCTS rollouts, iterations and prior weight as it asks."""
        if self.bot != "ismcts":
            return self
        depth = game.ismcts_rollout_depth
        prior = game.ismcts_prior_visits
        searches = self.searches
        if searches > 1 and game.ismcts_max_searches is not None:
            searches = min(searches, game.ismcts_max_searches)
        return replace(
            self,
            centred_margins=game.ismcts_centred_margins,
            rollout_depth=self.rollout_depth if depth is None else depth,
            # Each tree keeps its size (scaled) when the game allows fewer of them.
            iterations=self.iterations * game.ismcts_iteration_scale * searches // self.searches,
            prior_visits=self.prior_visits if prior is None else prior,
            searches=searches,
            greedy_rollouts=self.greedy_rollouts
            or (self.searches > 1 and game.ismcts_voting_greedy_rollouts),
            sharp_evaluation=self.sharp_evaluation and game.evaluate_seats_sharp is not None,
        )

    def to_dict(self) -> JSONObject:
        data = asdict(self)
        data.pop("default_for_bot")
        return {"level": data.pop("name"), **data}


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", "random", "Plays any legal move.", default_for_bot=True),
        Level(
            "easy",
            "greedy",
            "Looks one move ahead on one guess of the hidden cards, and sometimes blunders.",
            samples=1,
            epsilon=0.2,
        ),
        Level(
            "greedy",
            "greedy",
            "Looks one move ahead, averaging three guesses of the hidden cards.",
            samples=3,
            default_for_bot=True,
        ),
        Level(
            "medium",
            "ismcts",
            "Tree search over guesses of the hidden cards: up to 0.5 s (iterations as listed).",
            iterations=400,
            seconds=0.5,
            default_for_bot=True,
        ),
        Level(
            "hard",
            "ismcts",
            "Several tree searches over guesses of the hidden cards, voting on the move: up to 1.2 s "
            "(searches, iterations and judgement as listed; seven where the clock holds them).",
            iterations=3000,
            seconds=1.2,
            # One long search lost to medium's short one (Fresh Fish 5 of 20): seven of about
            # medium's size, each with its own guesses, won 66 of 100 (bench/RESULTS.md).
            searches=7,
            # Hard judged as medium does chooses as medium does (bench/RESULTS.md, "Do hard and
            # medium choose differently?"); where a title has a sharper evaluation, hard uses it.
            sharp_evaluation=True,
        ),
    )
}
DEFAULT_LEVEL = "medium"
