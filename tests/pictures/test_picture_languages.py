"""The pictures in the reader's language: every word of board.svg and board.txt a message.

For every title (Fifth Avenue too: its picture speaks although its engine does not yet), random
positions are drawn for every viewer in French and in English: the French picture differs from
the English one, and neither shows a message id or a ``{placeholder}``; no French picture holds
an English word of the labels' vocabulary (tests/engines/test_languages.py) or of the pictures'
own. A view's codes (a phase, a card id, a key of a nested fact) are quoted in French, as a French
refusal quotes a code: they are set aside before the words are looked at.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ElementTree

import pytest

import boards
from boards.samples import seats_meta, shown_game
from engines.core.conformance import random_playout as playout
from engines.core.messages import ENGLISH, catalogue
from engines.registry import GAMES
from tests.engines.test_languages import ENGLISH_WORDS, ID_SHAPE

POSITIONS = 6  # drawn per game at random, besides the first and the last
# The pictures' own English words, which no French picture may hold either.
PICTURE_WORDS = re.compile(
    r"\b(hand|cards|money|none|nobody|spectator|skyscrapers?|shops|Stock|discard|Table|drawn|"
    r"Game over|To act|You are|row|rank|left|built|supply|reserve|value|black)\b"
)
BOARDS_ID = re.compile(r"\b(boards|new_york|new_york_city)\.[a-z_-]+(\.[a-z_-]+)*\b")
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
QUOTED_CODE = re.compile(r"'[^'\s]*'")


def _svg_text(svg: str) -> str:
    """What a reader of the SVG reads: its texts, tooltips and label (not its tags, nor a card's
    id, which a card's tooltip shows as the moves name it)."""
    root = ElementTree.fromstring(svg)
    ids = {node.attrib["data-card"] for node in root.iter() if "data-card" in node.attrib}
    return "\n".join([*(t for t in root.itertext() if t not in ids), root.attrib.get("aria-label", "")])


def _positions(game_id: str, seats: int, seed: int):
    game = GAMES[game_id]
    options = game.option_combinations(seats)[seed % len(game.option_combinations(seats))]
    rng = random.Random(f"picture-languages/{game_id}/{seats}/{seed}")
    moves = playout(game, seats, options, seed, check=False).moves
    drawn = {0, len(moves), *rng.sample(range(len(moves)), min(POSITIONS, len(moves)))}
    meta = seats_meta(seats, humans=1 + seed % seats)
    state = game.setup(seats, options, seed)
    for version in range(len(moves) + 1):
        if version in drawn:
            for viewer in [None, *range(seats)]:
                yield shown_game(game, state, viewer, version, meta)
        if version < len(moves):
            state.apply(*moves[version])


def _check_read(text: str, where: str) -> None:
    assert not BOARDS_ID.search(text), (where, BOARDS_ID.search(text))
    assert not PLACEHOLDER.search(text), (where, PLACEHOLDER.search(text))


def _cases():
    for game in GAMES.values():
        counts = list(game.seat_counts())
        for seed, seats in enumerate((counts[0], counts[-1])):
            yield pytest.param(game.id, seats, seed, id=f"{game.id}-{seats}p")


@pytest.mark.parametrize(("game_id", "seats", "seed"), list(_cases()))
def test_french_pictures_of_random_positions(game_id, seats, seed):
    for shown in _positions(game_id, seats, seed):
        where = f"{game_id} v{shown['version']} seat {shown['you']}"
        for render in (boards.render_text, boards.render_svg):
            english, french = render(shown), render(shown, "fr")
            assert english == render(shown, ENGLISH)  # English is the default, not another path
            assert french != english, where
            if render is boards.render_svg:
                ElementTree.fromstring(french)  # well-formed in French too
                english, french = _svg_text(english), _svg_text(french)
            _check_read(english, where)
            _check_read(french, where)
            words = QUOTED_CODE.sub("", french)
            assert not ENGLISH_WORDS.search(words), (where, ENGLISH_WORDS.search(words))
            assert not ID_SHAPE.search(words), where
            found = PICTURE_WORDS.search(words)
            assert not found, (where, found, words[max(0, found.start() - 80) : found.end() + 40])


def test_every_picture_word_is_in_both_catalogues():
    """The Pictures block is whole in each language (test_languages checks every id the same way;
    this names the block that lacks one)."""
    english, french = (
        {k for k in catalogue(language).sentences if k.startswith("boards.")} for language in ("en", "fr")
    )
    assert english and english == french
