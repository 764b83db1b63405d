"""Replies checked against openapi.yaml, strictly: what the randomized playthroughs validate with.

The contract lets events grow (their components allow more fields: "fields may be added
later"), which is right for clients but would let an engine send a field nobody described,
or a described field under a new name, and no test notice. So the tests check every reply
against a strict variant of the committed contract, built here and never published:

- every object of a title's components (events, views, results, replies) allows only the
  fields it describes (``additionalProperties: false`` where the contract allows more);
- every tagged union (``oneOf`` + ``discriminator``) becomes "if the tag is k, then the
  component k maps to": the same replies pass, and a failure names the field that breaks
  its own component (``/events/3/source: 2 is not of type "string"``) instead of "not valid
  under any of the schemas listed in oneOf" at the top of the reply.

A field the contract describes with the wrong type fails either way; the strict variant adds
fields the contract does not describe.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jsonschema_rs

from engines import registry
from service.http.contract import REF, pascal
from tests.conftest import read_yaml

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC: dict[str, Any] = read_yaml(CONTRACT)

# The replies of a game, told apart by title; the per-title components they lead to.
REPLIES = (
    "GameCreated",
    "Game",
    "GameVersion",
    "Moves",
    "ActionResult",
    "Events",
    "Record",
    "Lobby",
    "Joined",
    "Resigned",
    "Rematch",
    "SeatWebhook",
    "Deliveries",
    "PlayerKey",
    "MyGames",
)
TITLE_PREFIXES = tuple(pascal(game_id) for game_id in registry.GAMES)


def _closed(node: Any) -> Any:
    """``node`` with every object that has properties closed to fields it does not describe."""
    if isinstance(node, list):
        return [_closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _closed(value) for key, value in node.items()}
    if "properties" in node and node.get("additionalProperties", True) is True:
        node["additionalProperties"] = False
    return node


def _discriminated(node: Any) -> Any:
    """``node`` with each tagged union written as one ``if``/``then`` per tag."""
    if isinstance(node, list):
        return [_discriminated(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _discriminated(value) for key, value in node.items()}
    tag = node.get("discriminator")
    if tag and "oneOf" in node:
        name, mapping = tag["propertyName"], tag["mapping"]
        rest = {k: v for k, v in node.items() if k not in ("oneOf", "discriminator")}
        return {
            **rest,
            "type": "object",
            "required": [name],
            "properties": {name: {"enum": sorted(mapping)}},
            "allOf": [
                {
                    "if": {"properties": {name: {"const": value}}, "required": [name]},
                    "then": {"$ref": target},
                }
                for value, target in sorted(mapping.items())
            ],
        }
    return node


def strict_components(spec: dict[str, Any]) -> dict[str, Any]:
    schemas = copy.deepcopy(spec["components"]["schemas"])
    for name, schema in schemas.items():
        if name.startswith(TITLE_PREFIXES):
            schema = _closed(schema)
        schemas[name] = _discriminated(schema)
    return {**spec["components"], "schemas": schemas}


def _validator(components: dict[str, Any], name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator({"$ref": REF + name, "components": components})


class Replies:
    """Validators of the game replies against the strict contract; collects what breaks it."""

    def __init__(self, spec: dict[str, Any] = SPEC, components: Iterable[str] = REPLIES) -> None:
        strict = strict_components(spec)
        self.strict = {name: _validator(strict, name) for name in components}
        # Problems (RFC 9457) may carry extension members: checked as the contract has them.
        self.problem = _validator(spec["components"], "Problem")
        self.checked = 0
        self.violations: list[str] = []

    def errors(self, component: str, body: Any) -> list[str]:
        validator = self.problem if component == "Problem" else self.strict[component]
        self.checked += 1
        found = [
            f"{component} /{'/'.join(str(p) for p in error.instance_path)}: {error.message}"
            for error in validator.iter_errors(body)
        ]
        self.violations += found
        return found

    def check(self, component: str, body: Any) -> None:
        found = self.errors(component, body)
        assert not found, "a reply breaks openapi.yaml:\n" + "\n".join(found[:10])


def option_pairs(combos: Iterable[dict[str, Any]]) -> set[tuple[str, Any]]:
    return {(name, repr(value)) for combo in combos for name, value in combo.items()}


def covering_plays(game_id: str) -> list[tuple[int, dict[str, Any]]]:
    """(seats, options) of a few games of one title that together play every seat count and
    every value of every option. Seat counts with the fewest combinations choose first, then
    each takes the combination with the most values not yet played; games are added while
    some value is left."""
    game = registry.GAMES[game_id]
    combos = {seats: game.option_combinations(seats) for seats in game.seat_counts()}
    wanted = option_pairs(c for by_seats in combos.values() for c in by_seats)
    plays: list[tuple[int, dict[str, Any]]] = []
    played: set[tuple[str, Any]] = set()

    def gain(seats: int, options: dict[str, Any]) -> tuple[int, int]:
        """Values not yet played, then values away from the defaults (more variants at once)."""
        defaults = game.normalize_options(seats, {})
        return len(option_pairs([options]) - played), sum(options[k] != defaults[k] for k in options)

    for seats in sorted(combos, key=lambda n: (len(combos[n]), n)):
        options = max(combos[seats], key=lambda c: gain(seats, c))
        plays.append((seats, options))
        played |= option_pairs([options])
    while wanted - played:
        seats, options = max(
            ((n, c) for n, by_seats in combos.items() for c in by_seats), key=lambda nc: gain(*nc)
        )
        plays.append((seats, options))
        played |= option_pairs([options])
    return sorted(plays, key=lambda play: play[0])
