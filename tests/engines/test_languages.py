"""Every word an engine says, in each shipped language: messages, not sentences (engines/core/messages.py).

A title listed in ``SPOKEN`` says every label and refusal as a ``Message``; the others still say
English strings (their conversion is one title at a time, never half a title). For a spoken title,
random games are played and every label and refusal rendered in French and in English: French
differs from English (a text of numbers only aside), holds no English word of the labels'
vocabulary, and neither shows a message id or a ``{placeholder}``. Each catalogue has every id the
other has (a third language's file is checked against English the same way), and the sources of
the spoken titles raise no refusal and return no label that is not a message.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from engines import registry
from engines.core import IllegalMove, Message, render
from engines.core.conformance import illegal_candidates
from engines.core.messages import ENGLISH, catalogue, languages, missing, placeholders

ENGINES = Path(__file__).resolve().parents[2] / "engines"
SPOKEN = ("property", "fresh-fish", "wettstreit", "new-york", "new-york-city", "fifth-avenue")
# English words of the labels' vocabulary that no French text may hold (the issue's list).
ENGLISH_WORDS = re.compile(r"\b(Play|claim|column|Buy|Pass|card|your)\b", re.IGNORECASE)
CODES = re.compile(r"'[a-z_0-9]*'|(?<![\w'])(\.[a-z_0-9]+|\[\d+\])+")
ID_SHAPE = re.compile(r"\b[a-z_]+\.(label|refusal|unit|kind)\.[a-z_.]+\b")


def test_english_and_french_are_shipped():
    assert languages()[:1] == (ENGLISH,) and "fr" in languages()


@pytest.mark.parametrize("language", languages())
def test_no_catalogue_lacks_a_sentence_another_has(language):
    every = set().union(*(catalogue(other).sentences for other in languages()))
    assert missing(language, every) == []


@pytest.mark.parametrize("language", languages())
def test_a_sentence_names_the_same_parameters_in_every_language(language):
    english = catalogue(ENGLISH).sentences
    for message_id, sentence in catalogue(language).sentences.items():
        forms = sentence if isinstance(sentence, tuple) else (sentence,)
        wanted = english[message_id]
        names = placeholders(wanted if isinstance(wanted, str) else wanted[-1])
        for form in forms:
            assert placeholders(form) <= names | {"count"}, (language, message_id, form)
            assert names - {"count"} <= placeholders(form), (language, message_id, form)


def _said_ids(title: str) -> tuple[set[str], set[str]]:
    """The literal message ids a title's sources say, and the prefixes of those made by f-string."""
    literal, prefixes = set(), set()
    for path in [*(ENGINES / title.replace("-", "_")).glob("*.py"), *(ENGINES / "core").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "say" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    literal.add(first.value)
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    prefixes.add(first.values[0].value)
    return literal, prefixes


@pytest.mark.parametrize("title", SPOKEN)
@pytest.mark.parametrize("language", languages())
def test_every_message_a_title_says_has_a_sentence(title, language):
    literal, prefixes = _said_ids(title)
    known = set(catalogue(language).sentences)
    assert sorted(literal - known) == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in known), prefix


REFUSALS = {"IllegalMove", "InvalidMove", "InvalidOptions", "NotYourTurn", "GameOver", "UnknownSeat"}


@pytest.mark.parametrize("title", SPOKEN)
def test_a_spoken_title_refuses_only_with_messages(title):
    """Walk the refusals of the title's sources: each names its code and says a message."""
    for path in (ENGINES / title.replace("-", "_")).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFUSALS:
                assert len(node.args) == 2, f"{path.name}:{node.lineno}"
                said = node.args[1]
                assert isinstance(said, ast.Call) and getattr(said.func, "id", None) == "say", (
                    f"{path.name}:{node.lineno} refuses with a sentence, not a message"
                )


def _check_pair(message: object, where: str) -> None:
    assert isinstance(message, Message), f"{where}: {message!r} is not a message"
    english, french = render(message, ENGLISH), render(message, "fr")
    for text in (english, french):
        assert text.strip() and "{" not in text and "}" not in text, (where, text)
        assert not ID_SHAPE.search(text), (where, text)
    if re.search(r"[^\W\d_]", english):
        assert french != english, (where, english)
    # A code or a value echoed from the request is quoted ('play'), and a field is named by its
    # JSON path (.card, .pay.king): codes, not English words.
    assert not ENGLISH_WORDS.search(CODES.sub("", french)), (where, french)


@pytest.mark.parametrize("title", SPOKEN)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_speak_french_and_english(title, seed):
    rng = random.Random(seed)
    seats = rng.choice(list(registry.get(title).seat_counts()))
    _play_in_both_languages(title, seats, {}, seed, rng)


# Options whose moves and refusals the default game never reaches (events, partners, two colours
# each, Tom): their labels and refusals are held to the same checks.
VARIANTS = [
    ("new-york", 3, {"events": True}),
    ("new-york", 4, {"events": True, "teams": True}),
    ("new-york", 2, {"events": True, "chosen_colours": True}),
    ("new-york-city", 1, {"toms": 1}),
    ("new-york-city", 2, {"toms": 2}),
]


@pytest.mark.parametrize(("title", "seats", "options"), VARIANTS)
def test_variants_speak_french_and_english(title, seats, options):
    _play_in_both_languages(title, seats, options, 7, random.Random(7))


def _play_in_both_languages(title: str, seats: int, options: dict, seed: int, rng: random.Random) -> None:
    state = registry.get(title).setup(seats, options, seed=seed)
    for step in range(400):
        acting = state.to_act()
        if not acting:
            break
        for seat in range(seats):
            if seat not in acting:
                with pytest.raises(IllegalMove) as refused:
                    state.apply(seat, {"type": state.move_types[0]})
                _check_pair(refused.value.said, f"{title} step {step} not to act")
                continue
            for move in state.legal_moves(seat):
                _check_pair(state.label(move), f"{title} step {step} label {move}")
            for bad in illegal_candidates(state, seat, rng):
                try:
                    state.apply(seat, bad)
                except IllegalMove as error:
                    _check_pair(error.said, f"{title} step {step} refusal {error.code} of {bad}")
        seat = acting[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))


def test_new_york_citys_card_names_and_abilities_are_the_engines_own_english():
    from engines.new_york_city import cards, characters

    for symbol, title in cards.TITLES.items():
        assert render(Message(f"new_york_city.card.{symbol}"), ENGLISH) == title
    for number, ability in characters.ABILITIES.items():
        assert render(Message(f"new_york_city.ability.{number}"), ENGLISH) == ability


def test_the_catalogs_english_is_the_engines_own_text_and_every_entry_is_in_every_language():
    from engines.bots import LEVELS

    wanted = {f"catalog.level.{level.name}": level.description for level in LEVELS.values()}
    for game in registry.GAMES.values():
        wanted[f"catalog.{game.id}.summary"] = game.summary
        wanted.update({f"catalog.{game.id}.option.{o.name}": o.description for o in game.options})
    for message_id, english in wanted.items():
        assert render(Message(message_id), ENGLISH) == english, message_id
        for language in languages():
            assert message_id in catalogue(language).sentences, (language, message_id)
            if language != ENGLISH:
                assert render(Message(message_id), language) != english, (language, message_id)
