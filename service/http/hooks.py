"""What Flask hands service.watch: every request's id, access line and metrics; and GET /metrics.

What a log line or a metric holds is ``service.watch``'s business; these hooks only report each
request Flask answers. The fast lane (``service.http.fastlane``) answers its requests without
Flask's hooks and makes the same calls itself.
"""

from __future__ import annotations

import time

from flask import Flask, Response, g, request
from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint

from ..store.botqueue import QUEUE_NAMES
from ..watch.logs import (
    REQUEST_ID_HEADER,
    accept_request_id,
    access_line,
    bind_request_id,
    end_request_id,
    lighten_log_records,
    route_template,
)
from ..watch.metrics import child, exposition, request_answered, request_began, request_ended
from .services import services


def install_logs(app: Flask, *, enabled: bool = True) -> None:
    """Request ids on every request and response; one JSON access line per request."""
    lighten_log_records()

    @app.before_request
    def _start() -> None:
        request_id = accept_request_id(request.headers.get(REQUEST_ID_HEADER))
        state = g._get_current_object()  # one proxy lookup instead of one per attribute
        state.request_started = time.perf_counter()
        state.request_id = request_id
        state.request_id_token = bind_request_id(request_id)

    @app.after_request
    def _finish(response: Response) -> Response:
        request_id = g.get("request_id")
        if request_id is not None:
            response.headers[REQUEST_ID_HEADER] = request_id
        if enabled:
            started = g.get("request_started", time.perf_counter())
            current = request._get_current_object()  # type: ignore[attr-defined]
            game_id = (current.view_args or {}).get("game_id")
            access_line(
                current.method,
                route_template(current.url_rule.rule if current.url_rule else None),
                current.path,
                response.status_code,
                time.perf_counter() - started,
                current.remote_addr,
                request_id,
                game_id,
            )
        return response

    @app.teardown_request
    def _teardown(error: BaseException | None) -> None:
        token = g.pop("request_id_token", None)
        if token is not None:
            end_request_id(token)


def install_metrics(app: Flask) -> None:
    """Count and time every request; register ``/metrics`` is done by ``create_app``."""

    @app.before_request
    def _start() -> None:
        request_began()
        state = g._get_current_object()  # one proxy lookup instead of one per attribute
        state.metrics_in_flight = True
        state.metrics_started = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        started = g.get("metrics_started")
        if started is not None:
            current = request._get_current_object()  # type: ignore[attr-defined]
            route = route_template(current.url_rule.rule if current.url_rule else None)
            request_answered(current.method, route, response.status_code, time.perf_counter() - started)
            if response.status_code == 201 and route == "/games" and current.method == "POST":
                body = current.get_json(silent=True)
                if isinstance(body, dict) and isinstance(body.get("title"), str):
                    # Titles are checked against the registry before a 201: a bounded label set.
                    child("games", body["title"]).inc()
        return response

    @app.teardown_request
    def _done(error: BaseException | None) -> None:
        if g.pop("metrics_in_flight", False):
            request_ended()


# ---- the route --------------------------------------------------------------------------------------
blp = Blueprint("metrics", __name__, description="Prometheus metrics.")

METRICS_RESPONSES = {
    "200": {
        "description": "Prometheus text exposition (version 0.0.4) of every metric.",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(operationId="getMetrics", responses=METRICS_RESPONSES)
    def get(self) -> ResponseReturnValue:
        """Prometheus metrics: requests, latencies, moves, bot jobs, queue depth (never rate limited)."""
        found = services()
        body, content_type = exposition(
            found.queue_redis, QUEUE_NAMES, multiprocess=found.settings.prometheus_multiproc_dir is not None
        )
        return Response(body, status=200, headers={"Content-Type": content_type})
