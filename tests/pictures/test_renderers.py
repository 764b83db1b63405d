"""The board pictures over random games of every title at every seat count.

Each picture is well-formed XML (and the text rendering plain text), and shows no fact its
view does not hold — the conformance suite's leak check extended to pictures: re-dealing
what a seat cannot see (``determinize``) never changes that seat's picture, while the
pictures of seats allowed to see it do change; and no card id hidden from the seat appears
in its picture. The French pictures are held to the same checks as the English ones (their words
are other; what they show is the same view). The renderers import only the engines' data tables
and catalogues, never a state.
"""

from __future__ import annotations

import ast
import json
import random
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

import boards
from boards.samples import docs_example, seats_meta, shown_game
from engines.core.conformance import random_playout as playout
from engines.registry import GAMES

BOARDS = Path(boards.__file__).resolve().parent
SVG = "{http://www.w3.org/2000/svg}svg"
SEEDS = (0, 1)
POSITIONS = 8  # drawn per game at random, besides the first and the last
# Strings of a state that name one card or tile (e.g. "gate-3a", "orange-4", "1D", "red-joker").
CARD_LIKE = re.compile(r"^(?=.*\d)[a-z0-9]+(-[a-z0-9]+)*$|^[a-z]+-[a-z]+$", re.IGNORECASE)


def _cases():
    for game in GAMES.values():
        for seats in game.seat_counts():
            yield pytest.param(game.id, seats, id=f"{game.id}-{seats}p")


def _strings(value, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out)
    return out


def _svg_words(svg: str) -> set[str]:
    root = ElementTree.fromstring(svg)
    # Every text and attribute value, joined by a separator: one split, not one per chunk.
    chunks = [chunk for node in root.iter() for chunk in (node.text or "", *node.attrib.values())]
    return set(re.split(r"[\s,;:()\[\]]+", " ".join(chunks)))


def _pictures(game, state, seat, version, seats):
    """The English SVG and text, and the French SVG (the leak checks read both languages)."""
    shown = shown_game(game, state, seat, version, seats)
    json.dumps(shown)  # what the service would send: plain JSON
    return boards.render_svg(shown), boards.render_text(shown), boards.render_svg(shown, "fr")


def _check_position(game, state, version, seats, rng, teeth: dict[str, bool], redealt: range) -> None:
    """Every viewer's pictures checked for leaks; the ``redealt`` seats' unknowns re-dealt."""
    everything = _strings(state.to_dict(), set())
    viewers = [None, *range(state.seats)]
    pictures = {viewer: _pictures(game, state, viewer, version, seats) for viewer in viewers}
    for viewer, (svg, text, french) in pictures.items():
        root = ElementTree.fromstring(svg)  # well-formed XML, or this raises
        assert root.tag == SVG and float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
        assert text.endswith("\n") and "\x00" not in text
        # No card id hidden from the viewer is drawn, in text or in an attribute, in either language.
        held = _strings(state.view(viewer), set())
        hidden = {s for s in everything - held if CARD_LIKE.match(s)}
        for drawn in (svg, french):
            words = _svg_words(drawn) | {w.strip("'") for w in _svg_words(drawn)}  # French quotes codes
            leaked = hidden & words
            assert not leaked, (
                f"{game.id}: the picture of {viewer} shows {sorted(leaked)[:5]}, hidden from it"
            )
    for seat in redealt:
        other = state.determinize(seat, random.Random(rng.random()))
        assert _pictures(game, other, seat, version, seats) == pictures[seat], (
            f"{game.id}: seat {seat}'s picture changed when what it cannot see was re-dealt"
        )
        # The other side: a seat that sees what was re-dealt sees it drawn.
        for viewer in viewers:
            if viewer != seat and other.view(viewer) != state.view(viewer):
                teeth["views_changed"] = True
                shown = shown_game(game, other, viewer, version, seats)
                redrawn = boards.render_svg(shown), boards.render_svg(shown, "fr")
                assert redrawn[0] != pictures[viewer][0] and redrawn[1] != pictures[viewer][2], (
                    f"{game.id}: {viewer}'s view changed when seat {seat}'s unknowns were re-dealt, "
                    "but its picture did not"
                )


@pytest.mark.parametrize(("game_id", "seats"), list(_cases()))
def test_pictures_are_xml_and_show_only_the_view(game_id, seats):
    game = GAMES[game_id]
    teeth = {"views_changed": False}
    for seed in SEEDS:
        options = game.option_combinations(seats)[seed % len(game.option_combinations(seats))]
        rng = random.Random(f"pictures/{game_id}/{seats}/{seed}")
        meta = seats_meta(seats, humans=1 + seed % seats)
        moves = playout(game, seats, options, seed, check=False).moves
        drawn = {0, *rng.sample(range(len(moves)), min(POSITIONS, len(moves)))}
        state = game.setup(seats, options, seed)
        everyone = range(seats)
        probes = 0
        for version, (seat, move) in enumerate(moves):
            if version in drawn:
                # Every seat's unknowns re-dealt at the start and the end, one seat's in turn between
                # (the same check on every seat at every probe was most of the module's time).
                turn = probes % seats
                redealt = everyone if version == 0 else range(turn, turn + 1)
                _check_position(game, state, version, meta, rng, teeth, redealt)
                probes += 1
            state.apply(seat, move)
        version = len(moves)
        _check_position(game, state, version, meta, rng, teeth, everyone)
        svg, text, french = _pictures(game, state, 0, version, meta)
        assert "Game over" in text and "Game over" in svg and "Partie terminée" in french
    if game.state_class.hidden_information and seats > 1 and game_id != "fresh-fish":
        # (Fresh Fish hides only the tile pile's order, from everyone, and a solo game has no
        # other seat: there no view ever changes.)
        assert teeth["views_changed"], "no re-deal changed another seat's view: the check above never ran"


def test_every_title_has_a_renderer():
    assert set(boards.RENDERERS) == set(GAMES)


# Renderers read the engines' data tables (the reconstructed layouts among them) and their
# catalogues of words (messages: a pure function of a message and a language), nothing else.
DATA_MODULES = {
    "engines.core.messages",
    "engines.fifth_avenue.material",
    "engines.fresh_fish.material",
    "engines.new_york.material",
    "engines.new_york_city.board",
    "engines.property.material",
    "engines.wettstreit.material",
}


OURS = {"engines", "service", "worker"}


def test_renderers_never_touch_a_state():
    offenders = []
    for path in BOARDS.glob("*.py"):
        if path.name == "samples.py":  # plays games to have something to draw; not a renderer
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                if node.module.split(".")[0] in OURS and node.module not in DATA_MODULES:
                    offenders += [n for n in names if n not in DATA_MODULES]
            elif isinstance(node, ast.Import):
                offenders += [a.name for a in node.names if a.name.split(".")[0] in OURS]
    assert not offenders, offenders


def test_view_text_is_escaped():
    game = GAMES["property"]
    state = game.setup(2, game.option_combinations(2)[0], 5)
    name = "<script>&'\"]]>"
    meta = [{"seat": 0, "kind": "human", "name": name}, {"seat": 1, "kind": "human", "name": "B"}]
    svg, text, _ = _pictures(game, state, 0, 0, meta)
    root = ElementTree.fromstring(svg)
    assert not [node for node in root.iter() if node.tag.endswith("script")]
    assert name in "".join(root.itertext())
    assert "<script>" in text


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_control_characters_in_a_view_make_neither_picture_invalid(game_id):
    """Names written before the service refused control characters, drawn safely all the same."""
    game = GAMES[game_id]
    seats = max(2, game.min_seats)
    state = game.setup(seats, game.option_combinations(seats)[0], 5)
    name = "A\x00d\x1b[2Ja\x07\x7f\x85\ufffe\ud800\tz\n"
    meta = [{"seat": s, "kind": "human", "name": name if s == 0 else f"S{s}"} for s in range(seats)]
    svg, text, _ = _pictures(game, state, 0, 0, meta)
    svg.encode("utf-8")  # no lone surrogate left
    root = ElementTree.fromstring(svg)  # well-formed XML 1.0, or this raises
    drawn = "".join(root.itertext()) + "".join(v for node in root.iter() for v in node.attrib.values())
    assert "A\ufffdd\ufffd[2Ja\ufffd\ufffd\ufffd\ufffd\ufffd" in drawn
    assert "\x1b" not in text and "\x07" not in text and "\x00" not in text
    assert "A\ufffdd\ufffd[2Ja" in text and all(line.isprintable() for line in text.splitlines())


def test_the_pictures_in_docs_are_the_renderers_own():
    docs = BOARDS.parent / "docs" / "boards"
    for game_id in GAMES:
        committed = (docs / f"{game_id}.svg").read_text(encoding="utf-8")
        assert committed == boards.render_svg(docs_example(game_id)), (
            f"docs/boards/{game_id}.svg is out of date: run `python -m boards.samples docs/boards`"
        )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_ended_by_resignation_is_drawn(game_id):
    """Two seats, one resigned at once: ranks and no score (issue 47's result); both pictures say so."""
    game = GAMES[game_id]
    seats = max(2, game.min_seats)
    state = game.setup(seats, {}, 7)
    shown = shown_game(game, state, None, 0, seats_meta(seats, humans=seats))
    shown["status"] = "finished"
    shown["result"] = {
        "scores": [],
        "ranks": [2, *([1] * (seats - 1))],
        "winners": list(range(1, seats)),
        "breakdown": [],
        "reason": "resignation",
        "resigned": [True, *([False] * (seats - 1))],
    }
    text = boards.render_text(shown)
    assert "Game over (resignation)" in text and "(resigned)" in text
    ElementTree.fromstring(boards.render_svg(shown))
