"""The API composed: ``create_app`` over the services ``build_services`` makes for it."""

from __future__ import annotations

from dataclasses import replace

import redis
from flask import Flask

from service.config import Settings
from service.http.app import create_app
from service.store.connect import StoreRedis

from .compose import API, build_services


def api_app(
    settings: Settings, *, redis_client: StoreRedis | None = None, enqueue_bots: bool = True
) -> Flask:
    """The API over ``settings`` (``redis_client``: the store's, when the caller holds one)."""
    return create_app(build_services(settings, API, redis_client=redis_client, enqueue_bots=enqueue_bots))


def document_app(settings: Settings) -> Flask:
    """The API built for its contract only (`skyline openapi`), without touching Redis: its clients
    connect lazily, and an address nothing listens on answers the start's one check at once."""
    never_connected = "redis://127.0.0.1:1/0"
    offline = replace(settings, redis_url=never_connected, rq_redis_url=None, redis_cluster=False)
    return api_app(offline, redis_client=redis.Redis.from_url(never_connected), enqueue_bots=False)
