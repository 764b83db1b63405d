"""What an engine says to a person: a message id and its parameters, never a sentence.

An engine returns a ``Message`` where it used to return an English f-string (a move's label, the
reason of a refusal); the service renders it in the reader's language (``render``). The words
live in one gettext catalogue per language, ``engines/locales/<language>.po``, read with Babel
at first use (no compile step, nothing generated to keep in step): a language is its file.
``str(message)`` is the English sentence, so an engine's own tests and logs still read one.

Parameters are JSON-like values, each written as the language writes it: an int or a float with
the language's digits and separators (``format_decimal``), a list as the language joins a list
(``format_list``: "A, B and C", « A, B et C »), a ``Message`` rendered in turn, a string as is
(card faces such as ``A♥``, codes). A catalogue entry with plural forms takes its form from the
``count`` parameter by the language's CLDR rule (Babel writes the rule into the catalogue).
"""

from __future__ import annotations

import functools
import gettext
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALES = Path(__file__).resolve().parents[1] / "locales"
ENGLISH = "en"


@dataclass(frozen=True, slots=True)
class Message:
    """A message id (``<title>.<kind>.<what>``, or ``core.…``) and its named parameters."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, ENGLISH)


def say(message_id: str, **params: Any) -> Message:
    return Message(message_id, params)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One language's sentences by message id; a plural entry holds one form per plural index."""

    language: str
    sentences: Mapping[str, str | tuple[str, ...]]
    plural_index: Callable[[int], int]


def languages() -> tuple[str, ...]:
    """The languages a catalogue ships for, English first (the default)."""
    found = sorted(p.stem for p in LOCALES.glob("*.po"))
    return (ENGLISH, *(lang for lang in found if lang != ENGLISH))


@functools.cache
def catalogue(language: str) -> Catalogue:
    path = LOCALES / f"{language}.po"
    with path.open("rb") as po:
        read = read_po(po, locale=language)
    sentences: dict[str, str | tuple[str, ...]] = {}
    for entry in read:
        if not entry.id or entry.fuzzy:
            continue
        key = str(entry.id if isinstance(entry.id, str) else entry.id[0])
        if isinstance(entry.string, str):
            if entry.string:
                sentences[key] = entry.string
        elif entry.string and all(entry.string):
            sentences[key] = tuple(str(form) for form in entry.string)
    return Catalogue(language, sentences, gettext.c2py(read.plural_expr))


def placeholders(sentence: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(sentence) if name}


def render(message: Message | str, language: str) -> str:
    """``message`` in ``language`` (a shipped one). A plain string is a sentence already: the
    words of a caller that says no message (a schema's field error) pass as they are."""
    if isinstance(message, str):
        return message
    words = catalogue(language)
    sentence = words.sentences.get(message.id)
    if sentence is None:
        # Never shown: test_languages fails on any id a catalogue lacks. Better the id than a 500.
        return message.id
    params = message.params
    if isinstance(sentence, tuple):
        count = params.get("count", 1)
        sentence = sentence[min(words.plural_index(int(count)), len(sentence) - 1)]
    if not params:
        return sentence
    return sentence.format_map({name: _written(value, language) for name, value in params.items()})


def _written(value: Any, language: str) -> str:
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, bool):  # before int: a bool is an int
        return str(value).lower()
    if type(value) is int and -1000 < value < 1000:
        return str(value)  # no separator to place: Babel's CLDR lookup, the cost of a label, spared
    if isinstance(value, int | float):
        return str(format_decimal(value, locale=language))
    if isinstance(value, list | tuple):
        return str(format_list([_written(v, language) for v in value], locale=language))
    return str(value)


def missing(language: str, ids: set[str]) -> list[str]:
    """The ids among ``ids`` that ``language``'s catalogue has no sentence for."""
    return sorted(ids - set(catalogue(language).sentences))
