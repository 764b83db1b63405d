"""The registry: every published rules version of every game, the newest for new games."""

from __future__ import annotations

import pytest

from engines import registry
from engines.core import InvalidState, UnknownGame
from engines.property.versions import MORTGAGES_COLLECT_NO_RENT


def test_the_newest_version_of_each_title_is_what_get_gives_without_a_version():
    for title, versions in registry.PUBLISHED.items():
        newest = registry.get(title)
        assert newest is registry.GAMES[title] is versions[max(versions)]
        assert registry.versions(title) == tuple(sorted(versions))
        for version in registry.versions(title):
            assert registry.get(title, version).rules_version == version
            assert registry.get(title, version).id == title


def test_every_version_lists_each_published_version_once():
    games = registry.every_version()
    assert [(g.id, g.rules_version) for g in games] == sorted(
        (title, version) for title, versions in registry.PUBLISHED.items() for version in versions
    )
    assert {g.id for g in games} == set(registry.GAMES)


def test_each_version_has_its_own_state_class_bound_to_it():
    """A state saves the version of the game its class belongs to: two versions sharing a class
    would save one another's number."""
    games = registry.every_version() + list(registry.TEST_ONLY)
    assert len({g.state_class for g in games}) == len(games)
    for game in games:
        assert game.state_class.game is game


def test_a_copy_of_a_game_does_not_take_its_state_class_over():
    """Tests make variants of a game with dataclasses.replace; the class stays its engine's
    (under the full suite a copy with a drifting evaluate_seats had rebound New York's class,
    and every later New York state answered to the copy)."""
    from dataclasses import replace

    game = registry.get("new-york-city")
    copy = replace(game, evaluate_seats=None)
    assert copy.state_class is game.state_class
    assert game.state_class.game is game
    assert game.setup(2).game is game


@pytest.mark.parametrize("version", [0, -1, 2, 99, True, "1", 1.0])
def test_a_version_not_published_is_refused_with_a_stable_code(version):
    with pytest.raises(InvalidState) as refused:
        registry.get("property", version)
    assert refused.value.code == "unsupported_rules_version"
    assert "property" in refused.value.message and "plays version 1" in refused.value.message


def test_an_unknown_title_is_refused_whatever_the_version():
    for version in (None, 1):
        with pytest.raises(UnknownGame) as refused:
            registry.get("chess", version)
        assert refused.value.code == "unknown_title"
    with pytest.raises(UnknownGame):
        registry.versions("chess")


def test_test_only_versions_are_not_published():
    for game in registry.TEST_ONLY:
        assert game.rules_version not in registry.versions(game.id)
        assert registry.get(game.id) is not game


def test_publishing_a_version_makes_it_the_newest_for_the_block_only():
    before = registry.get("property")
    with registry.publishing(MORTGAGES_COLLECT_NO_RENT) as published:
        assert published is MORTGAGES_COLLECT_NO_RENT
        assert registry.versions("property") == (1, 2)
        assert registry.get("property") is registry.GAMES["property"] is MORTGAGES_COLLECT_NO_RENT
        assert registry.get("property", 1) is before
        assert MORTGAGES_COLLECT_NO_RENT in registry.every_version()
    assert registry.versions("property") == (1,)
    assert registry.get("property") is registry.GAMES["property"] is before


def test_a_version_already_published_cannot_be_published_again():
    with pytest.raises(ValueError):
        with registry.publishing(registry.get("property")):
            pass
    assert registry.versions("property") == (1,)
