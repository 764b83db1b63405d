"""The HTTP API on the Flask app, against a real Redis: every route, every refusal."""

from __future__ import annotations

import time
import uuid

import pytest

from engines import registry
from service.http.services import services
from service.store.keys import game_key

HUMANS_2 = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def create(client, title="property", seats=None, **extra):
    body = {"title": title, "seats": seats or HUMANS_2, **extra}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def tokens(created):
    return {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def stored(app, game_id):
    game = services(app).games.store.load(game_id)
    return game.version, game.state


def assert_problem(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


def first_move(client, game_id, token):
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(token)).get_json()
    return listing["moves"][0]["move"], listing["version"]


# ---- catalog and creation -------------------------------------------------------------------
def test_catalog_lists_every_registered_title_with_its_schemas(client):
    body = client.get("/catalog").get_json()
    titles = {t["title"]: t for t in body["titles"]}
    assert set(titles) == set(registry.GAMES)
    prop = titles["property"]
    assert prop["seats"] == {"min": 2, "max": 6}
    assert "bankruptcies_to_end" in prop["options"]["properties"]
    assert prop["moves"]["oneOf"] and prop["view"]["properties"]["grid"]
    assert "random" in prop["bots"]
    # Levels as played in each title: New York's ISMCTS judges new nodes without rollouts,
    # New York's and Property's search three times the iterations.
    medium = {t: next(lv for lv in titles[t]["levels"] if lv["level"] == "medium") for t in titles}
    assert medium["new-york"]["rollout_depth"] == 0 and medium["property"]["rollout_depth"] == -12
    assert medium["new-york"]["iterations"] == 1200 and medium["property"]["iterations"] == 1200
    assert medium["wettstreit"]["iterations"] == 400


def test_create_gives_tokens_to_human_seats_only(client):
    created = create(
        client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}], seed=42
    )
    assert created["version"] == 0 and created["status"] == "active"
    assert "token" in created["seats"][0] and "token" not in created["seats"][1]
    assert created["seats"][1]["bot"] == "random"
    assert "seed" not in created


def test_create_answers_201_with_location(client):
    response = client.post("/games", json={"title": "property", "seats": HUMANS_2})
    assert response.status_code == 201
    assert response.headers["Location"] == f"/games/{response.get_json()['id']}"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"title": "chess", "seats": HUMANS_2}, 422, "unknown_title"),
        ({"title": "property", "seats": HUMANS_2[:1]}, 422, "invalid_seat_count"),
        ({"title": "property", "seats": HUMANS_2 * 4}, 422, "invalid_seat_count"),
        ({"title": "property", "seats": HUMANS_2, "options": {"nope": 1}}, 422, "unknown_option"),
        (
            {"title": "property", "seats": HUMANS_2, "options": {"property_value": 1}},
            422,
            "invalid_option_value",
        ),
        (
            {"title": "property", "seats": HUMANS_2, "options": {"bankruptcies_to_end": 2}},
            422,
            "option_needs_more_seats",
        ),
        ({"title": "property", "seats": HUMANS_2, "seed": "42"}, 422, "invalid_request"),
        ({"title": "property", "seats": HUMANS_2, "seed": 4.5}, 422, "invalid_request"),
        ({"title": "property", "seats": HUMANS_2, "seed": -1}, 422, "invalid_request"),
        ({"title": "property", "seats": HUMANS_2, "colour": "red"}, 422, "invalid_request"),
        ({"title": "property", "seats": [{"kind": "alien"}, {"kind": "human"}]}, 422, "invalid_request"),
        (
            {"title": "property", "seats": [{"kind": "bot", "bot": "genius"}, {"kind": "human"}]},
            422,
            "invalid_request",
        ),
        ({"seats": HUMANS_2}, 422, "invalid_request"),
        ({"title": "property", "seats": []}, 422, "invalid_request"),
        ([1, 2], 422, "invalid_request"),
    ],
)
def test_create_refuses_bad_input_with_a_code(client, body, status, code):
    body = assert_problem(client.post("/games", json=body), status, code)
    if code == "invalid_request":
        assert body["errors"]


def test_malformed_json_is_a_400_problem(client):
    response = client.post("/games", data="{not json", content_type="application/json")
    assert_problem(response, 400, "malformed_json")


def test_oversized_body_is_a_413_problem(client):
    huge = {"title": "property", "seats": HUMANS_2, "options": {"x": "a" * 20_000}}
    assert_problem(client.post("/games", json=huge), 413, "body_too_large")


def test_unknown_route_and_method_are_problems(client):
    assert_problem(client.get("/nowhere"), 404, "not_found")
    assert_problem(client.delete("/catalog"), 405, "method_not_allowed")


# ---- reading ---------------------------------------------------------------------------------
def test_show_gives_each_seat_its_own_hand_and_spectators_none(client):
    created = create(client, seed=7)
    game_id, toks = created["id"], tokens(created)
    for seat, token in toks.items():
        body = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
        assert body["you"] == seat
        for player in body["view"]["players"]:
            assert ("hand" in player) == (player["seat"] == seat)
    spectator = client.get(f"/games/{game_id}").get_json()
    assert spectator["you"] is None
    assert all("hand" not in p for p in spectator["view"]["players"])
    assert "seed" not in str(spectator) and "token" not in str(spectator)


@pytest.mark.parametrize("path", ["", "/moves", "/events"])
def test_tokens_are_checked(client, path):
    game_id = create(client)["id"]
    assert_problem(client.get(f"/games/{game_id}{path}", headers=bearer("x" * 43)), 401, "invalid_token")
    assert_problem(
        client.get(f"/games/{game_id}{path}", headers={"Authorization": "Basic abc"}),
        401,
        "malformed_authorization",
    )


@pytest.mark.parametrize("path", ["", "/moves", "/events", "/record"])
def test_unknown_game_is_404(client, path):
    assert_problem(client.get(f"/games/nosuchgame{path}"), 404, "game_not_found")


def test_moves_lists_labelled_moves_for_the_seat_to_act_only(client):
    created = create(client, seed=3)
    game_id, toks = created["id"], tokens(created)
    acting = created["to_act"][0]
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(toks[acting])).get_json()
    assert listing["seat"] == acting and listing["moves"]
    assert all(m["label"] and m["move"]["type"] == "play" for m in listing["moves"])
    idle = 1 - acting
    assert client.get(f"/games/{game_id}/moves", headers=bearer(toks[idle])).get_json()["moves"] == []
    assert client.get(f"/games/{game_id}/moves").get_json() == {
        "title": "property",
        "version": 0,
        "seat": None,
        "to_act": [acting],
        "moves": [],
    }


# ---- acting ------------------------------------------------------------------------------------
def test_a_listed_move_applies_and_bumps_the_version(client):
    created = create(client, seed=3)
    game_id, toks = created["id"], tokens(created)
    seat = created["to_act"][0]
    move, version = first_move(client, game_id, toks[seat])
    response = client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(toks[seat])
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] == 1 and body["seat"] == seat and body["status"] == "active"
    assert body["events"][0]["type"] == "cards_played"
    assert client.get(f"/games/{game_id}").get_json()["version"] == 1


def test_refused_moves_leave_the_stored_game_unchanged(app, client):
    created = create(client, seed=3)
    game_id, toks = created["id"], tokens(created)
    seat = created["to_act"][0]
    other = 1 - seat
    move, _ = first_move(client, game_id, toks[seat])
    before = stored(app, game_id)
    cases = [
        ({"move": move, "version": 5}, toks[seat], 409, "stale_version"),
        ({"move": {**move, "column": 9}}, toks[seat], 422, "no_such_square"),
        ({"move": {"type": "fly"}}, toks[seat], 422, "unknown_move_type"),
        ({"move": {}}, toks[seat], 422, "malformed_move"),
        ({"move": move}, toks[other], 403, "not_your_turn"),
        ({"move": move}, None, 401, "missing_token"),
        ({"move": move}, "y" * 43, 401, "invalid_token"),
        ({"move": move, "version": "0"}, toks[seat], 422, "invalid_request"),
        ({"move": move, "version": True}, toks[seat], 422, "invalid_request"),
        ({"move": "play"}, toks[seat], 422, "invalid_request"),
        ({"version": 0}, toks[seat], 422, "invalid_request"),
    ]
    for body, token, status, code in cases:
        headers = bearer(token) if token else {}
        assert_problem(client.post(f"/games/{game_id}/actions", json=body, headers=headers), status, code)
        assert stored(app, game_id) == before, code
    response = client.post(
        f"/games/{game_id}/actions", data="{oops", content_type="application/json", headers=bearer(toks[seat])
    )
    assert_problem(response, 400, "malformed_json")
    assert stored(app, game_id) == before


def test_a_rules_equivalent_move_is_answered_as_applied(client):
    """P-WILD: the 10 of a suit played beside its 9 is the listed play with the 9; the reply
    names the move as applied, and so does the record of moves."""
    for seed in range(60):
        created = create(client, seed=seed)
        game_id, toks = created["id"], tokens(created)
        seat = created["to_act"][0]
        view = client.get(f"/games/{game_id}", headers=bearer(toks[seat])).get_json()["view"]
        hand = view["players"][seat]["hand"]
        suits = [suit for suit in "HDSC" if f"9{suit}" in hand and f"10{suit}" in hand]
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(toks[seat])).get_json()["moves"]
        nine = next(
            (
                m["move"]
                for m in listing
                for suit in suits
                if f"9{suit}" in (m["move"].get("red"), m["move"].get("black"))
            ),
            None,
        )
        if nine is not None:
            break
    else:  # pragma: no cover - the seeds above hold such a hand
        pytest.fail("no deal with a 9 and a 10 of one suit")
    suit = next(s for s in suits if f"9{s}" in (nine["red"], nine["black"]))
    sent = {k: (f"10{suit}" if v == f"9{suit}" else v) for k, v in nine.items()}
    assert sent != nine and all(m["move"] != sent for m in listing), "the listing has no duplicate"
    response = client.post(f"/games/{game_id}/actions", json={"move": sent}, headers=bearer(toks[seat]))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["move"] == nine


def test_new_york_with_two_seats_plays_two_colours_by_itself(client):
    created = create(client, title="new-york")
    body = client.get(f"/games/{created['id']}").get_json()
    assert body["view"]["options"]["two_colours"] is True
    catalog = {t["title"]: t for t in client.get("/catalog").get_json()["titles"]}
    assert catalog["new-york"]["options"]["properties"]["two_colours"]["x-seat-defaults"] == {"2": True}
    response = client.post(
        "/games", json={"title": "new-york", "seats": HUMANS_2, "options": {"two_colours": False}}
    )
    assert_problem(response, 422, "two_players_need_two_colours")


def test_dry_run_checks_without_changing_anything(app, client):
    created = create(client, seed=3)
    game_id, toks = created["id"], tokens(created)
    seat = created["to_act"][0]
    move, _ = first_move(client, game_id, toks[seat])
    before = stored(app, game_id)
    response = client.post(
        f"/games/{game_id}/actions?dry_run=true", json={"move": move}, headers=bearer(toks[seat])
    )
    assert response.get_json() == {
        "title": "property",
        "valid": True,
        "version": 0,
        "seat": seat,
        "move": move,
    }
    bad = client.post(
        f"/games/{game_id}/actions?dry_run=true",
        json={"move": {**move, "row": 0}},
        headers=bearer(toks[seat]),
    )
    assert_problem(bad, 422, "no_such_square")
    assert stored(app, game_id) == before


def test_idempotency_key_answers_a_retry_once(client):
    created = create(client, seed=3)
    game_id, toks = created["id"], tokens(created)
    seat = created["to_act"][0]
    move, _ = first_move(client, game_id, toks[seat])
    headers = {**bearer(toks[seat]), "Idempotency-Key": "retry-1"}
    first = client.post(f"/games/{game_id}/actions", json={"move": move}, headers=headers).get_json()
    second = client.post(f"/games/{game_id}/actions", json={"move": move}, headers=headers)
    assert second.status_code == 200
    assert second.get_json() == {**first, "replayed": True}
    assert client.get(f"/games/{game_id}").get_json()["version"] == 1
    other = client.post(f"/games/{game_id}/actions", json={"move": move, "version": 1}, headers=headers)
    assert_problem(other, 422, "idempotency_key_reused")


def _play_to_the_end(client, game_id, toks, limit=5000):
    """The first listed move of the first seat to act, until the game is over; the game as read
    then. Two requests a move: the move's reply names the seats to act next."""
    game = client.get(f"/games/{game_id}").get_json()
    for _ in range(limit):
        if game["status"] == "finished":
            return client.get(f"/games/{game_id}").get_json()
        seat = game["to_act"][0]
        move, version = first_move(client, game_id, toks[seat])
        response = client.post(
            f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(toks[seat])
        )
        assert response.status_code == 200, response.get_json()
        game = response.get_json()
    raise AssertionError("the game did not end")


def test_a_whole_game_then_its_record_replays_exactly(app, client):
    created = create(client, seed=11)
    game_id, toks = created["id"], tokens(created)
    assert_problem(client.get(f"/games/{game_id}/record"), 409, "game_not_over")
    final = _play_to_the_end(client, game_id, toks)
    assert final["result"]["winners"]
    seat = final["to_act"][0] if final["to_act"] else 0
    late = client.post(
        f"/games/{game_id}/actions", json={"move": {"type": "pass"}}, headers=bearer(toks[seat])
    )
    assert_problem(late, 409, "game_over")
    record = client.get(f"/games/{game_id}/record").get_json()
    assert record["seed"] == 11 and record["result"] == final["result"]
    game = registry.get(record["title"])
    state = game.setup(len(record["seats"]), record["options"], record["seed"])
    for entry in record["moves"]:
        state.apply(entry["seat"], entry["move"])
    assert state.to_dict() == stored(app, game_id)[1]


def test_events_are_redacted_for_each_viewer(client):
    created = create(client, seed=5)
    game_id, toks = created["id"], tokens(created)
    seat = created["to_act"][0]
    move, _ = first_move(client, game_id, toks[seat])
    client.post(f"/games/{game_id}/actions", json={"move": move}, headers=bearer(toks[seat]))

    def drawn(token):
        log = client.get(f"/games/{game_id}/events", headers=bearer(token) if token else {}).get_json()
        entry = log["events"][0]
        return entry, [e for e in entry["events"] if e["type"] == "cards_drawn"][0]

    own_entry, own = drawn(toks[seat])
    assert own["cards"] and own_entry["move"] == move
    other_entry, other = drawn(toks[1 - seat])
    assert "cards" not in other and "secret" not in other
    assert "move" not in other_entry
    spectator_entry, spectator = drawn(None)
    assert "cards" not in spectator and "move" not in spectator_entry
    later = client.get(f"/games/{game_id}/events?since=1").get_json()
    assert later["events"] == [] and later["version"] == 1
    assert_problem(client.get(f"/games/{game_id}/events?since=-1"), 422, "invalid_request")


def test_openapi_document_is_served(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1")
    assert "/games/{game_id}/actions" in spec["paths"]


def test_health_and_readiness(app, client, redis_client, monkeypatch):
    """Issue 45: ready with a bot worker alive; degraded (still 200) while none is."""
    from dataclasses import replace

    from service.http.services import EXTENSION, parts
    from service.store.workers import WorkerPresence

    presence = WorkerPresence(redis_client, window_seconds=2, key=f"test:workers:{uuid.uuid4().hex}")
    # The module's app as it was after the test (monkeypatch): it is shared (module_app).
    monkeypatch.setitem(
        app.extensions, EXTENSION, replace(parts(app), services=replace(services(app), bot_workers=presence))
    )
    assert client.get("/healthz").get_json() == {"status": "ok"}
    reply = client.get("/readyz")
    assert reply.status_code == 200 and reply.get_json() == {"status": "degraded", "bot_workers": 0}
    last_beat = time.monotonic()
    presence.beat("host:1")
    presence.beat("host:2")
    assert client.get("/readyz").get_json() == {"status": "ready", "bot_workers": 2}
    assert presence.is_alive("host:1") and not presence.is_alive("host:3")
    presence.leave("host:2")
    assert client.get("/readyz").get_json() == {"status": "ready", "bot_workers": 1}
    # Past the window (2 s, counted in Redis's whole seconds) a worker that stopped beating (kill -9)
    # no longer counts: polled, not slept past; not before a second after its beat at the earliest.
    while client.get("/readyz").get_json() != {"status": "degraded", "bot_workers": 0}:
        assert time.monotonic() - last_beat < 10, "host:1 still counts long past its window"
        time.sleep(0.05)
    assert time.monotonic() - last_beat >= 1.0, "host:1 stopped counting before its window passed"
    assert not presence.is_alive("host:1")


def test_games_of_bots_only_are_capped_per_address(app, client):
    """Issue 21: one address may keep a bounded number of games of bots only running."""
    from dataclasses import replace

    from skyline.web import api_app

    settings = replace(services(app).settings, bot_games_per_address=2)
    capped = api_app(settings, redis_client=services(app).games.store.redis, enqueue_bots=False)
    http = capped.test_client()
    bots = {"title": "property", "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    address = {"REMOTE_ADDR": "192.0.2.77"}
    first = [http.post("/games", json=bots, environ_base=address) for _ in range(2)]
    assert [r.status_code for r in first] == [201, 201]
    refused = http.post("/games", json=bots, environ_base=address)
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    assert refused.headers["Retry-After"]
    # Another address, and a game with a human, are not counted.
    assert http.post("/games", json=bots, environ_base={"REMOTE_ADDR": "192.0.2.78"}).status_code == 201
    human = {"title": "property", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    assert http.post("/games", json=human, environ_base=address).status_code == 201
    # A finished (here: expired) game frees its place.
    store = services(app).games.store
    store.redis.delete(game_key(first[0].get_json()["id"]))
    assert http.post("/games", json=bots, environ_base=address).status_code == 201
