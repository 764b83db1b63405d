"""What the engines put in the replies conforms to the strict contract, in many random games.

The HTTP playthroughs (test_generated_client.py, test_live_games.py) check every reply of a
few games; shapes that random play meets rarely (a Wettstreit saboteur taken from a player
happens in about one game in thirty at three seats) need many more. Here the engines play
them directly, fast: every title, every seat count, every option combination, at least
``GAMES_PER_SEAT_COUNT`` games per seat count, and every event each viewer receives, each
seat's listed moves, views and the result are checked against the title's components of
openapi.yaml in its strict variant (tests/contract/conformance.py: no field the contract
does not describe, and each field of the type it says). Moves are chosen as the conformance
suite's playouts choose them (New York's random players rarely lose their own buildings).
"""

from __future__ import annotations

import itertools
import random

import orjson
import pytest

from engines import registry
from engines.core import redact_all
from engines.core.conformance import PREFERRED_SHARE
from service.http.contract import pascal

from .conformance import Replies

GAMES_PER_SEAT_COUNT = 16
# Views and listings are larger than events: checked at every so many moves, and at the end.
VIEW_EVERY = 17


def games(game_id: str):
    game = registry.GAMES[game_id]
    for seats in game.seat_counts():
        combos = game.option_combinations(seats)
        count = max(len(combos), GAMES_PER_SEAT_COUNT)
        for index, options in zip(range(count), itertools.cycle(combos), strict=False):
            yield seats, options, 1000 * seats + index


@pytest.mark.parametrize("game_id", sorted(registry.GAMES))
def test_random_games_conform_to_the_strict_contract_for_every_viewer(game_id):
    game = registry.GAMES[game_id]
    title = pascal(game_id)
    parts = {part: title + part for part in ("Event", "View", "Move", "Result")}
    replies = Replies(components=parts.values())
    # The same JSON checked against the same component has the same answer: most events are
    # public, so each viewer gets the same one, and games repeat the same small events.
    checked: set[tuple[str, bytes]] = set()

    def check(part: str, value) -> None:
        written = orjson.dumps(value)
        if (part, written) in checked:
            return
        checked.add((part, written))
        found = replies.errors(parts[part], orjson.loads(written))
        assert not found, f"{game_id} {setup}: {found[:5]}"

    played = 0
    for seats, options, seed in games(game_id):
        setup = f"{seats} seats, options {options}, seed {seed}"
        state, rng = game.setup(seats, options, seed=seed), random.Random(seed)
        viewers = (None, *range(seats))
        for step in itertools.count():
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            moves = state.legal_moves(seat)
            if step % VIEW_EVERY == 0:
                check("View", state.view(rng.choice(viewers)))
                for move in moves:
                    check("Move", move)
            if game.playout_moves is not None and rng.random() < PREFERRED_SHARE:
                moves = game.playout_moves(state, seat, moves) or moves
            events = state.apply(seat, rng.choice(moves))
            for viewer in viewers:
                for event in redact_all(events, viewer, reveal_all=state.is_over()):
                    check("Event", event)
        for viewer in viewers:
            check("View", state.view(viewer))
        check("Result", state.result().to_dict())
        played += 1
    print(f"{game_id}: {played} games, {replies.checked} distinct values checked against the strict contract")
    assert played >= GAMES_PER_SEAT_COUNT * len(game.seat_counts())


def test_the_strict_contract_refuses_undescribed_and_mistyped_fields_and_names_them():
    replies = Replies(components=["WettstreitEvent", "WettstreitActionResult"])
    taken = {"type": "saboteur_taken", "seat": 0}
    assert not replies.errors("WettstreitEvent", {**taken, "source": "centre"})
    assert not replies.errors("WettstreitEvent", {**taken, "source": 2})
    assert replies.errors("WettstreitEvent", {**taken, "source": 2, "from_seat": 2}) == [
        "WettstreitEvent /: Additional properties are not allowed ('from_seat' was unexpected)"
    ]
    # Inside a reply, the error names the field in its own event type's component.
    reply = {"title": "wettstreit", "version": 3, "seat": 2, "events": [{**taken, "source": "bank"}]}
    assert replies.errors("WettstreitActionResult", reply) == [
        'WettstreitActionResult /events/0/source: "bank" is not valid under any of the schemas '
        "listed in the 'anyOf' keyword"
    ]
    assert replies.errors("WettstreitEvent", {"type": "no_such_event"})[0].startswith(
        'WettstreitEvent /type: "no_such_event" is not one of'
    )
