"""Hostile input (issue 21): every body, query and header value is read with bounds, and
anything out of them is a 400/422 problem+json with a stable code — never a 500, never a change.

The first four tests are the four cases of the issue, each of which was a 500.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import redis

from service.http import jsonbody
from service.http.problems import problem_body

from .test_api import assert_problem, bearer, create, stored, tokens

JSON = {"Content-Type": "application/json"}
# The issue's body was 20,000 levels (40 KB); the tests' body limit is 16 KiB. Past 1,024 levels
# orjson itself refuses; under that, the service's own walk does (500 levels).
DEEP = [b"[" * 5000 + b"]" * 5000, b'{"a":' * 500 + b"1" + b"}" * 500]


# A database of this module's own on the session's server: these tests check that a refusal
# writes no key at all, and the session's live worker keeps playing other tests' bot games in
# db 0 (a bot's first move wrote a log key between a CI test's two scans).
HOSTILE_DB = 10


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


@pytest.fixture
def redis_client(redis_server):
    # Not from_url(url, db=...): the URL's own "?db=0" would win.
    client = redis.Redis(unix_socket_path=redis_server.socket, db=HOSTILE_DB)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def settings(settings, redis_server):
    return replace(settings, redis_url=f"unix://{redis_server.socket}?db={HOSTILE_DB}")


@pytest.fixture(scope="module")
def module_settings(module_settings, redis_server):
    # A stream a test closes at once (its Last-Event-ID ahead of the game: it waits for news) ends
    # at its next heartbeat: 1 s, not the default 15 s a test.
    return replace(
        module_settings, redis_url=f"unix://{redis_server.socket}?db={HOSTILE_DB}", sse_heartbeat_seconds=1
    )


@pytest.fixture(scope="module")
def module_redis_client(redis_server):
    client = redis.Redis(unix_socket_path=redis_server.socket, db=HOSTILE_DB)
    yield client
    client.close()


def post_raw(client, path, data, **headers):
    return client.post(path, data=data, headers={**JSON, **headers})


def keys(redis_client):
    return sorted(redis_client.scan_iter("sk:*"))


# ---- the four cases of the issue -------------------------------------------------------------
@pytest.mark.parametrize("deep", DEEP, ids=["5000-arrays", "500-objects"])
def test_deeply_nested_json_is_refused_as_too_deep_on_both_routes(app, client, redis_client, deep):
    created = create(client)
    before_keys, before = keys(redis_client), stored(app, created["id"])
    assert_problem(post_raw(client, "/games", deep), 400, "json_too_deep")
    token = tokens(created)[0]
    response = post_raw(client, f"/games/{created['id']}/actions", deep, **bearer(token))
    assert_problem(response, 400, "json_too_deep")
    assert keys(redis_client) == before_keys and stored(app, created["id"]) == before


def test_lone_surrogate_in_a_seat_name_is_invalid_unicode(client, redis_client):
    before = keys(redis_client)
    body = rb'{"title":"property","seats":[{"kind":"human","name":"a\ud800b"},{"kind":"human"}]}'
    assert_problem(post_raw(client, "/games", body), 400, "invalid_unicode")
    assert keys(redis_client) == before


@pytest.mark.parametrize("route", ["/games", "/games/{id}/actions"])
def test_lone_surrogate_naming_an_unknown_field_is_invalid_unicode(app, client, route):
    created = create(client)
    before = stored(app, created["id"])
    body = rb'{"move":{"type":"pass"},"\ud800":1}'
    if route == "/games":
        body = rb'{"title":"property","seats":[{"kind":"human"},{"kind":"human"}],"\ud800":1}'
    path = route.replace("{id}", created["id"])
    response = post_raw(client, path, body, **bearer(tokens(created)[0]))
    assert_problem(response, 400, "invalid_unicode")
    assert stored(app, created["id"]) == before


def test_events_since_past_a_signed_64_bit_integer_is_a_422(client):
    created = create(client)
    response = client.get(f"/games/{created['id']}/events?since=9223372036854775808")
    body = assert_problem(response, 422, "invalid_request")
    assert "since" in body["errors"]["query"]
    # The bound itself is served (Redis takes a signed 64-bit index): an empty log, not a 500.
    largest = client.get(f"/games/{created['id']}/events?since=9223372036854775807")
    assert largest.status_code == 200 and largest.get_json()["events"] == []


# ---- the bounds around them ------------------------------------------------------------------
def test_nesting_is_allowed_up_to_the_limit_and_refused_past_it(client):
    def options(depth):
        # Each "[" is one level; the body itself and "options" are two more.
        inner = b"[" * (depth - 2) + b"]" * (depth - 2)
        return b'{"title":"property","seats":[{"kind":"human"},{"kind":"human"}],"options":{"x":%s}}' % inner

    at_limit = post_raw(client, "/games", options(jsonbody.MAX_DEPTH))
    assert at_limit.status_code == 422 and at_limit.get_json()["code"] != "json_too_deep"
    assert_problem(post_raw(client, "/games", options(jsonbody.MAX_DEPTH + 1)), 400, "json_too_deep")


def test_too_deep_counts_levels_of_objects_and_arrays_alike():
    value: object = 1
    for level in range(10):
        value = {"k": value} if level % 2 else [value]
    assert not jsonbody.too_deep(value, 10) and jsonbody.too_deep(value, 9)
    assert not jsonbody.too_deep([1, "x"], 1) and jsonbody.too_deep([1, "x", {}], 1)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"move":{"type":"pass"},"version":NaN}', "malformed_json"),
        (b'{"move":{"type":"pass"},"version":Infinity}', "malformed_json"),
        (b'{"move":{"type":"pass"},"version":1e400}', "number_out_of_range"),
        (b'{"move":{"type":"pass\xff"}}', "invalid_unicode"),
        (b'{"move":{"type":"\\udfff\\ud800"}}', "invalid_unicode"),
        (b"\xef\xbb\xbf{}", "malformed_json"),
        (b'{"move":{"type":"\xed\xa0\x80"}}', "invalid_unicode"),
        (b'{"move":', "malformed_json"),
    ],
)
def test_bodies_no_json_reader_should_accept_are_400s(app, client, body, code):
    created = create(client)
    before = stored(app, created["id"])
    path = f"/games/{created['id']}/actions"
    assert_problem(post_raw(client, path, body, **bearer(tokens(created)[0])), 400, code)
    assert stored(app, created["id"]) == before


@pytest.mark.parametrize(
    "version", ["9223372036854775808", "-1", "1.5", "1e30", "18446744073709551616", "true", '"3"']
)
def test_versions_outside_a_signed_64_bit_integer_or_not_integers_are_422s(app, client, version):
    created = create(client)
    before = stored(app, created["id"])
    body = b'{"move":{"type":"pass"},"version":%s}' % version.encode()
    response = post_raw(client, f"/games/{created['id']}/actions", body, **bearer(tokens(created)[0]))
    assert_problem(response, 422, "invalid_request")
    assert stored(app, created["id"]) == before


@pytest.mark.parametrize("seed", ["9223372036854775808", "-1", "2.5", "1e19"])
def test_seeds_outside_their_range_are_422s(client, redis_client, seed):
    before = keys(redis_client)
    body = b'{"title":"property","seats":[{"kind":"human"},{"kind":"human"}],"seed":%s}' % seed.encode()
    assert_problem(post_raw(client, "/games", body), 422, "invalid_request")
    assert keys(redis_client) == before


@pytest.mark.parametrize("since", ["-1", "1.5", "1e3", "x", "%ED%A0%80", "9" * 40])
def test_events_since_must_be_a_small_enough_whole_number(client, since):
    created = create(client)
    assert_problem(client.get(f"/games/{created['id']}/events?since={since}"), 422, "invalid_request")


@pytest.mark.parametrize("value", ["\u00b2", "\u00b9\u00b3", "1" * 40, "-3", "", " 7 "])
def test_odd_last_event_ids_are_ignored_not_500s(client, value):
    created = create(client)
    response = client.get(
        f"/games/{created['id']}/events",
        headers={"Accept": "text/event-stream", "Last-Event-ID": value},
        buffered=False,
    )
    try:
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
    finally:
        response.close()


def test_an_unencodable_string_in_an_error_still_leaves_as_json():
    body = problem_body(422, "invalid_request", "x", errors={"json": {"\ud800": ["Unknown field."]}})
    assert b'"code":"invalid_request"' in body and b"\\\\ud800" in body


CONTROL_NAMES = ["a\x00b", "\x1b[2JBo", "tab\there", "new\nline", "nel\x85", "del\x7f"]


@pytest.mark.parametrize("name", CONTROL_NAMES, ids=[repr(n) for n in CONTROL_NAMES])
def test_a_name_with_a_control_character_is_refused_at_creation_and_join(client, redis_client, name):
    before = keys(redis_client)
    body = {"title": "property", "seats": [{"kind": "human", "name": name}, {"kind": "human"}]}
    refused = assert_problem(client.post("/games", json=body), 422, "invalid_request")
    assert "control characters" in refused["errors"]["json"]["seats"]["0"]["name"][0]
    assert keys(redis_client) == before
    waiting = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]}
    )
    game_id = waiting.get_json()["id"]
    refused = assert_problem(
        client.post(f"/games/{game_id}/join", json={"name": name}), 422, "invalid_request"
    )
    assert "control characters" in refused["errors"]["json"]["name"][0]
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["version"] == 0 and shown["seats"][1]["kind"] == "open"


def test_names_in_any_script_with_emoji_and_joiners_are_welcome(client):
    for name in ("Zoë", "李雷", "🎲‍🔥", "‮Ada", "Ada Lovelace"):
        body = {"title": "property", "seats": [{"kind": "human", "name": name}, {"kind": "human"}]}
        created = client.post("/games", json=body)
        assert created.status_code == 201, created.get_json()
        assert created.get_json()["seats"][0]["name"] == name
