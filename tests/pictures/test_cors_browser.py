"""A web app on its own origin, in Chromium: a page served from another port plays over CORS.

The page (served by a plain static server on a second port) creates a game, lists its moves,
plays one with its seat token, meets a 429 and reads ``Retry-After``, and follows the event
stream with ``EventSource`` — with no console error. The same page is refused when
``SKYLINE_CORS_ORIGINS`` names another origin.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading

import pytest

from tests.conftest import LIVE_ENV, Processes, api_command, free_port, wait_http

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>cors</title></head>
<body><pre id="out"></pre><script>
const API = new URLSearchParams(location.search).get("api");
const report = (result) => { window.result = result; document.body.dataset.done = "yes"; };
async function run() {
  const steps = {};
  const created = await fetch(API + "/games", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({title: "property", seed: 5, seats: [{kind: "human"}, {kind: "human"}]})});
  steps.created = created.status;
  steps.location = created.headers.get("Location");
  steps.request_id = created.headers.get("X-Request-ID");
  const game = await created.json();
  const seat = game.human_seats.find((s) => game.to_act.includes(s.seat));
  const auth = {"Authorization": "Bearer " + seat.token};
  const listed = await fetch(API + "/games/" + game.id + "/moves", {headers: auth});
  steps.moves = listed.status;
  const moves = await listed.json();
  const played = await fetch(API + "/games/" + game.id + "/actions", {method: "POST",
    headers: {...auth, "Content-Type": "application/json", "Idempotency-Key": "first-move"},
    body: JSON.stringify({move: moves.moves[0].move, version: moves.version})});
  steps.played = played.status;
  steps.version = (await played.json()).version;
  for (let i = 0; i < 20; i++) {
    const again = await fetch(API + "/games/" + game.id, {headers: auth});
    if (again.status === 429) {
      steps.limited = 429; steps.retry_after = again.headers.get("Retry-After"); break;
    }
  }
  steps.stream = await new Promise((resolve) => {
    const source = new EventSource(API + "/games/" + game.id + "/events");
    const timer = setTimeout(() => { source.close(); resolve("timeout"); }, 10000);
    source.addEventListener("snapshot", (e) => {
      clearTimeout(timer); source.close(); resolve(JSON.parse(e.data).version);
    });
  });
  return steps;
}
run().then(report, (error) => report({error: String(error)}));
</script></body></html>
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def page_origin(tmp_path_factory):
    """A static server on its own port: the web app's origin."""
    folder = tmp_path_factory.mktemp("app")
    (folder / "index.html").write_text(PAGE)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _api(redis_server, origins: str):
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "SKYLINE_RATE_LIMIT_PER_TOKEN": "4/60",  # the page meets a 429 within a few requests
        "SKYLINE_CORS_ORIGINS": origins,
    }
    processes = Processes(env)
    port = free_port()
    processes.start(api_command(port, workers=1))
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/readyz")
    return processes, url


def _run_page(browser, page_origin: str, api: str):
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    page.goto(f"{page_origin}/index.html?api={api}")
    page.wait_for_selector("body[data-done=yes]", state="attached", timeout=30000)
    result = page.evaluate("window.result")
    page.close()
    return result, errors


def test_a_page_on_another_origin_plays_over_cors(browser, redis_server, page_origin):
    processes, api = _api(redis_server, "*")
    try:
        result, errors = _run_page(browser, page_origin, api)
    finally:
        processes.stop()
    assert "error" not in result, result
    assert result["created"] == 201 and result["location"].startswith("/games/")
    assert result["request_id"]
    assert result["moves"] == 200 and result["played"] == 200 and result["version"] >= 1
    assert result["limited"] == 429 and int(result["retry_after"]) >= 1, json.dumps(result)
    assert result["stream"] == result["version"]
    # The one line Chromium logs itself for the 429 the page provokes on purpose ("Failed to load
    # resource: ... 429") is its network log, not the page's; no CORS error, nothing else.
    assert [e for e in errors if "status of 429" not in e] == []


def test_the_same_page_is_refused_when_another_origin_is_named(browser, redis_server, page_origin):
    processes, api = _api(redis_server, "https://app.example")
    try:
        result, errors = _run_page(browser, page_origin, api)
    finally:
        processes.stop()
    assert "error" in result and "Failed to fetch" in result["error"]
    assert any("CORS policy" in e for e in errors), errors
