# The part of flask-smorest (no annotations of its own, no types-* package) that Skyline uses,
# typed so that mypy's strict flags hold in service/http/: its decorators keep the view they wrap.
from collections.abc import Callable
from typing import Any, TypeVar

import flask
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

_Wrapped = TypeVar("_Wrapped")

class Blueprint(flask.Blueprint):
    ARGUMENTS_PARSER: Any
    def __init__(self, name: str, import_name: str, *args: Any, **kwargs: Any) -> None: ...
    def route(
        self, rule: str, *, parameters: list[Any] | None = ..., tags: list[str] | None = ..., **options: Any
    ) -> Callable[[_Wrapped], _Wrapped]: ...
    def arguments(
        self,
        schema: Any,
        *,
        location: str = ...,
        content_type: str | None = ...,
        required: bool = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        **kwargs: Any,
    ) -> Callable[[_Wrapped], _Wrapped]: ...
    def response(
        self,
        status_code: int | str,
        schema: Any = ...,
        *,
        content_type: str | None = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        headers: Any = ...,
    ) -> Callable[[_Wrapped], _Wrapped]: ...
    def alt_response(
        self,
        status_code: int | str,
        response: Any = ...,
        *,
        schema: Any = ...,
        content_type: str | None = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        headers: Any = ...,
        success: bool = ...,
    ) -> Callable[[_Wrapped], _Wrapped]: ...
    def doc(self, **kwargs: Any) -> Callable[[_Wrapped], _Wrapped]: ...

class Api:
    ERROR_SCHEMA: Any
    DEFAULT_ERROR_RESPONSE_NAME: str
    spec: APISpec
    ma_plugin: MarshmallowPlugin
    def __init__(
        self,
        app: flask.Flask | None = ...,
        *,
        spec_kwargs: dict[str, Any] | None = ...,
        config_prefix: str = ...,
    ) -> None: ...
    def init_app(self, app: flask.Flask, *, spec_kwargs: dict[str, Any] | None = ...) -> None: ...
    def register_blueprint(
        self, blp: Blueprint, *, parameters: list[Any] | None = ..., **options: Any
    ) -> None: ...
    def register_converter(self, converter: type[Any], func: Callable[[Any], dict[str, Any]]) -> None: ...
    def _register_responses(self) -> None: ...
    def _openapi_json(self) -> flask.Response: ...
