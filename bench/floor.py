"""The floor: a minimal Flask endpoint doing one Redis GET, on the same stack as the API."""

from __future__ import annotations

import os

import orjson
import redis
from flask import Flask, Response

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"])
client.set("bench:floor", orjson.dumps({"version": 1, "moves": []}))


@app.get("/floor")
def floor() -> Response:
    return Response(client.get("bench:floor"), mimetype="application/json")
