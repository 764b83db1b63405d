"""Every code the service can answer has a title and words in every shipped language (issue 64).

A problem's ``title`` is the message ``problem.title.<code>`` and its ``detail`` a message too
(``service.refusal.…``, or an engine's ``<title>.refusal.…``): rendered in the reader's
language (service/http/errors.py ``problem_response``). The codes are walked, not listed by
hand: every refusal class of the use cases (service/play/errors.py), every code the HTTP layer
and gunicorn's refusals answer with (read from their sources), and every code an engine raises
(read from the engines' sources, and checked against the codes random games refuse with). For
each, the English title is the code's own words (the title replies had before), the French one
differs from it, and neither shows a message id or a ``{placeholder}``. Every ``service.…``
message the sources say is in every catalogue, and its French differs from its English.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import orjson
import pytest

from engines import registry
from engines.core import IllegalMove, Message, RulesError, render
from engines.core.conformance import illegal_candidates
from engines.core.messages import ENGLISH, catalogue, languages
from service.http.problems import TITLE, problem_body, problem_title
from service.play.errors import PlayError

ROOT = Path(__file__).resolve().parents[2]
REFUSAL_CLASSES = {
    "IllegalMove",
    "InvalidMove",
    "InvalidOptions",
    "NotYourTurn",
    "GameOver",
    "UnknownSeat",
    "InvalidState",
    "UnknownGame",
    "RulesError",
    "_bad",  # engines/new_york*: a refusal made by a helper taking the code first
}
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
ID_SHAPE = re.compile(r"\b(service|problem|[a-z_]+)\.(refusal|title|address|listing)\.[a-z_.0-9]+\b")


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def _subclasses(kind: type) -> set[type]:
    found = set()
    for sub in kind.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


def service_codes() -> set[str]:
    codes = {kind.code for kind in _subclasses(PlayError) | {PlayError}}
    for path in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(_tree(path)):
            # Problem(status, "code", ...), problem_response(status, "code", ...)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "Problem",
                "problem_response",
            ):
                if len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                    codes.add(node.args[1].value)
            # The tables of codes: errors._HTTP_CODES, gunicorn_refusals.REFUSALS, and their default.
            if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) in ("_HTTP_CODES", "REFUSALS") for t in node.targets
            ):
                codes |= {v.value for v in node.value.values if isinstance(v, ast.Constant)}
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", None) == "get"
                and len(node.args) == 2
            ):
                if getattr(node.func.value, "id", None) in ("_HTTP_CODES", "REFUSALS"):
                    codes.add(node.args[1].value)
            # A code assigned beside a detail: ``code, detail = "malformed_json", ...``
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
                first = node.value.elts[0]
                if (
                    isinstance(node.targets[0], ast.Tuple)
                    and getattr(node.targets[0].elts[0], "id", "") == "code"
                ):
                    codes.add(first.value)
    return codes


def engine_codes() -> set[str]:
    codes = {kind.default_code for kind in _subclasses(RulesError) | {RulesError}}
    for path in (ROOT / "engines").rglob("*.py"):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFUSAL_CLASSES:
                if (
                    node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    codes.add(node.args[0].value)
            # Codes chosen by a function (wettstreit's placement_error) or a table (WAITING_FOR).
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_error"):
                codes |= {
                    r.value.value
                    for r in ast.walk(node)
                    if isinstance(r, ast.Return) and isinstance(r.value, ast.Constant) and r.value.value
                }
            if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "WAITING_FOR" for t in node.targets
            ):
                if "wettstreit" in path.parts:
                    codes |= {v.value for v in node.value.values if isinstance(v, ast.Constant)}
    return codes


def every_code() -> list[str]:
    return sorted(service_codes() | engine_codes())


def test_the_walk_finds_the_codes_it_must():
    codes = set(every_code())
    assert {
        "game_not_found",
        "stale_version",
        "not_found",
        "rate_limited",
        "malformed_json",
        "http_error",
    } <= codes
    assert {"illegal_move", "not_your_turn", "no_such_plot", "malformed_http_request", "bid_too_low"} <= codes
    assert len(codes) > 150


@pytest.mark.parametrize("language", languages())
def test_every_code_has_a_title(language):
    sentences = catalogue(language).sentences
    missing = [code for code in every_code() if TITLE + code not in sentences]
    assert missing == [], f"{language}.po lacks problem.title.<code> for {missing}"


@pytest.mark.parametrize("code", every_code())
def test_a_title_is_the_codes_words_in_english_and_other_words_in_french(code):
    english, french = problem_title(code, ENGLISH), problem_title(code, "fr")
    assert english == code.replace("_", " ").capitalize()  # the title replies always had
    assert french != english and french.strip()
    for title in (english, french):
        assert not PLACEHOLDER.search(title) and not ID_SHAPE.search(title), title


def _said_by_the_service() -> dict[str, set[str]]:
    """The service's message ids (``service.…``) its sources say: literal ids, and prefixes of
    those made by f-string (``service.refusal.{code}``)."""
    literal, prefixes = set(), set()
    for path in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "say" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    literal.add(first.value)
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    prefixes.add(first.values[0].value)
    return {"literal": literal, "prefixes": {p for p in prefixes if p.startswith("service.")}}


@pytest.mark.parametrize("language", languages())
def test_every_service_message_has_a_sentence(language):
    said = _said_by_the_service()
    known = set(catalogue(language).sentences)
    assert sorted(i for i in said["literal"] if i.startswith("service.") and i not in known) == []
    for prefix in said["prefixes"]:
        assert any(k.startswith(prefix) for k in known), prefix
    # service.refusal.<code> for every code the HTTP layer answers with a table (errors.py, gunicorn)
    for code in ("malformed_request", "not_found", "http_error", "malformed_http_request", "forbidden"):
        assert f"service.refusal.{code}" in known, code


def test_every_service_sentence_is_french_in_french():
    english, french = catalogue(ENGLISH).sentences, catalogue("fr").sentences
    same = [i for i in english if i.startswith("service.") and english[i] == french.get(i)]
    # Codes (a scope's one word) and RFC-named forms aside, nothing reads the same.
    assert same == [], same


def _filled(sentence: str) -> str:
    """A sentence with each parameter given a value: what a reader would be shown."""
    names = {name for _, name, _, _ in __import__("string").Formatter().parse(sentence) if name}
    return sentence.format_map({name: "7" for name in names}) if names else sentence


@pytest.mark.parametrize("language", languages())
def test_no_service_sentence_shows_a_placeholder_once_filled(language):
    for message_id, sentence in catalogue(language).sentences.items():
        if message_id.startswith(("service.", TITLE)):
            assert isinstance(sentence, str), message_id
            shown = _filled(sentence)
            assert not PLACEHOLDER.search(shown) and not ID_SHAPE.search(shown), (message_id, shown)


@pytest.mark.parametrize("language", languages())
def test_a_problem_is_written_in_the_readers_language(language):
    """A use case's refusal leaves with its title and its detail in the language asked for."""
    from service.http.problems import from_play_error
    from service.play.errors import GameNotFound, VersionNotFound

    for error in (GameNotFound("g1"), VersionNotFound("g1", 9, 3)):
        problem = from_play_error(error)
        body = orjson.loads(
            problem_body(problem.status, problem.code, problem.message, language, **problem.extra)
        )
        assert body["title"] == problem_title(problem.code, language)
        assert body["detail"] == render(error.said, language) and "'g1'" in body["detail"]
        if language != ENGLISH:
            assert body["detail"] != str(error.said) and body["title"] != problem_title(problem.code, ENGLISH)


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_the_codes_random_games_refuse_with_are_walked(title):
    """The walk of the engines' sources misses no code: random games' refusals are all in it."""
    walked = engine_codes()
    game = registry.get(title)
    rng = random.Random(5)
    seats = min(game.seat_counts())
    state = game.setup(seats, {}, seed=5)
    seen: set[str] = set()
    for _ in range(150):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[0]
        for bad in illegal_candidates(state, seat, rng):
            try:
                state.apply(seat, bad)
            except IllegalMove as error:
                seen.add(error.code)
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert seen and seen <= walked, seen - walked


def test_a_message_detail_is_a_message():
    """Every refusal class of the use cases says a message (its English is ``message``)."""
    from service.play.errors import GameNotFound, TooManyBotGames

    for error in (GameNotFound("x"), TooManyBotGames(3)):
        assert isinstance(error.said, Message) and error.message == str(error.said)
