"""The JSON values the engines hand out: what events, views and results are made of."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# A JSON object is a ``Mapping[str, object]``: the games keep their records as TypedDicts,
# and mypy lets a TypedDict stand for no narrower Mapping. Sequences and mappings rather than
# lists and dicts, so that a ``list[str]`` or a game's ``list[Player]`` is one (a list is
# invariant: a ``list[str]`` is no ``list[JSONValue]``).
JSONValue = str | int | float | bool | None | Sequence["JSONValue"] | Mapping[str, object]

# A JSON object built by the engines: a view, an event.
JSONObject = dict[str, JSONValue]
