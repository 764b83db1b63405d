"""What the contract promises about requests, checked on the app: bodies that are not JSON get
415, an integer-valued float is an integer, the create reply names its human seats, and the
front door points at the docs."""

from __future__ import annotations

import json

import pytest

from tests.service.test_api import assert_problem, bearer, create, first_move

BOT = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def test_a_body_not_declared_json_is_refused_with_415_and_changes_nothing(client):
    game = create(client, seed=3)
    token = game["human_seats"][0]["token"]
    move, version = first_move(client, game["id"], game["human_seats"][game["to_act"][0]]["token"])
    body = json.dumps({"move": move, "version": version})
    for headers in (
        {},
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
    ):
        response = client.post(
            f"/games/{game['id']}/actions", data=body, headers={**bearer(token), **headers}
        )
        assert_problem(response, 415, "unsupported_media_type")
        created = client.post(
            "/games", data=json.dumps({"title": "property", "seats": [HUMAN, HUMAN]}), headers=headers
        )
        assert_problem(created, 415, "unsupported_media_type")
    assert client.get(f"/games/{game['id']}").get_json()["version"] == 0


def test_a_float_with_no_fraction_is_the_integer_it_equals(client):
    game = create(client, seed=3)
    acting = game["to_act"][0]
    token = next(s["token"] for s in game["human_seats"] if s["seat"] == acting)
    move, _ = first_move(client, game["id"], token)
    reply = client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": 0.0}, headers=bearer(token)
    )
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["version"] == 1
    refused = client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": 0.5}, headers=bearer(token)
    )
    assert_problem(refused, 422, "invalid_request")
    assert (
        client.post("/games", json={"title": "property", "seats": [HUMAN, BOT], "seed": 7.0}).status_code
        == 201
    )


def test_the_create_reply_lists_the_human_seats_whatever_their_numbers(client):
    game = create(client, seats=[BOT, HUMAN, BOT])
    assert [s["seat"] for s in game["human_seats"]] == [1]
    assert game["human_seats"][0]["token"] == game["seats"][1]["token"]
    assert create(client, seats=[BOT, BOT])["human_seats"] == []


def test_a_seat_count_bound_of_an_option_is_stated_in_the_error_and_the_catalog(client):
    response = client.post(
        "/games", json={"title": "property", "seats": [BOT, BOT], "options": {"bankruptcies_to_end": 3}}
    )
    body = assert_problem(response, 422, "option_needs_more_seats")
    assert "at most 1" in body["detail"]
    catalog = client.get("/catalog").get_json()
    option = next(t for t in catalog["titles"] if t["title"] == "property")["options"]["properties"]
    assert "one less than the number of seats" in option["bankruptcies_to_end"]["description"]


def test_the_front_door_points_at_the_docs_the_contract_the_catalog_and_the_curl_session(client):
    index = client.get("/").get_json()
    assert index["links"] == {
        "docs": "/docs",
        "openapi": "/openapi.json",
        "catalog": "/catalog",
        "quickstart": "README.md#a-session-with-curl",
    }
    assert index["quickstart"][0].startswith("curl ") and '"seed": 1' in index["quickstart"][1]
    assert client.get("/docs").headers["Location"].endswith("/docs/")  # the page's own address
    docs = client.get("/docs/")
    assert docs.status_code == 200 and b"swagger-ui-bundle.js" in docs.data
    with client.get("/docs/swagger-ui-bundle.js") as asset:  # a file response: close it
        assert asset.status_code == 200
