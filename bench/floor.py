"""The floors the move path is measured against, each doing one Redis GET on the API's stack.

``app`` is a minimal Flask endpoint (what Flask itself costs a request); ``raw`` is a bare WSGI
callable (what gunicorn's worker, the socket and one redis-py command cost, nothing else). Both
are served by the same gunicorn worker class and settings as the API (bench/http_load.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

import orjson
import redis
from flask import Flask, Response

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"])
client.set("bench:floor", orjson.dumps({"version": 1, "moves": []}))


@app.get("/floor")
def floor() -> Response:
    return Response(client.get("bench:floor"), mimetype="application/json")


def raw(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """The raw floor: any path, one GET, its bytes as JSON."""
    body = client.get("bench:floor") or b""
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
