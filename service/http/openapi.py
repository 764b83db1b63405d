"""The OpenAPI document, generated from the app's schemas (openapi.yaml is this, written out)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import redis
import yaml
from flask import Flask

from ..config import Settings


def documented_app() -> Flask:
    """The app, built without touching Redis (clients connect lazily): its routes and its spec."""
    from .app import create_app

    never_connected = "redis://127.0.0.1:1/0"
    settings = replace(Settings.from_env(), redis_url=never_connected, rq_redis_url=None)
    return create_app(settings, redis_client=redis.Redis.from_url(never_connected), enqueue_bots=False)


def document() -> dict[str, Any]:
    spec: dict[str, Any] = documented_app().extensions["skyline.api"].spec.to_dict()
    return spec


def document_yaml() -> str:
    return yaml.safe_dump(document(), sort_keys=False, allow_unicode=True, width=100)
