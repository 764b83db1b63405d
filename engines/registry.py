"""The registered games, by id and rules version. Adding a game is one import and one entry here.

A game's rules change by a new ``rules_version``, never by editing a published one: a game keeps
the version it began with for its whole life, live or archived, so every published version stays
registered (docs/engines.md, "Shipping a rule fix"). ``get(title)`` is the newest, what a new game
plays; ``get(title, version)`` the one a stored game began under.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .core import Game, InvalidState, State, UnknownGame, say
from .fifth_avenue import GAME as FIFTH_AVENUE
from .fresh_fish import GAME as FRESH_FISH
from .new_york import GAME as NEW_YORK
from .new_york_city import GAME as NEW_YORK_CITY
from .property import GAME as PROPERTY
from .property.versions import MORTGAGES_COLLECT_NO_RENT
from .wettstreit import GAME as WETTSTREIT


def _by_title(games: Iterable[Game[State]]) -> dict[str, dict[int, Game[State]]]:
    published: dict[str, dict[int, Game[State]]] = {}
    for game in games:
        versions = published.setdefault(game.id, {})
        assert game.rules_version not in versions, f"{game.id} rules version {game.rules_version} twice"
        versions[game.rules_version] = game
    return {title: dict(sorted(versions.items())) for title, versions in published.items()}


# Every published version of every game (older versions are thin subclasses of the newest's
# rules that keep the one decision that changed). A version once published stays here.
PUBLISHED: dict[str, dict[int, Game[State]]] = _by_title(
    (FIFTH_AVENUE, FRESH_FISH, NEW_YORK, NEW_YORK_CITY, PROPERTY, WETTSTREIT)
)

# The newest version of each title: what new games (and rematches) play, what the catalog
# and the contract describe.
GAMES: dict[str, Game[State]] = {title: versions[max(versions)] for title, versions in PUBLISHED.items()}

# Versions never served to users, that tests publish for a while (``publishing``) to show a
# stored game outliving a new version of its rules. Each is documented in docs/rules/<id>.md.
TEST_ONLY: tuple[Game[State], ...] = (MORTGAGES_COLLECT_NO_RENT,)


def get(game_id: str, rules_version: int | None = None) -> Game[State]:
    """The game ``game_id`` under ``rules_version`` (None: the newest), or raise UnknownGame
    for a title no version of which is registered, InvalidState (``unsupported_rules_version``)
    for a version of it this server does not play."""
    try:
        versions = PUBLISHED[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(
            "unknown_title", say("core.refusal.unknown_title", title=repr(game_id), known=known)
        ) from None
    if rules_version is None:
        return GAMES[game_id]
    # bool is an int: a stored True must not pass for version 1.
    game = versions.get(rules_version) if type(rules_version) is int else None
    if game is None:
        raise InvalidState(
            "unsupported_rules_version",
            say(
                "core.refusal.unsupported_rules_version",
                title=game_id,
                version=repr(rules_version),
                count=len(versions),
                played=list(versions),
            ),
        )
    return game


def versions(game_id: str) -> tuple[int, ...]:
    """The published rules versions of ``game_id``, oldest first (UnknownGame if none)."""
    get(game_id)
    return tuple(PUBLISHED[game_id])


def every_version() -> list[Game[State]]:
    """Every published version of every game, by title then version (the conformance suite)."""
    return [game for title in sorted(PUBLISHED) for game in PUBLISHED[title].values()]


@contextmanager
def publishing(game: Game[State]) -> Iterator[Game[State]]:
    """Publish ``game`` for the duration of the block, as a deploy that adds its version would
    (the newest of its title, if it is newer), then withdraw it. For tests only: in service a
    published version is never withdrawn."""
    versions = PUBLISHED.get(game.id)
    if versions is None or game.rules_version in versions:
        raise ValueError(f"{game.id} has no rules version {game.rules_version} to publish beside the others")
    before = dict(versions)
    versions[game.rules_version] = game
    PUBLISHED[game.id] = dict(sorted(versions.items()))
    GAMES[game.id] = PUBLISHED[game.id][max(PUBLISHED[game.id])]
    try:
        yield game
    finally:
        PUBLISHED[game.id] = before
        GAMES[game.id] = before[max(before)]
