"""Structured JSON logs: one line per request with a request id (the client's or a new one), echoed
in X-Request-ID, and one line per bot job in the worker, naming the request that caused it."""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import replace

import redis

from service.run.embedded import EmbeddedRedis
from service.watch.logs import (
    JsonFormatter,
    TextFormatter,
    accept_request_id,
    bind_request_id,
    chosen_format,
    logging_config,
    reset_request_id,
)
from skyline.web import api_app

from ..conftest import burst_worker

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_sane_client_request_id_is_echoed_and_others_are_replaced(client):
    assert (
        client.get("/healthz", headers={"X-Request-ID": "front-42.a:b"}).headers["X-Request-ID"]
        == "front-42.a:b"
    )
    generated = {client.get("/healthz").headers["X-Request-ID"] for _ in range(3)}
    assert len(generated) == 3 and all(len(value) == 32 for value in generated)
    for bad in ("x" * 129, "has space", "new\nline", ""):
        assert accept_request_id(bad) != bad
    assert len(client.get("/catalog", headers={"X-Request-ID": "é"}).headers["X-Request-ID"]) == 32


def test_errors_carry_the_request_id_too(client):
    response = client.get("/games/nope", headers={"X-Request-ID": "trace-404"})
    assert response.status_code == 404 and response.headers["X-Request-ID"] == "trace-404"


def test_one_access_line_per_request_with_route_status_duration_and_game(client, caplog):
    game_id = client.post("/games", json={"title": "property", "seats": HUMANS}).get_json()["id"]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="skyline.access"):
        client.get(f"/games/{game_id}/moves", headers={"X-Request-ID": "line-1"})
    (record,) = [r for r in caplog.records if r.name == "skyline.access"]
    assert record.method == "GET" and record.route == "/games/{game_id}/moves" and record.status == 200
    assert record.game_id == game_id and record.request_id == "line-1" and record.duration_ms >= 0
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "request" and line["game_id"] == game_id and line["level"] == "info"
    assert line["path"] == f"/games/{game_id}/moves" and line["client"] == "127.0.0.1"


def test_the_formatter_writes_one_json_object_per_line_with_the_exception():
    logger = logging.getLogger("skyline.test")
    try:
        raise ValueError("boom")
    except ValueError:
        record = logger.makeRecord(
            "skyline.test", logging.ERROR, __file__, 1, "failed %s", ("x",), sys.exc_info()
        )
    record.game_id = "g1"
    text = JsonFormatter().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert (
        line["message"] == "failed x" and line["game_id"] == "g1" and "ValueError: boom" in line["exception"]
    )


def test_the_access_log_can_be_turned_off(settings, redis_client, caplog):
    client = api_app(replace(settings, access_log=False), redis_client=redis_client).test_client()
    with caplog.at_level(logging.INFO, logger="skyline.access"):
        response = client.get("/catalog")
    assert response.headers["X-Request-ID"] and not [r for r in caplog.records if r.name == "skyline.access"]


def test_the_worker_logs_one_json_line_per_bot_job_with_the_request_that_caused_it(settings, tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendonly=False).start()
    try:
        app = api_app(replace(settings, redis_url=server.url), redis_client=redis.Redis.from_url(server.url))
        created = app.test_client().post(
            "/games",
            json={"title": "property", "seed": 2, "seats": [{"kind": "bot", "bot": "random"}] * 2},
            headers={"X-Request-ID": "create-7"},
        )
        game_id = created.get_json()["id"]
        done = burst_worker(server.url)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == len(done.stdout.splitlines()), "every line is JSON"
    jobs = [line for line in lines if line.get("event") == "bot_job"]
    assert jobs, done.stdout[-2000:]
    first = jobs[0]
    assert first["game_id"] == game_id and first["version"] == 0 and first["outcome"] == "played"
    assert first["request_id"] == "create-7", "the job names the request that enqueued it"
    assert first["moves"] >= 1 and first["duration_ms"] > 0 and first["logger"] == "skyline.worker"
    # The next turns were enqueued by the jobs themselves, and say so.
    assert all(job["request_id"].startswith(("create-7", "job:")) for job in jobs)


def test_a_text_line_reads_as_a_line_with_the_request_id_and_the_fields():
    logger = logging.getLogger("skyline.test")
    record = logger.makeRecord("skyline.test", logging.WARNING, __file__, 1, "slow %s", ("move",), None)
    record.game_id = "g1"
    token = bind_request_id("trace-9")
    try:
        line = TextFormatter().format(record)
    finally:
        reset_request_id(token)
    assert "\n" not in line and not line.startswith("{")
    assert line.split()[1:] == ["WARNING", "skyline.test", "[trace-9]", "slow", "move", "game_id=g1"]
    # The access line's own request id (an extra field) is the one in brackets, not repeated.
    record.request_id = "access-3"
    assert "[access-3] slow move game_id=g1" in TextFormatter().format(record)
    assert "request_id=" not in TextFormatter().format(record)


def test_a_text_line_has_its_exception_below_it():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("x").makeRecord(
            "x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    first, *rest = TextFormatter().format(record).splitlines()
    assert first.endswith("ERROR   x failed") and "ValueError: boom" in rest[-1]


def test_auto_is_text_on_a_terminal_and_json_on_a_pipe():
    leader, follower = os.openpty()
    reading, writing = os.pipe()
    with open(follower, "w") as terminal, open(writing, "w") as pipe:
        assert chosen_format("auto", terminal) == "text"
        assert chosen_format("auto", pipe) == "json"
        assert chosen_format("json", terminal) == "json" and chosen_format("text", pipe) == "text"
    os.close(leader)
    os.close(reading)
    text = logging_config("INFO", "text")["formatters"]["lines"]["()"]
    assert text == "service.watch.logs.TextFormatter"
