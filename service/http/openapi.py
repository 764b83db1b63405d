"""The OpenAPI document, generated from the app's schemas (openapi.yaml is this, written out)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import redis
import yaml

from ..config import Settings


def document() -> dict[str, Any]:
    """Build the app without touching Redis (clients connect lazily) and return its spec."""
    from .app import create_app

    never_connected = "redis://127.0.0.1:1/0"
    settings = replace(Settings.from_env(), redis_url=never_connected, rq_redis_url=None)
    app = create_app(settings, redis_client=redis.Redis.from_url(never_connected), enqueue_bots=False)
    return app.extensions["skyline.api"].spec.to_dict()


def document_yaml() -> str:
    return yaml.safe_dump(document(), sort_keys=False, allow_unicode=True, width=100)
