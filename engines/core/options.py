"""Game options (variants) described as data.

A game lists its options once; from that list come the JSON Schema the catalog publishes,
the validation of a client's options, the defaults, and the option combinations the
conformance suite plays.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidOptions
from .messages import say


@dataclass(frozen=True)
class Option:
    """One option: a boolean, a bounded integer or a choice among strings."""

    name: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # Seat counts this option is meaningful for; empty means every seat count.
    seats: tuple[int, ...] = field(default=())
    # (seat count, value) pairs: the default at that seat count when it is not ``default``
    # (a rule that is the only way to play with so many seats). Published in the catalog as
    # ``x-seat-defaults``.
    seat_defaults: tuple[tuple[int, Any], ...] = field(default=())

    def default_for(self, seats: int) -> Any:
        return dict(self.seat_defaults).get(seats, self.default)

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "boolean"
        if isinstance(self.default, int):
            return "integer"
        return "string"

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": self.kind,
            "description": self.description,
            "default": self.default,
        }
        if self.choices:
            schema["enum"] = list(self.choices)
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.seat_defaults:
            schema["x-seat-defaults"] = {str(n): value for n, value in self.seat_defaults}
        return schema

    def check(self, value: Any) -> Any:
        """Return the value if it is acceptable, else raise InvalidOptions."""
        kind = self.kind
        ok = (
            isinstance(value, bool)
            if kind == "boolean"
            else isinstance(value, int) and not isinstance(value, bool)
            if kind == "integer"
            else isinstance(value, str)
        )
        if not ok:
            raise InvalidOptions(
                "invalid_option_value",
                say(
                    "core.refusal.option_kind",
                    option=self.name,
                    kind=say(f"core.kind.{kind}"),
                    value=repr(value),
                ),
            )
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(
                "invalid_option_value", say("core.refusal.option_choices", option=self.name, allowed=allowed)
            )
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(
                "invalid_option_value",
                say("core.refusal.option_minimum", option=self.name, minimum=self.minimum),
            )
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(
                "invalid_option_value",
                say("core.refusal.option_maximum", option=self.name, maximum=self.maximum),
            )
        return value

    def values(self) -> list[Any]:
        """Every value worth playing in tests (all of them for booleans and choices)."""
        if self.kind == "boolean":
            return [False, True]
        if self.choices:
            return list(self.choices)
        if self.minimum is not None and self.maximum is not None and self.maximum - self.minimum < 6:
            return list(range(self.minimum, self.maximum + 1))
        values = {self.default}
        if self.minimum is not None:
            values.add(self.minimum)
        if self.maximum is not None:
            values.add(self.maximum)
        return sorted(values)


def options_schema(options: tuple[Option, ...]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {o.name: o.schema() for o in options},
    }


def normalize(options: tuple[Option, ...], given: Any, seats: int) -> dict[str, Any]:
    """Return the full option dict (defaults filled in), or raise InvalidOptions."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise InvalidOptions("invalid_options", say("core.refusal.options_not_object"))
    by_name = {o.name: o for o in options}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InvalidOptions("unknown_option", say("core.refusal.unknown_option", option=repr(unknown[0])))
    result = {}
    for option in options:
        if option.name in given:
            value = option.check(given[option.name])
            if option.seats and seats not in option.seats and value != option.default_for(seats):
                raise InvalidOptions(
                    "option_needs_other_seat_count",
                    say("core.refusal.option_seats", option=option.name, counts=list(option.seats)),
                )
            result[option.name] = value
        else:
            result[option.name] = option.default_for(seats)
    return result


def combinations(options: tuple[Option, ...], seats: int, limit: int = 64) -> list[dict[str, Any]]:
    """Option dicts covering every value of every option at this seat count.

    All combinations when there are few; otherwise the defaults plus each value of each
    option alone, plus everything non-default at once.
    """
    usable = [o for o in options if not o.seats or seats in o.seats]
    defaults = {o.name: o.default_for(seats) for o in options}
    grids = [[(o.name, v) for v in o.values()] for o in usable]
    total = 1
    for grid in grids:
        total *= len(grid)
    if total <= limit:
        return [{**defaults, **dict(combo)} for combo in itertools.product(*grids)]
    out = [dict(defaults)]
    for option in usable:
        for value in option.values():
            if value != option.default_for(seats):
                out.append({**defaults, option.name: value})
    return out
