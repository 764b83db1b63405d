"""The result schema takes every field final scoring writes, the optional ``sets`` included
(a live game ending with a set character failed the contract on it)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

SCHEMA = json.loads((Path(__file__).parents[3] / "engines/new_york_city/result.schema.json").read_text())


def test_a_breakdown_with_the_sets_of_a_set_character_is_valid():
    parts = {"track": 5, "characters": 11, "end_characters": 0, "majorities": 5, "districts": 0}
    parts |= {"press": 3, "leftovers": 3, "total": 27, "sets": {"42": 0}}
    for schema in (SCHEMA["breakdown"], SCHEMA["$defs"]["automaton_breakdown"]):
        assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(parts)] == []
