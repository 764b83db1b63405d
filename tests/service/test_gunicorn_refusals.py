"""What gunicorn refuses before the app, and bodies over the limit, on a live gunicorn (issue 21).

gunicorn answers a request line too long (414), too many or too large headers (431) and an
unreadable request (400) itself: these come back as problem+json like every other error, for
the thread worker and the gevent one. A 413 closes the connection and says so, so that a
pooled client's next request goes out on a fresh connection instead of failing.
"""

from __future__ import annotations

import json
import os
import socket

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.run import gunicorn_refusals

from ..conftest import LIVE_ENV, Processes, api_command, free_port, wait_http

WORKER_CLASSES = ["gthread", "gevent"]
MAX_BODY = 64 * 1024  # the default SKYLINE_MAX_BODY_BYTES the live server runs with

pytestmark = pytest.mark.live  # gunicorn itself, as production runs it


@pytest.fixture(scope="module", params=WORKER_CLASSES)
def server(request, redis_server):
    if request.param == "gevent":
        pytest.importorskip("gevent", reason="the gevent worker class needs gevent installed")
    env = {**os.environ, **LIVE_ENV, "REDIS_URL": redis_server.url, "SKYLINE_MAX_BODY_BYTES": str(MAX_BODY)}
    processes = Processes(env)
    port = free_port()
    command = api_command(port, workers=1)
    processes.start([*command[:-1], "--worker-class", request.param, command[-1]])
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/readyz")
        yield port
    finally:
        processes.stop()


def exchange(port: int, raw: bytes, timeout: float = 10.0) -> bytes:
    """Send ``raw``, close the sending side, and read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(raw)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server may refuse and close before reading everything
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    return received


def parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """The final response's status, fields and body (after any interim 1xx, such as 100 Continue)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    while head.startswith(b"HTTP/1.1 1"):
        head, _, body = body.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return status, fields, body


def assert_refused(raw: bytes, status: int, code: str) -> None:
    got, fields, body = parse(raw)
    assert got == status, raw[:300]
    assert fields["content-type"] == "application/problem+json"
    assert fields["connection"] == "close"
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code and problem["detail"]


def test_a_request_line_too_long_is_a_414_problem(server):
    raw = exchange(server, b"GET /games/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert_refused(raw, 414, "request_line_too_long")


def test_too_many_headers_are_a_431_problem(server):
    many = b"".join(b"X-Filler-%d: 1\r\n" % i for i in range(150))
    raw = exchange(server, b"GET /catalog HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert_refused(raw, 431, "headers_too_large")


def test_a_header_too_long_is_a_431_problem(server):
    raw = exchange(server, b"GET /catalog HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert_refused(raw, 431, "headers_too_large")


@pytest.mark.parametrize(
    "raw",
    [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET /catalog HTTP/1.1\r\nNo colon here\r\n\r\n",
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n12345",
        b"POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ids=["request-line", "version", "header-line", "two-lengths", "bad-chunk"],
)
def test_an_unreadable_request_is_a_400_problem(server, raw):
    assert_refused(exchange(server, raw), 400, "malformed_http_request")


def test_a_script_name_header_is_dropped_not_a_500(server):
    # gunicorn trusted it from 127.0.0.1 by default, and a path outside it was its own 500.
    raw = exchange(server, b"GET /catalog HTTP/1.1\r\nHost: x\r\nSCRIPT_NAME: /elsewhere\r\n\r\n")
    status, _, body = parse(raw)
    assert status == 200 and json.loads(body)["titles"]


def test_the_problem_bytes_are_a_whole_http_response():
    status, fields, body = parse(gunicorn_refusals.response_bytes(431))
    assert status == 431 and int(fields["content-length"]) == len(body)
    assert json.loads(body)["code"] == "headers_too_large"


def chunks(total: int):
    for _ in range(total // 1024):
        yield b" " * 1024


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_413_closes_the_connection_and_the_pooled_client_goes_on(server, framing):
    url = f"http://127.0.0.1:{server}"
    with requests.Session() as session:
        assert session.get(url + "/healthz", timeout=10).status_code == 200
        too_big = b" " * (MAX_BODY * 3) if framing == "content-length" else chunks(MAX_BODY * 3)
        refused = session.post(
            url + "/games", data=too_big, headers={"Content-Type": "application/json"}, timeout=10
        )
        assert refused.status_code == 413 and refused.json()["code"] == "body_too_large"
        assert refused.headers["Connection"] == "close"
        # The same session's next request: a new connection, answered.
        assert session.get(url + "/healthz", timeout=10).status_code == 200


# ---- fuzzing the HTTP framing gunicorn reads ---------------------------------------------------
token = st.binary(min_size=1, max_size=12)
header_lines = st.lists(
    st.tuples(
        st.one_of(
            st.sampled_from([b"Host", b"Content-Length", b"Transfer-Encoding", b"Expect", b"SCRIPT_NAME"]),
            token,
        ),
        st.one_of(st.sampled_from([b"chunked", b"100-continue", b"-1", b"99999999999", b"x y"]), token),
    ),
    max_size=6,
)
request_heads = st.tuples(
    st.one_of(st.sampled_from([b"GET", b"POST", b"PUT", b"get", b"G\x00T"]), token),
    st.one_of(st.sampled_from([b"/catalog", b"/games", b"*", b"http://x/catalog", b"/%zz"]), token),
    st.one_of(st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/1.1 x"]), token),
    header_lines,
    st.binary(max_size=40),
)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(head=request_heads)
def test_fuzzed_request_heads_get_problem_json_and_no_500(server, head):
    method, target, version, fields, body = head
    raw = method + b" " + target + b" " + version + b"\r\n"
    raw += b"".join(name + b": " + value + b"\r\n" for name, value in fields) + b"\r\n" + body
    answer = exchange(server, raw)
    if not answer:
        return  # gunicorn may close on a request it cannot even start to read
    status, response_fields, response_body = parse(answer)
    # 501 is HTTP's answer to a transfer coding the server does not implement: not a failure.
    assert status < 500 or status == 501, answer[:400]
    if status >= 400:
        assert response_fields["content-type"] == "application/problem+json", answer[:400]
        assert json.loads(response_body)["status"] == status


# Every route and method of the API (issue 65: a route that reads no body, POST /players or
# POST /games/{id}/abort, answered 201/200 to 5 MB sent with Content-Length).
EVERY_ROUTE = [
    ("GET", "/catalog"),
    ("POST", "/games"),
    ("GET", "/games/g1"),
    ("GET", "/games/g1/moves"),
    ("POST", "/games/g1/actions"),
    ("GET", "/games/g1/events"),
    ("GET", "/games/g1/record"),
    ("GET", "/games/g1/board.svg"),
    ("GET", "/games/g1/board.txt"),
    ("GET", "/games/g1/versions/0"),
    ("POST", "/games/g1/join"),
    ("POST", "/games/g1/leave"),
    ("POST", "/games/g1/resign"),
    ("POST", "/games/g1/rematch"),
    ("POST", "/games/g1/abort"),
    ("PUT", "/games/g1/webhook"),
    ("DELETE", "/games/g1/webhook"),
    ("GET", "/games/g1/webhooks/deliveries"),
    ("GET", "/lobby"),
    ("POST", "/players"),
    ("POST", "/players/me/keys"),
    ("GET", "/players/me"),
    ("DELETE", "/players/me"),
    ("PUT", "/players/me/webhook"),
    ("GET", "/players/me/games"),
    ("GET", "/healthz"),
    ("GET", "/openapi.json"),
    ("GET", "/nowhere"),
]
FIVE_MB = 5 * 1024 * 1024


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_five_megabytes_are_a_413_on_every_route_however_they_are_sent(server, framing):
    body = b"{" + b" " * (FIVE_MB - 2) + b"}"
    for method, path in EVERY_ROUTE:
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n".encode()
        if framing == "content-length":
            raw = head + f"Content-Length: {len(body)}\r\n\r\n".encode() + body
        else:
            step = 1 << 20
            pieces = [body[at : at + step] for at in range(0, len(body), step)]
            chunked = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"
            raw = head + b"Transfer-Encoding: chunked\r\n\r\n" + chunked
        answer = exchange(server, raw)
        assert parse(answer)[0] == 413, (method, path, framing, answer[:300])
        assert_refused(answer, 413, "body_too_large")
