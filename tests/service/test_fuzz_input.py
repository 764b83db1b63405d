"""Fuzzing every route with hostile input (issue 21), in-process against a real Redis.

Requests are drawn over raw bytes and over JSON trees (deep nesting, lone surrogates, huge,
negative and non-finite numbers, floats where integers go, unknown fields), on every route,
method, query and header the API reads (``Authorization``, ``Idempotency-Key``,
``Last-Event-ID``, ``Accept``, ``Content-Type``, ``If-None-Match``). For each:

- no response is a 5xx;
- every error is application/problem+json with a ``code``, a ``detail`` and its ``status``;
- a refused request changes nothing: the app has a Redis database of its own, and neither its
  key count nor the played game (hash and log) moves.

The settings are fixed (derandomized, no example database) so that a run is the same on
every machine and takes a few seconds.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import replace

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.config import Settings
from service.store.keys import game_key, log_key
from skyline.web import api_app

FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
FUZZ_DB = 9
JSON = {"Content-Type": "application/json"}  # a database of the test Redis no other test uses

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
# Ids the service never makes (a NUL, a slash, 65 characters, outside the alphabet), URL-quoted.
IMPOSSIBLE_IDS = ["%00", "a%00b", "a%2Fb", "a" * 65, "%C3%A9", "a.b", "%20", "%FF%FE"]


def choice(*strategies: st.SearchStrategy) -> st.SearchStrategy:
    """One of the strategies, each as often as the others (``one_of`` favours the simplest)."""
    return st.sampled_from(strategies).flatmap(lambda chosen: chosen)


text = choice(
    st.text(max_size=12),
    st.lists(st.one_of(st.characters(), st.sampled_from(SURROGATES)), max_size=12).map("".join),
    st.tuples(st.text(max_size=4), st.sampled_from(SURROGATES), st.text(max_size=4)).map("".join),
)
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40)
numbers = choice(
    st.integers(min_value=-1000, max_value=1000),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, 10**400, -(10**400)]),
    st.floats(allow_nan=True, allow_infinity=True),
)
leaves = choice(st.none(), st.booleans(), numbers, text)
trees = st.recursive(
    leaves,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(text, children, max_size=4)),
    max_leaves=20,
)


def deep(levels: int, brackets: tuple[bytes, bytes]) -> bytes:
    opening, closing = brackets
    return opening * levels + b"1" + closing * levels


deep_bodies = st.builds(
    deep,
    st.one_of(st.sampled_from([63, 64, 65, 254, 255, 1023, 1024, 1025, 3000]), st.integers(1, 6000)),
    st.sampled_from([(b"[", b"]"), (b'{"move":', b"}"), (b'{"":[', b"]}")]),
)


@st.composite
def encoded(draw, value_strategy):
    """``value`` written as JSON the way a careless or hostile client might: with NaN and
    Infinity, with surrogates as ``\\ud800`` escapes or as (invalid) UTF-8 bytes."""
    value = draw(value_strategy)
    try:
        written = json.dumps(value, ensure_ascii=draw(st.booleans()), allow_nan=True)
    except (ValueError, RecursionError):
        written = "null"
    return written.encode("utf-8", "surrogatepass")


@st.composite
def mutated(draw, valid):
    """``valid`` (a JSON value) with one to three hostile changes: a string swapped for a hostile
    one, a value anywhere replaced by a hostile tree, or an unknown field (often with a hostile
    name) added to an object. Mostly one change: that is what reaches past the first check."""
    value = json.loads(json.dumps(valid))
    # Where to change is drawn uniformly (sampled_from leans to the first places).
    pick = draw(st.randoms(use_true_random=False)).choice
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        containers = [value] if isinstance(value, dict | list) else []
        for node in containers:  # every object and array, breadth first
            children = node.values() if isinstance(node, dict) else node
            containers += [c for c in children if isinstance(c, dict | list)]
        slots = [
            (node, key)
            for node in containers
            for key in (list(node) if isinstance(node, dict) else range(len(node)))
        ]
        strings = [(node, key) for node, key in slots if isinstance(node[key], str)]
        change = draw(st.sampled_from(["string", "value", "field"]))
        if change == "string" and strings:
            node, key = pick(strings)
            node[key] = draw(text)
        elif change == "value" and slots:
            node, key = pick(slots)
            node[key] = draw(choice(leaves, trees))
        else:
            objects = [node for node in containers if isinstance(node, dict)]
            if not objects:
                return draw(trees)
            pick(objects)[draw(text)] = draw(leaves)
    return value


VALID_CREATE = [
    {"title": "property", "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Cy"}]},
    {
        "title": "property",
        "seats": [{"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy", "level": "easy"}],
        "options": {},
        "seed": 5,
    },
    {
        "title": "new-york",
        "seats": [{"kind": "human", "name": "Di"}, {"kind": "bot"}, {"kind": "human"}],
        "seed": 9,
    },
]


def create_body() -> st.SearchStrategy:
    return st.sampled_from(VALID_CREATE).flatmap(mutated)


def action_body(legal_moves) -> st.SearchStrategy:
    valid = st.builds(
        lambda move, version: {"move": move} if version is None else {"move": move, "version": version},
        st.sampled_from(legal_moves),
        st.sampled_from([None, 0]),
    )
    return valid.flatmap(mutated)


ROUTES = [
    ("GET", "/catalog"),
    ("POST", "/games"),
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/moves"),
    ("POST", "/games/{id}/actions"),
    ("GET", "/games/{id}/events"),
    ("GET", "/games/{id}/record"),
    ("GET", "/games/{id}/versions/1"),
    ("GET", "/games/{id}/board.txt"),
    ("GET", "/games/{id}/board.svg"),
    ("POST", "/games/{id}/abort"),
    ("POST", "/players"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/metrics"),
    ("GET", "/openapi.json"),
]
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
QUERY_NAMES = ["since", "dry_run", "x"]
query_values = st.one_of(
    numbers.map(str), st.sampled_from(["true", "false", "1e3", "-0", ""]), st.binary(max_size=12)
)


@st.composite
def query_string(draw):
    pairs = draw(st.lists(st.tuples(st.one_of(st.sampled_from(QUERY_NAMES), text), query_values), max_size=3))
    parts = []
    for name, value in pairs:
        raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        parts.append(urllib.parse.quote(name, errors="surrogatepass") + "=" + urllib.parse.quote(raw))
    return "&".join(parts)


@st.composite
def headers(draw, tokens):
    chosen = {}
    if draw(st.booleans()):
        chosen["Authorization"] = draw(
            choice(
                st.sampled_from([f"Bearer {t}" for t in tokens]),
                header_text.map(lambda t: "Bearer " + t),
                header_text,
            )
        )
    if draw(st.booleans()):
        chosen["Idempotency-Key"] = draw(choice(header_text, st.text("ab", min_size=120, max_size=140)))
    if draw(st.booleans()):
        # Digits as str.isdigit() sees them ("²" is one) and numbers of every size.
        odd_digits = st.text(st.sampled_from("0123456789\u00b2\u00b3\u00b9 -+"), min_size=1, max_size=14)
        chosen["Last-Event-ID"] = draw(choice(header_text, numbers.map(str), odd_digits))
    if draw(st.booleans()):
        chosen["Accept"] = draw(
            choice(st.sampled_from(["application/json", "text/event-stream", "*/*"]), header_text)
        )
    if draw(st.booleans()):
        chosen["If-None-Match"] = draw(header_text)
    chosen["Content-Type"] = draw(
        choice(
            st.just("application/json"),
            st.sampled_from(["text/plain", "application/json; charset=latin-1", "application/x-json"]),
            header_text,
        )
    )
    return chosen


@pytest.fixture(scope="module")
def fuzz(redis_server):
    # Not from_url(url, db=...): the URL's own "?db=0" would win, and the live worker shares db 0.
    client = redis.Redis(unix_socket_path=redis_server.socket, db=FUZZ_DB)
    client.flushdb()
    app_settings = replace(
        Settings.from_env(),
        redis_url=redis_server.url,
        max_body_bytes=16 * 1024,
        rate_limit_per_address=None,
        rate_limit_per_token=None,
        # A hostile Last-Event-ID may name the game's own version: the stream then sends nothing
        # before its first heartbeat, which the test client waits for (15 s by default, twice a run).
        sse_heartbeat_seconds=1,
    )
    app = api_app(app_settings, redis_client=client, enqueue_bots=False)
    http = app.test_client()
    created = http.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 7}
    ).get_json()
    tokens = [s["token"] for s in created["seats"]]
    for valid in VALID_CREATE:  # the templates the fuzzers spoil are themselves accepted
        assert http.post("/games", json=valid).status_code == 201, valid
    moves = []
    for token in tokens:  # the seat to act lists its legal moves; the other none
        listing = http.get(f"/games/{created['id']}/moves", headers={"Authorization": f"Bearer {token}"})
        moves += [listed["move"] for listed in listing.get_json()["moves"]]
    assert moves
    yield http, client, created["id"], tokens, moves
    client.flushdb()
    client.close()


def snapshot(client: redis.Redis, game_id: str):
    # Every key by name (not only their number), so a failure names the key a request wrote.
    return (
        sorted(client.scan_iter(count=1000)),
        client.hgetall(game_key(game_id)),
        client.lrange(log_key(game_id), 0, -1),
    )


def check(http, client, game_id, method, path, query, sent_headers, body):
    before = snapshot(client, game_id)
    response = http.open(
        path, method=method, query_string=query, headers=sent_headers, data=body, buffered=False
    )
    try:
        status = response.status_code
        streamed = response.mimetype == "text/event-stream"
        data = b"" if streamed or method == "HEAD" else response.get_data()
    finally:
        response.close()
    context = f"{method} {path}?{query} {sent_headers} {body[:200]!r} -> {status} {data[:300]!r}"
    assert status < 500, context
    if status >= 400:
        assert response.mimetype == "application/problem+json", context
        if method != "HEAD":
            problem = json.loads(data)
            assert problem["status"] == status, context
            assert isinstance(problem["code"], str) and problem["code"], context
            assert isinstance(problem["detail"], str) and problem["detail"], context
        assert snapshot(client, game_id) == before, f"a refused request changed the store: {context}"


@st.composite
def request(draw, game_id, tokens, bodies):
    method, template = draw(st.sampled_from(ROUTES))
    if draw(st.integers(0, 9)) == 0:
        method = draw(st.sampled_from(METHODS))
    game = draw(
        choice(
            st.just(game_id),
            st.just(game_id),
            text.map(lambda t: urllib.parse.quote(t.encode("utf-8", "surrogatepass"), safe="")),
            st.binary(max_size=8).map(lambda b: urllib.parse.quote(b, safe="")),
            st.sampled_from(IMPOSSIBLE_IDS),  # never made: a 404 before any store (issue 65)
        )
    )
    path = template.replace("{id}", game or "x")
    return method, path, draw(query_string()), draw(headers(tokens)), draw(bodies)


@st.composite
def body_post(draw, game_id, tokens, bodies):
    """A POST of ``bodies`` to a route that reads one, as JSON, by the seat to act or another."""
    path = draw(st.sampled_from(["/games", f"/games/{game_id}/actions"]))
    query = draw(st.sampled_from(["", "dry_run=true", "dry_run=false"]))
    sent_headers = {**JSON, "Authorization": f"Bearer {draw(st.sampled_from(tokens))}"}
    return "POST", path, query, sent_headers, draw(bodies)


@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_fuzzed_json_trees_get_no_5xx_and_refusals_change_nothing(fuzz, data):
    http, client, game_id, tokens, moves = fuzz
    bodies = choice(encoded(create_body()), encoded(action_body(moves)), encoded(trees), deep_bodies)
    check(http, client, game_id, *data.draw(body_post(game_id, tokens, bodies)))


@st.composite
def mangled(draw, valid: st.SearchStrategy[bytes]):
    """A valid body with bytes flipped, cut or spliced in."""
    body = bytearray(draw(valid))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(body)))
        action = draw(st.sampled_from(["flip", "cut", "splice"]))
        if action == "flip" and at < len(body):
            body[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del body[at : at + draw(st.integers(1, 8))]
        else:
            body[at:at] = draw(st.binary(min_size=1, max_size=8))
    return bytes(body)


@FUZZ
@given(data=st.data())
def test_fuzzed_bytes_get_no_5xx_and_refusals_change_nothing(fuzz, data):
    http, client, game_id, tokens, moves = fuzz
    valid = choice(
        st.sampled_from(moves).map(lambda m: json.dumps({"move": m}).encode()),
        st.just(b'{"title":"property","seats":[{"kind":"human","name":"Ada"},{"kind":"bot"}],"seed":3}'),
    )
    bodies = choice(st.binary(max_size=300), mangled(valid))
    check(http, client, game_id, *data.draw(body_post(game_id, tokens, bodies)))


@FUZZ
@given(data=st.data())
def test_fuzzed_routes_queries_and_headers_get_no_5xx_and_refusals_change_nothing(fuzz, data):
    http, client, game_id, tokens, moves = fuzz
    bodies = choice(st.just(b""), encoded(action_body(moves)), encoded(create_body()), st.binary(max_size=40))
    check(http, client, game_id, *data.draw(request(game_id, tokens, bodies)))


def test_impossible_ids_and_bodies_over_the_limit_are_refused_on_every_route_and_change_nothing(fuzz):
    """Issue 65's refusals, every route in turn: an id the service never makes is a 404 (a NUL
    was a 500 from PostgreSQL), a body over the limit a 413 with or without a read of it."""
    http, client, game_id, tokens, moves = fuzz
    over = b" " * (16 * 1024 + 1)  # the fuzzing app's limit, plus one
    for method, template in ROUTES:
        for impossible in IMPOSSIBLE_IDS:
            if "{id}" in template:
                before = snapshot(client, game_id)
                reply = http.open(
                    template.replace("{id}", impossible), method=method, headers=JSON, data=b"{}"
                )
                assert reply.status_code == 404, (method, template, impossible, reply.status_code)
                assert snapshot(client, game_id) == before
        before = snapshot(client, game_id)
        reply = http.open(template.replace("{id}", game_id), method=method, headers=JSON, data=over)
        assert reply.status_code == 413 and reply.get_json()["code"] == "body_too_large", (method, template)
        assert snapshot(client, game_id) == before


UNKNOWN = object()  # a path step: a new field, named by the test
CREATE_FIELDS = [
    ("title",),
    ("seats",),
    ("seats", 0, "kind"),
    ("seats", 0, "name"),
    ("seats", 1, "bot"),
    ("seats", 1, "level"),
    ("options",),
    ("seed",),
    (UNKNOWN,),
    ("seats", 0, UNKNOWN),
    ("options", UNKNOWN),
]
ACTION_FIELDS = [("move",), ("move", "type"), ("move", UNKNOWN), ("version",), (UNKNOWN,)]


def with_field(valid, path, value, unknown_name):
    body = json.loads(json.dumps(valid))
    node = body
    for step in path[:-1]:
        node = node[step]
    node[unknown_name if path[-1] is UNKNOWN else path[-1]] = value
    return body


@settings(FUZZ, max_examples=400)
@given(data=st.data())
def test_each_field_with_a_hostile_value_gets_no_5xx_and_refusals_change_nothing(fuzz, data):
    """Every field of both bodies in turn (and a new one beside each), the rest valid."""
    http, client, game_id, tokens, moves = fuzz
    route = data.draw(st.sampled_from(["create", "action"]))
    if route == "create":
        path, valid, url = data.draw(st.sampled_from(CREATE_FIELDS)), VALID_CREATE[1], "/games"
    else:
        move = data.draw(st.sampled_from(moves))
        fields = ACTION_FIELDS + [("move", key) for key in move]
        path, valid, url = data.draw(st.sampled_from(fields)), {"move": move}, f"/games/{game_id}/actions"
    # Strings half the time: most fields are strings, and most are stored or echoed.
    body = with_field(valid, path, data.draw(choice(text, text, leaves, trees)), data.draw(text))
    written = json.dumps(body, allow_nan=True).encode()  # surrogates as \ud800 escapes, which are ASCII
    query = data.draw(st.sampled_from(["", "dry_run=true"]))
    sent_headers = {**JSON, "Authorization": f"Bearer {data.draw(st.sampled_from(tokens))}"}
    check(http, client, game_id, "POST", url, query, sent_headers, written)


TRICKY_HEADER_VALUES = [
    "",
    " ",
    "\t",
    "\u00b2",  # str.isdigit() says yes, int() says no
    "1\u00b9\u00b3",
    "0",
    "-1",
    "+1",
    "1.5",
    "99999999999",
    "9" * 40,
    "Bearer",
    "Bearer ",
    "Bearer \u00ff\u00fe",
    "Bearer " + "x" * 300,
    "bearer \u00b2",
    "Basic YTpi",
    "\u00ff" * 200,
    "a" * 129,
    "text/event-stream",
    "application/json;q=0, text/event-stream;q=abc",
    '"0"',
    'W/"0", *',
]
GAME_ROUTES = [
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/moves"),
    ("GET", "/games/{id}/events"),
    ("GET", "/games/{id}/record"),
    ("POST", "/games/{id}/actions?dry_run=true"),
    ("POST", "/games"),
]
HEADER_NAMES = [
    "Authorization",
    "Idempotency-Key",
    "Last-Event-ID",
    "Accept",
    "If-None-Match",
    "Content-Type",
]


def test_every_header_of_every_game_route_with_every_tricky_value(fuzz):
    """A sweep rather than a draw: each header the API reads, alone hostile, on each route of a
    game (live streams included), the rest of the request valid."""
    http, client, game_id, tokens, moves = fuzz
    bodies = {"POST": json.dumps({"move": moves[0]}).encode(), "GET": b""}
    create = json.dumps(VALID_CREATE[0]).encode()
    for method, template in GAME_ROUTES:
        path, _, query = template.replace("{id}", game_id).partition("?")
        body = create if path == "/games" else bodies[method]
        for accept in ["application/json", "text/event-stream"]:
            for name in HEADER_NAMES:
                for value in TRICKY_HEADER_VALUES:
                    sent = {"Authorization": f"Bearer {tokens[0]}", "Accept": accept, **JSON, name: value}
                    check(http, client, game_id, method, path, query, sent, body)
