"""The names of the contract's components, and the marshmallow fields that point at them.

Most of openapi.yaml is written by apispec from the marshmallow schemas the service reads its
requests with (``service.http.schemas``) and describes its replies with
(``service.http.replies``). What a title's rules decide (its moves, views, options, events and
results) comes from the engine's own JSON Schemas instead: ``service.http.contract`` makes them
components named ``<Title><Part>``. A field below stands for such a component inside a
marshmallow schema, so that the schema's conversion names it (apispec cannot see inside it);
``service.http.contract.component_property`` is the converter's function that reads them.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping
from typing import Any

from marshmallow import fields

from engines import registry

REF = "#/components/schemas/"


def pascal(text: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", text) if word)


def component_name(game_id: str, part: str) -> str:
    return pascal(game_id) + part


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


class ComponentField(fields.Raw, metaclass=abc.ABCMeta):
    """A JSON object described by a component of the contract that is not a marshmallow schema.

    Read (a request's move), it must be an object; its content is the engine's to judge. It has
    no JSON type of its own in the contract: the component it names has (``service.http.contract`` maps the
    class to none, so that a generator sees the reference alone)."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        return value

    @abc.abstractmethod
    def openapi_property(self) -> dict[str, Any]:
        """The keywords this field adds to its property in the contract."""


class Component(ComponentField):
    """One named component (``PropertyView``, ``LobbyGame``, ``Deadlines``); with ``allow_none``,
    it or null."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component  # not ``name``: a field's name is its key in the schema

    def openapi_property(self) -> dict[str, Any]:
        named = ref(self.component)
        return {"oneOf": [named, {"type": "null"}]} if self.allow_none else dict(named)


class AnyTitle(ComponentField):
    """A title's part, of any title (``<Title>Move`` for every title): a request's move, a result
    in a listing of games of every title; with ``allow_none``, or null."""

    def __init__(self, part: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.part = part

    def openapi_property(self) -> dict[str, Any]:
        branches = [ref(component_name(game_id, self.part)) for game_id in sorted(registry.GAMES)]
        return {"anyOf": [*branches, {"type": "null"}] if self.allow_none else branches}


class Constant(fields.String):
    """A string that is always ``value`` in the contract (a title's own replies name it): the
    discriminator of a union of one component per title."""

    def __init__(self, value: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value = value

    def openapi_property(self) -> dict[str, Any]:
        return {"const": self.value}
