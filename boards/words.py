"""The words of a picture, in the reader's language: each is a message of the engines'
catalogues (``engines/locales/<language>.po``, the "Pictures" block and the titles' own terms),
rendered here so that the renderers stay pure functions of (shown game, language).

What a view holds as a code (a phase, a card id, a key of a nested fact) is shown as the code:
the same in every language, as the JSON says it. A French picture quotes it ('buy'), as the
French refusals quote a code, so that no code reads as an English word among French ones.
"""

from __future__ import annotations

from typing import Any

from engines.core.messages import ENGLISH, catalogue, render, say


class Words:
    """Renders the picture's messages in one language."""

    def __init__(self, language: str = ENGLISH) -> None:
        self.language = language
        self._known = catalogue(language).sentences

    def __call__(self, message_id: str, **params: Any) -> str:
        # Numbers are written as the English picture always wrote them (no separators: a version
        # or a score is an identifier-like count here, and the English bytes must not move).
        written = {name: str(value) for name, value in params.items()}
        sentence = self._known.get(message_id)
        if isinstance(sentence, str):
            # What ``render`` does with string parameters, without a Message per word: a picture
            # says some hundreds of them (bench: board.txt 0.57 ms a picture through render).
            return sentence.format_map(written) if written else sentence
        return render(say(message_id, **written), self.language)  # plural forms, or a missing id

    def known(self, message_id: str, fallback: str, **params: Any) -> str:
        """The message if a catalogue has it, else ``fallback`` (a code the pictures do not name,
        such as a view key added after the catalogue was written)."""
        return self(message_id, **params) if message_id in self._known else self.code(fallback)

    def code(self, value: object) -> str:
        return self("boards.code", code=value)

    def field(self, key: str) -> str:
        """A key of a view, named for a reader (``stock size``, « taille de la pioche »)."""
        return self.known(f"boards.field.{key}", key.replace("_", " "))


ENGLISH_WORDS = Words(ENGLISH)
