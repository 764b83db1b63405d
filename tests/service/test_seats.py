"""Open seats, joining, leaving, aborting and the lobby, on the Flask app against a real Redis."""

from __future__ import annotations

import time
from dataclasses import replace

import orjson
import pytest

from engines import registry
from service.http.services import services
from service.store.keys import ARCHIVE_DUE, IDLE, LOBBY, game_key, index_keys, index_of, log_key
from skyline.web import api_app

from .test_api import _play_to_the_end, assert_problem, bearer, first_move


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def create_open(client, seats=None, title="property", **extra):
    body = {
        "title": title,
        "seats": seats or [{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}],
        **extra,
    }
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def join(client, game_id, **body):
    return client.post(f"/games/{game_id}/join", json=body)


def test_a_game_with_an_open_seat_waits_with_nothing_to_act(client):
    created = create_open(client)
    assert created["status"] == "waiting" and created["to_act"] == [] and created["version"] == 0
    assert created["seats"][1] == {"seat": 1, "kind": "open", "name": "Bo"}
    token = created["human_seats"][0]["token"]
    listing = client.get(f"/games/{created['id']}/moves", headers=bearer(token)).get_json()
    assert listing["to_act"] == [] and listing["moves"] == []
    shown = client.get(f"/games/{created['id']}", headers=bearer(token)).get_json()
    assert shown["status"] == "waiting" and shown["to_act"] == []
    move = {"type": "play", "red": "1H", "black": "2C", "column": 1, "row": 2}
    refused = client.post(f"/games/{created['id']}/actions", json={"move": move}, headers=bearer(token))
    assert_problem(refused, 409, "game_not_active")


def test_the_last_join_starts_the_game_with_its_events(client):
    created = create_open(client, seats=[{"kind": "open"}, {"kind": "open", "name": "Bo"}])
    first = join(client, created["id"], seat=1)
    assert first.status_code == 201
    assert first.get_json()["status"] == "waiting" and first.get_json()["seat"] == 1
    second = join(client, created["id"], name="Cy")
    body = second.get_json()
    assert (
        second.status_code == 201
        and body["seat"] == 0
        and body["status"] == "active"
        and body["version"] == 2
    )
    shown = client.get(f"/games/{created['id']}", headers=bearer(body["token"])).get_json()
    assert shown["status"] == "active" and shown["you"] == 0 and shown["to_act"]
    assert [s.get("name") for s in shown["seats"]] == ["Cy", "Bo"]
    log = client.get(f"/games/{created['id']}/events").get_json()["events"]
    assert log == [
        {"version": 1, "seat": 1, "events": [{"type": "seat_joined", "seat": 1, "name": "Bo"}]},
        {
            "version": 2,
            "seat": 0,
            "events": [{"type": "seat_joined", "seat": 0, "name": "Cy"}, {"type": "game_started"}],
        },
    ]
    # The moves go on from there; a seat already taken, or any join after the start, is refused.
    toks = {0: body["token"], 1: first.get_json()["token"]}
    seat = shown["to_act"][0]
    move, version = first_move(client, created["id"], toks[seat])
    assert version == 2
    moved = client.post(
        f"/games/{created['id']}/actions", json={"move": move, "version": 2}, headers=bearer(toks[seat])
    )
    assert moved.status_code == 200
    assert_problem(join(client, created["id"], seat=1), 409, "game_not_waiting")


def test_join_refusals_change_nothing(client, redis_client):
    created = create_open(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    assert_problem(join(client, created["id"], seat=0), 409, "seat_taken")
    assert_problem(join(client, created["id"], seat=3), 422, "no_such_seat")
    assert_problem(join(client, created["id"], seat=-1), 422, "invalid_request")
    assert_problem(join(client, "nope"), 404, "game_not_found")
    assert redis_client.hget(game_key(created["id"]), "version") == b"0"
    # No body at all is the first open seat.
    response = client.post(f"/games/{created['id']}/join")
    assert response.status_code == 201 and response.get_json()["seat"] == 1


def test_leave_opens_the_seat_again_and_revokes_the_token(client):
    created = create_open(
        client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}, {"kind": "open"}]
    )
    joined = join(client, created["id"], seat=1, name="Bob").get_json()
    left = client.post(f"/games/{created['id']}/leave", headers=bearer(joined["token"]))
    assert left.status_code == 200 and left.get_json() == {
        "id": created["id"],
        "seat": 1,
        "status": "waiting",
        "version": 2,
    }
    shown = client.get(f"/games/{created['id']}").get_json()
    assert shown["seats"][1] == {"seat": 1, "kind": "open", "name": "Bo"}  # meant for Bo again
    assert_problem(
        client.get(f"/games/{created['id']}", headers=bearer(joined["token"])), 401, "invalid_token"
    )
    assert_problem(
        client.post(f"/games/{created['id']}/leave", headers=bearer(joined["token"])), 401, "invalid_token"
    )
    assert_problem(client.post(f"/games/{created['id']}/leave"), 401, "missing_token")
    events = client.get(f"/games/{created['id']}/events?since=1").get_json()["events"]
    assert events == [{"version": 2, "seat": 1, "events": [{"type": "seat_left", "seat": 1}]}]
    # The creator's own seat may be left too; once started, leaving is refused: resign instead.
    join(client, created["id"])
    last = join(client, created["id"]).get_json()
    assert last["status"] == "active"
    assert_problem(
        client.post(f"/games/{created['id']}/leave", headers=bearer(last["token"])), 409, "game_not_waiting"
    )


def test_abort_while_waiting_and_before_every_human_moved_then_refused(client, redis_client):
    waiting = create_open(client, listed=True)
    token = waiting["human_seats"][0]["token"]
    assert any(g["id"] == waiting["id"] for g in client.get("/lobby").get_json()["games"])
    aborted = client.post(f"/games/{waiting['id']}/abort", headers=bearer(token))
    assert aborted.status_code == 200 and aborted.get_json()["status"] == "aborted"
    assert redis_client.zscore(index_of(LOBBY, waiting["id"]), waiting["id"]) is None
    # Due to be archived, marked by the seat script that aborted it; no longer expiring before then.
    assert redis_client.zscore(index_of(ARCHIVE_DUE, waiting["id"]), waiting["id"]) is not None
    assert redis_client.ttl(game_key(waiting["id"])) == -1
    assert redis_client.zscore(index_of(IDLE, waiting["id"]), waiting["id"]) is None
    shown = client.get(f"/games/{waiting['id']}").get_json()
    assert shown["status"] == "aborted" and shown["result"] is None and shown["to_act"] == []
    assert_problem(join(client, waiting["id"]), 409, "game_not_waiting")
    assert_problem(client.post(f"/games/{waiting['id']}/abort", headers=bearer(token)), 409, "abort_refused")
    assert_problem(client.get(f"/games/{waiting['id']}/record"), 409, "game_not_over")

    # Active: allowed while a human seat has not moved yet.
    game = create_open(client, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = {s["seat"]: s["token"] for s in game["human_seats"]}
    seat = game["to_act"][0]
    move, version = first_move(client, game["id"], tokens[seat])
    client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": version}, headers=bearer(tokens[seat])
    )
    ok = client.post(f"/games/{game['id']}/abort", headers=bearer(tokens[seat]))
    assert ok.status_code == 200 and ok.get_json() == {
        "id": game["id"],
        "status": "aborted",
        "version": version + 2,
    }
    assert_problem(
        client.post(f"/games/{game['id']}/actions", json={"move": move}, headers=bearer(tokens[seat])),
        409,
        "game_not_active",
    )


def test_abort_is_refused_once_every_human_has_moved(client, redis_client):
    game = create_open(client, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = {s["seat"]: s["token"] for s in game["human_seats"]}
    moved = set()
    while moved != {0, 1}:
        seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
        move, version = first_move(client, game["id"], tokens[seat])
        reply = client.post(
            f"/games/{game['id']}/actions",
            json={"move": move, "version": version},
            headers=bearer(tokens[seat]),
        )
        assert reply.status_code == 200
        moved.add(seat)
    version = redis_client.hget(game_key(game["id"]), "version")
    refused = client.post(f"/games/{game['id']}/abort", headers=bearer(tokens[0]))
    assert_problem(refused, 409, "abort_refused")
    assert redis_client.hget(game_key(game["id"]), "version") == version


def test_the_record_lists_moves_only_and_replays_to_the_stored_result(client):
    created = create_open(client, seats=[{"kind": "open"}, {"kind": "open"}])
    toks = {}
    for _ in range(2):
        joined = join(client, created["id"]).get_json()
        toks[joined["seat"]] = joined["token"]
    final = _play_to_the_end(client, created["id"], toks)
    record = client.get(f"/games/{created['id']}/record").get_json()
    log = client.get(f"/games/{created['id']}/events").get_json()["events"]
    assert len(record["moves"]) == len(log) - 2  # the two joins are not moves
    state = registry.get("property").setup(2, record["options"], record["seed"])
    for entry in record["moves"]:
        state.apply(entry["seat"], entry["move"])
    assert state.result().to_dict() == record["result"] == final["result"]


def test_lobby_filters_pages_newest_first_and_forgets_started_games(client, redis_client):
    redis_client.delete(*index_keys(LOBBY))
    ids = [create_open(client, listed=True)["id"] for _ in range(5)]
    unlisted = create_open(client)["id"]
    fish = create_open(
        client, title="fresh-fish", listed=True, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    )
    page = client.get("/lobby?limit=2&title=property").get_json()
    assert [g["id"] for g in page["games"]] == ids[::-1][:2] and page["next"]
    rest = client.get(f"/lobby?limit=10&title=property&cursor={page['next']}").get_json()
    assert [g["id"] for g in rest["games"]] == ids[::-1][2:] and rest["next"] is None
    assert unlisted not in [g["id"] for g in rest["games"]]
    by_seats = client.get("/lobby?seats=3").get_json()["games"]
    assert [g["id"] for g in by_seats] == [fish["id"]]
    entry = by_seats[0]
    assert entry["title"] == "fresh-fish" and entry["open_seats"] == [1, 2]
    assert entry["created"].endswith("Z") and [s["kind"] for s in entry["seats"]] == [
        "human",
        "open",
        "open",
    ]
    join(client, ids[0])  # started: it leaves the lobby
    assert ids[0] not in [g["id"] for g in client.get("/lobby?limit=100").get_json()["games"]]
    assert redis_client.zscore(index_of(LOBBY, ids[0]), ids[0]) is None
    assert_problem(client.get("/lobby?cursor=notacursor"), 422, "bad_cursor")
    assert_problem(client.get("/lobby?title=chess"), 422, "invalid_request")


def test_a_waiting_game_is_due_to_expire_the_lobby_ttl_after_its_creation(client, redis_client, app):
    games = services(app).games
    before = time.time()
    created = create_open(client, listed=True)
    due = redis_client.zscore(index_of(IDLE, created["id"]), created["id"])
    assert before + games.store.lobby_ttl <= due <= time.time() + games.store.lobby_ttl
    seated = join(
        client, created["id"]
    ).get_json()  # a join that leaves a seat open: still counted from creation
    if seated["status"] == "waiting":
        assert redis_client.zscore(index_of(IDLE, created["id"]), created["id"]) == pytest.approx(due, abs=1)
    join_reply = seated if seated["status"] == "active" else join(client, created["id"]).get_json()
    assert join_reply["status"] == "active"
    assert (
        redis_client.zscore(index_of(IDLE, created["id"]), created["id"]) > time.time() + games.store.ttl - 5
    )  # a running game's idle time
    assert redis_client.ttl(game_key(created["id"])) == -1
    # A game that expired while waiting leaves the lobby when it is next read.
    gone = create_open(client, listed=True)
    redis_client.delete(game_key(gone["id"]), log_key(gone["id"]))
    assert gone["id"] not in [g["id"] for g in client.get("/lobby?limit=100").get_json()["games"]]
    assert redis_client.zscore(index_of(LOBBY, gone["id"]), gone["id"]) is None
    # Entries older than the lobby's lifetime are trimmed.
    redis_client.zadd(index_of(LOBBY, "old-game"), {"old-game": time.time() - games.store.lobby_ttl - 5})
    client.get("/lobby")
    assert redis_client.zscore(index_of(LOBBY, "old-game"), "old-game") is None


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_while_a_game_waits_every_seat_reads_what_a_spectator_sees(client, redis_client, title):
    """X-WAIT, every title: the creator's and a joiner's view, log, moves and pictures are the
    spectator's while the game waits; once it starts, each seat sees its own deal."""
    created = create_open(client, title=title, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    game_id, creator = created["id"], created["human_seats"][0]["token"]
    joiner = join(client, game_id, seat=1).get_json()["token"]
    meta = orjson.loads(redis_client.hget(game_key(game_id), "meta"))
    dealt = registry.get(title).setup(3, meta["options"], meta["seed"])
    spectator = orjson.loads(orjson.dumps(dealt.view(None)))
    public_log = client.get(f"/games/{game_id}/events").get_json()["events"]
    public_text = client.get(f"/games/{game_id}/board.txt").get_data(as_text=True)
    for seat, token in ((0, creator), (1, joiner)):
        shown = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
        assert shown["status"] == "waiting" and shown["you"] == seat and shown["view"] == spectator
        assert (
            client.get(f"/games/{game_id}/events", headers=bearer(token)).get_json()["events"] == public_log
        )
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(token)).get_json()
        assert listing["seat"] == seat and listing["moves"] == [] and listing["to_act"] == []
        text = client.get(f"/games/{game_id}/board.txt", headers=bearer(token)).get_data(as_text=True)
        assert "hand:" not in text and "reserve:" not in text
        assert len(text.splitlines()) == len(public_text.splitlines())  # no row of a seat's own
    join(client, game_id, seat=2)
    for seat, token in ((0, creator), (1, joiner)):
        shown = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
        assert shown["status"] == "active" and shown["view"] == orjson.loads(orjson.dumps(dealt.view(seat)))


@pytest.mark.parametrize("seats", [[{"kind": "open"}, {"kind": "open"}]])
def test_a_game_of_open_seats_only_counts_as_a_game_with_humans(client, seats):
    created = create_open(client, seats=seats)
    assert created["human_seats"] == [] and created["status"] == "waiting"
    stored = orjson.loads(
        services(client.application).games.store.redis.hget(game_key(created["id"]), "meta")
    )
    assert [s["kind"] for s in stored["seats"]] == ["open", "open"]


# ---- resign -------------------------------------------------------------------------------------
def test_resign_refusals_and_a_resigned_seat_may_watch_but_not_move(client, redis_client):
    waiting = create_open(client)
    token = waiting["human_seats"][0]["token"]
    assert_problem(
        client.post(f"/games/{waiting['id']}/resign", headers=bearer(token)), 409, "game_not_active"
    )
    assert_problem(client.post(f"/games/{waiting['id']}/resign"), 401, "missing_token")
    game = create_open(
        client,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
        stand_in="random",
    )
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    # A seat not to act resigns: no bot is due (a worker of the live tests may share this Redis).
    quitter = next(seat for seat in range(3) if seat not in game["to_act"])
    reply = client.post(f"/games/{game['id']}/resign", headers=bearer(toks[quitter]))
    assert reply.status_code == 200 and reply.get_json() == {
        "id": game["id"],
        "seat": quitter,
        "status": "active",
        "version": 1,
    }
    shown = client.get(f"/games/{game['id']}", headers=bearer(toks[quitter])).get_json()
    assert shown["you"] == quitter and shown["seats"][quitter] == {
        "seat": quitter,
        "kind": "bot",
        "bot": "random",
        "level": "random",
        "resigned": True,
    }
    events = client.get(f"/games/{game['id']}/events").get_json()["events"]
    assert events[-1]["events"] == [{"type": "seat_resigned", "seat": quitter, "stand_in": "random"}]
    move = {"type": "pass"}
    assert_problem(
        client.post(f"/games/{game['id']}/actions", json={"move": move}, headers=bearer(toks[quitter])),
        409,
        "seat_resigned",
    )
    assert_problem(
        client.post(f"/games/{game['id']}/resign", headers=bearer(toks[quitter])), 409, "seat_resigned"
    )
    assert_problem(
        client.post(f"/games/{game['id']}/abort", headers=bearer(toks[quitter])), 409, "seat_resigned"
    )
    assert redis_client.hget(game_key(game["id"]), "version") == b"1"


def test_two_seats_the_other_wins_at_once(client):
    game = create_open(client, seats=[{"kind": "human"}, {"kind": "human"}])
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    first = game["to_act"][0]
    move, version = first_move(client, game["id"], toks[first])
    client.post(
        f"/games/{game['id']}/actions", json={"move": move, "version": version}, headers=bearer(toks[first])
    )
    quitter = 1 - first
    reply = client.post(f"/games/{game['id']}/resign", headers=bearer(toks[quitter])).get_json()
    assert reply["status"] == "finished" and reply["version"] == 2
    shown = client.get(f"/games/{game['id']}").get_json()
    assert shown["status"] == "finished" and shown["to_act"] == []
    assert shown["result"] == {
        "scores": [],
        "ranks": [1 if seat == first else 2 for seat in range(2)],
        "winners": [first],
        "breakdown": [],
        "reason": "resignation",
        "resigned": [seat == quitter for seat in range(2)],
    }
    late = client.post(f"/games/{game['id']}/actions", json={"move": move}, headers=bearer(toks[first]))
    assert_problem(late, 409, "game_over")
    record = client.get(f"/games/{game['id']}/record").get_json()
    assert record["moves"] == [{"seat": first, "move": move}] and record["result"] == shown["result"]


def test_listed_is_a_json_boolean(client):
    body = {"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]}
    for value in (0, 1, "true"):
        assert_problem(client.post("/games", json={**body, "listed": value}), 422, "invalid_request")


# ---- rematch ------------------------------------------------------------------------------------
def _finished_by_resignation(client, seats=None, **extra):
    game = create_open(
        client, seats=seats or [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}], **extra
    )
    toks = {s["seat"]: s["token"] for s in game["human_seats"]}
    client.post(f"/games/{game['id']}/resign", headers=bearer(toks[1]))
    return game, toks


def test_a_rematch_is_one_game_for_all_its_players_and_starts_when_all_asked(client):
    game, toks = _finished_by_resignation(
        client,
        seats=[
            {"kind": "human", "name": "Ada"},
            {"kind": "human", "name": "Bo"},
            {"kind": "bot", "level": "easy"},
        ],
    )
    client.post(f"/games/{game['id']}/resign", headers=bearer(toks[0]))  # three seats: both resign
    shown = client.get(f"/games/{game['id']}").get_json()
    if shown["status"] != "finished":  # the bots play it out: this test only needs a finished game
        game, toks = _finished_by_resignation(client)
    assert "rematch" not in client.get(f"/games/{game['id']}").get_json()  # nobody asked yet
    first = client.post(f"/games/{game['id']}/rematch", headers=bearer(toks[0]))
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    # The finished game shows the rematch to everyone (the other player learns of it there).
    assert client.get(f"/games/{game['id']}").get_json()["rematch"] == body["id"]
    assert client.get(f"/games/{game['id']}", headers=bearer(toks[1])).get_json()["rematch"] == body["id"]
    assert body["seat"] == 0 and body["status"] == "waiting"
    rematch = client.get(f"/games/{body['id']}").get_json()
    assert rematch["status"] == "waiting" and [s["kind"] for s in rematch["seats"]][:2] == ["human", "open"]
    assert rematch["seats"][1] == {"seat": 1, "kind": "open", "name": "Bo"}
    # The reserved seat is not anyone's to join.
    assert_problem(join(client, body["id"], seat=1), 409, "seat_taken")
    assert_problem(join(client, body["id"]), 409, "seat_taken")
    second = client.post(f"/games/{game['id']}/rematch", headers=bearer(toks[1])).get_json()
    assert second["id"] == body["id"] and second["seat"] == 1 and second["status"] == "active"
    # Asking twice: the same seat, a new token; the one before stops working.
    again = client.post(f"/games/{game['id']}/rematch", headers=bearer(toks[0])).get_json()
    assert again["id"] == body["id"] and again["seat"] == 0 and again["token"] != body["token"]
    assert_problem(client.get(f"/games/{body['id']}", headers=bearer(body["token"])), 401, "invalid_token")
    assert client.get(f"/games/{body['id']}", headers=bearer(again["token"])).get_json()["you"] == 0
    assert_problem(client.post(f"/games/{game['id']}/rematch"), 401, "missing_token")
    running = create_open(client, seats=[{"kind": "human"}, {"kind": "human"}])
    refused = client.post(
        f"/games/{running['id']}/rematch", headers=bearer(running["human_seats"][0]["token"])
    )
    assert_problem(refused, 409, "game_not_over")


def test_a_rematch_asked_again_tells_its_webhooks_who_is_to_act(settings, redis_client):
    """The notice of each join of a rematch, a token issued again included, says who is to act
    as the game does at that version: nobody while it waits, the seat to play once it runs."""
    # The endpoint is never called (no webhook worker here): loopback http only has to be accepted.
    hooked = replace(settings, webhook_allow_http=True, webhook_allow_private=True)
    app = api_app(hooked, redis_client=redis_client)
    client = app.test_client()
    game, toks = _finished_by_resignation(
        client, webhooks=[{"url": "http://127.0.0.1:9/hook"}], clock={"turn_seconds": 600}
    )

    def ask(seat):
        reply = client.post(f"/games/{game['id']}/rematch", headers=bearer(toks[seat]))
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()

    rematch = ask(0)["id"]
    assert ask(0)["status"] == "waiting"  # asked again before the start
    assert ask(1)["status"] == "active"
    started = client.get(f"/games/{rematch}").get_json()
    ask(0)  # asked again after the start: a new token, no turn handed on
    shown = client.get(f"/games/{rematch}").get_json()
    assert shown["to_act"] == started["to_act"] != [] and shown["deadlines"] == started["deadlines"]
    assert shown["version"] == 4
    webhooks = services(app).webhooks
    webhooks.fan_out(rematch)
    joined = sorted(
        (record["version"], orjson.loads(record["body"])["data"])
        for record in webhooks.store.deliveries(rematch)
        if record["type"] == "seat.joined"
    )
    assert [(version, data["seat"]) for version, data in joined] == [(1, 0), (2, 0), (3, 1), (4, 0)]
    assert [data["to_act"] for _, data in joined] == [[], [], shown["to_act"], shown["to_act"]]
