"""Turn deadlines on the Flask app against a real Redis: set by the commit, shown, and acted on
once by ``Clocks.expire`` (what the workers' sweeper calls), observed in Redis directly."""

from __future__ import annotations

import time

import orjson

from service.http.services import services
from service.play.clocks import Clocks
from service.store.keys import DEADLINES, game_key, index_of

from .test_api import assert_problem, bearer, first_move

CLOCK = {"turn_seconds": 10, "on_timeout": "stand_in", "timeouts_to_resign": 2}


def whole_log(app, game_id):
    """The game's log as the service reads it: each entry with its events (Redis keeps a move's
    without them: service.store.logform)."""
    games = services(app).games
    return games.log(games.read(game_id))


def create(client, clock=CLOCK, seats=None):
    body = {"title": "property", "seats": seats or [{"kind": "human"}, {"kind": "human"}], "clock": clock}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def deadlines(redis_client, game_id):
    raw = redis_client.hget(game_key(game_id), "deadlines")
    return orjson.loads(raw) if raw else {}


def clocks(app):
    return Clocks(services(app).games, services(app).seats)


def test_a_clock_gives_each_human_seat_to_act_a_deadline_written_with_the_move(client, redis_client):
    before = time.time()
    game = create(client)
    seat = game["to_act"][0]
    due = deadlines(redis_client, game["id"])
    assert list(due) == [str(seat)] and before + 10 <= due[str(seat)] <= time.time() + 10
    assert redis_client.zscore(index_of(DEADLINES, game["id"]), game["id"]) == due[str(seat)]
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    shown = client.get(f"/games/{game['id']}").get_json()
    assert list(shown["deadlines"]) == [str(seat)] and shown["deadlines"][str(seat)].endswith("Z")
    assert shown["clock"] == CLOCK  # the settings, for a client to say what a timeout does
    defaults = create(client, clock={"turn_seconds": 60})
    assert client.get(f"/games/{defaults['id']}").get_json()["clock"] == {
        "turn_seconds": 60,
        "on_timeout": "stand_in",
        "timeouts_to_resign": 3,
    }
    listing = client.get(f"/games/{game['id']}/moves", headers=bearer(toks[seat])).get_json()
    assert listing["deadlines"] == shown["deadlines"]
    move, version = first_move(client, game["id"], toks[seat])
    client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": version}, headers=bearer(toks[seat])
    )
    after = deadlines(redis_client, game["id"])
    assert list(after) == [str(1 - seat)]
    entry = client.get(f"/games/{game['id']}/events").get_json()["events"][-1]
    assert list(entry["deadlines"]) == [str(1 - seat)]
    # Without a clock, nothing of it.
    plain = client.post("/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]})
    plain_shown = client.get(f"/games/{plain.get_json()['id']}").get_json()
    assert "deadlines" not in plain_shown and "clock" not in plain_shown
    assert redis_client.zscore(index_of(DEADLINES, plain.get_json()["id"]), plain.get_json()["id"]) is None


def test_a_passed_deadline_is_played_once_by_the_stand_in_then_the_seat_resigns(app, client, redis_client):
    game = create(client)
    game_id = game["id"]
    the_clocks = clocks(app)
    seat = game["to_act"][0]
    score = redis_client.zscore(index_of(DEADLINES, game_id), game_id)
    assert the_clocks.expire(game_id, b"", now=time.time()) == "not_due"
    assert the_clocks.expire(game_id, b"", now=score + 0.1) == "stood_in"
    # The next deadline is the other seat's, set by that move: N seconds from when it was made.
    assert redis_client.zscore(index_of(DEADLINES, game_id), game_id) > score
    entries = whole_log(app, game_id)
    assert len(entries) == 1 and entries[0]["seat"] == seat and "move" in entries[0]
    assert entries[0]["events"][0]["type"] == "turn_timed_out" and entries[0]["events"][0]["seat"] == seat
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["seats"][seat]["kind"] == "human"  # the seat stays human
    # The other seat times out too (once), then the first seat's second timeout in a row resigns it.
    for expected in ("stood_in",):
        score = redis_client.zscore(index_of(DEADLINES, game_id), game_id)
        assert the_clocks.expire(game_id, b"", now=score + 0.1) == expected
    while True:
        to_act = client.get(f"/games/{game_id}").get_json()["to_act"]
        score = redis_client.zscore(index_of(DEADLINES, game_id), game_id)
        outcome = the_clocks.expire(game_id, b"", now=score + 0.1)
        if to_act == [seat] or outcome == "resigned":
            break
    assert outcome == "resigned"
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["status"] == "finished" and shown["result"]["reason"] == "resignation"
    assert (
        redis_client.zscore(index_of(DEADLINES, game_id), game_id) is None
        and deadlines(redis_client, game_id) == {}
    )
    last = whole_log(app, game_id)[-1]
    assert [e["type"] for e in last["events"]] == ["turn_timed_out", "seat_resigned"] and "move" not in last


def test_on_timeout_resign_and_a_move_landing_first_wins(app, client, redis_client):
    game = create(client, clock={"turn_seconds": 10, "on_timeout": "resign"})
    game_id = game["id"]
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    seat = game["to_act"][0]
    score = redis_client.zscore(index_of(DEADLINES, game_id), game_id)
    stored = services(app).games.store.load(game_id)
    # The player's move lands first; the sweeper then acts on what it read, and loses.
    move, version = first_move(client, game_id, toks[seat])
    client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(toks[seat])
    )
    try:
        services(app).seats.resign_seat(stored, seat, [{"type": "turn_timed_out", "seat": seat}])
        raise AssertionError("a stale resignation landed")
    except Exception as error:  # GameMovedOn
        assert type(error).__name__ == "GameMovedOn"
    assert redis_client.hget(game_key(game_id), "version") == b"1"
    other = 1 - seat
    score = redis_client.zscore(index_of(DEADLINES, game_id), game_id)
    assert clocks(app).expire(game_id, b"", now=score + 0.1) == "resigned"
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["result"]["winners"] == [seat] and shown["result"]["resigned"][other] is True


def test_clock_refusals(client):
    for clock in (
        {"turn_seconds": 9},
        {"turn_seconds": 14 * 24 * 3600 + 1},
        {"turn_seconds": 60, "on_timeout": "x"},
    ):
        response = client.post(
            "/games",
            json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock},
        )
        assert_problem(response, 422, "invalid_request")


def test_sealed_bids_have_one_deadline_per_seat_kept_while_the_other_bids(app, client, redis_client):
    """Fresh Fish's auctions ask every seat at once: each has its own deadline; one seat's bid
    removes its own and leaves the other's as it was; the late seat's deadline alone passes."""
    response = client.post(
        "/games",
        json={
            "title": "fresh-fish",
            "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"turn_seconds": 60},
        },
    )
    game = response.get_json()
    game_id = game["id"]
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    for _ in range(300):  # play first moves until both seats are asked at once
        to_act = client.get(f"/games/{game_id}").get_json()["to_act"]
        if len(to_act) == 2:
            break
        move, version = first_move(client, game_id, toks[to_act[0]])
        client.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": version},
            headers=bearer(toks[to_act[0]]),
        )
    else:
        raise AssertionError("no sealed bid in 300 moves")
    both = deadlines(redis_client, game_id)
    assert sorted(both) == ["0", "1"]
    shown = client.get(f"/games/{game_id}").get_json()["deadlines"]
    assert sorted(shown) == ["0", "1"]
    move, version = first_move(client, game_id, toks[0])
    reply = client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(toks[0])
    )
    assert reply.status_code == 200, reply.get_json()
    left = deadlines(redis_client, game_id)
    assert left == {"1": both["1"]}, "the other seat's deadline moved when seat 0 bid"
    assert redis_client.zscore(index_of(DEADLINES, game_id), game_id) == both["1"]
    assert clocks(app).expire(game_id, b"", now=both["1"] + 0.1) == "stood_in"
    last = whole_log(app, game_id)[-1]
    assert last["seat"] == 1 and "move" in last
    assert (last["events"][0]["type"], last["events"][0]["seat"]) == ("turn_timed_out", 1)
