"""Rated games over HTTP, in-process, with a real PostgreSQL: created by player keys, settled when
archived, shown in the public player, the leaderboard, the record and every seat's view."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

from service.archive.schema import migrate
from service.http.services import services
from service.run.postgres import EmbeddedPostgres
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, index_keys
from skyline.web import api_app
from tests.archive.conftest import new_database, postgres, redis_server  # noqa: F401  (fixtures)
from worker.archiver import Archiver

from .conftest import bearer


@pytest.fixture
def database_url(postgres: EmbeddedPostgres) -> str:  # noqa: F811
    url = new_database(postgres)
    migrate(url)
    return url


@pytest.fixture
def rated_client(settings, redis_client, database_url: str) -> Iterator:
    app = api_app(replace(settings, database_url=database_url), redis_client=redis_client)
    yield app.test_client()
    services(app).games.repository.close()


def archive_all(redis_client, database_url: str) -> int:
    archiver = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=60
    )
    try:
        return int(archiver.archive_once()["written"])
    finally:
        archiver.stop()


def rated_game(client, ada: dict, bea: dict) -> dict:
    """Ada's rated game (seat 0) inviting Bea (seat 1), Bea joined."""
    body = {
        "title": "property",
        "rated": True,
        "seats": [{"kind": "human", "player": "me"}, {"kind": "open", "player": bea["id"]}],
    }
    created = client.post("/games", json=body, headers=bearer(ada["key"]))
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    joined = client.post(f"/games/{game['id']}/join", json={"seat": 1}, headers=bearer(bea["key"]))
    assert joined.status_code in (200, 201), joined.get_json()
    return {**game, "bea_token": joined.get_json()["token"]}


def test_a_rated_game_moves_its_players_ratings_once_archived(
    rated_client, redis_client, database_url
) -> None:
    client = rated_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada, bea = client.post("/players").get_json(), client.post("/players").get_json()
    game = rated_game(client, ada, bea)
    assert client.get(f"/games/{game['id']}").get_json()["rated"] is True
    for player in (ada, bea):
        mine = client.get("/players/me/games", headers=bearer(player["key"])).get_json()["games"]
        assert [(g["id"], g["rated"]) for g in mine] == [(game["id"], True)]
    resigned = client.post(f"/games/{game['id']}/resign", headers=bearer(game["bea_token"]))
    assert resigned.get_json()["status"] == "finished"
    ada_token = game["human_seats"][0]["token"]
    pending = client.get(f"/games/{game['id']}", headers=bearer(ada_token)).get_json()
    assert pending["ratings"] is None and pending["ratings_pending"] is True
    assert client.get(f"/players/{ada['id']}").get_json() == {"id": ada["id"], "ratings": {}}

    assert archive_all(redis_client, database_url) == 1
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    shown = client.get(f"/players/{ada['id']}").get_json()
    assert set(shown) == {"id", "ratings"}
    rating = shown["ratings"]["property"]
    assert rating["mu"] == pytest.approx(won.mu, abs=1e-9) and rating["sigma"] == pytest.approx(
        won.sigma, abs=1e-9
    )
    assert rating["rating"] == pytest.approx(won.mu - 3 * won.sigma, abs=1e-9)
    assert rating["games"] == 1 and rating["provisional"] is True
    assert client.get(f"/players/{bea['id']}").get_json()["ratings"]["property"]["mu"] == pytest.approx(
        lost.mu, abs=1e-9
    )
    for headers in ({}, bearer(ada_token), bearer(game["bea_token"])):
        view = client.get(f"/games/{game['id']}", headers=headers).get_json()
        assert view["ratings_pending"] is False
        assert [(r["seat"], r["player"]) for r in view["ratings"]] == [(0, ada["id"]), (1, bea["id"])]
        assert view["ratings"][0]["after"]["mu"] == pytest.approx(won.mu, abs=1e-9)
    record = client.get(f"/games/{game['id']}/record").get_json()
    assert record["ratings"] == view["ratings"]
    finished = client.get("/players/me/games?status=finished", headers=bearer(ada["key"])).get_json()
    assert [(g["id"], g["rated"]) for g in finished["games"]] == [(game["id"], True)]
    # Archived again by a second archiver: nothing moves twice.
    assert archive_all(redis_client, database_url) == 0
    assert client.get(f"/players/{ada['id']}").get_json() == shown
    # Provisional: not on the leaderboard yet.
    board = client.get("/leaderboards/property").get_json()
    assert board == {"title": "property", "entries": [], "next": None}
    # Nothing of a key or a token in any of these reads.
    for url in (f"/players/{ada['id']}", "/leaderboards/property", f"/games/{game['id']}/record"):
        text = client.get(url).get_data(as_text=True)
        for secret in (ada["key"], bea["key"], ada_token, game["bea_token"], "token_hash", "sk_"):
            assert secret not in text


def test_a_rated_game_binds_every_human_seat_to_a_player(rated_client) -> None:
    client = rated_client
    ada = client.post("/players").get_json()
    for seats in (
        [{"kind": "human", "player": "me"}, {"kind": "human"}],
        [{"kind": "human", "player": "me"}, {"kind": "human", "player": "me"}],  # one player, two seats
        [{"kind": "human", "player": "me"}, {"kind": "open", "player": ada["id"]}],
        [{"kind": "bot"}, {"kind": "bot"}],
    ):
        reply = client.post(
            "/games", json={"title": "property", "rated": True, "seats": seats}, headers=bearer(ada["key"])
        )
        assert reply.status_code == 422 and reply.get_json()["code"] == "unratable_game", reply.get_json()
    reply = client.post(
        "/games", json={"title": "property", "rated": "yes", "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    )
    assert reply.status_code == 422
    mine = client.get("/players/me/games", headers=bearer(ada["key"])).get_json()
    assert mine["games"] == []


def test_an_open_seat_of_a_rated_game_is_taken_with_a_player_key_only(
    rated_client, redis_client, database_url
) -> None:
    client = rated_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada, bea = client.post("/players").get_json(), client.post("/players").get_json()
    body = {
        "title": "property",
        "rated": True,
        "listed": True,
        "seats": [{"kind": "human", "player": "me"}, {"kind": "open"}],
    }
    created = client.post("/games", json=body, headers=bearer(ada["key"]))
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url = f"/games/{game['id']}"
    lobby = client.get("/lobby?limit=100").get_json()["games"]
    assert [g["rated"] for g in lobby if g["id"] == game["id"]] == [True]
    before = client.get(url).get_json()
    for headers, json, status, code in (
        ({}, {"seat": 1}, 403, "rated_seat_needs_player"),
        ({}, None, 403, "rated_seat_needs_player"),  # the first open seat: the same
        (
            bearer(game["human_seats"][0]["token"]),
            {"seat": 1},
            403,
            "rated_seat_needs_player",
        ),  # a seat token
        (bearer("sk_player_" + "x" * 43), {"seat": 1}, 401, None),
        (bearer(ada["key"]), {"seat": 1}, 409, "already_seated"),  # her second seat of it
    ):
        refused = client.post(f"{url}/join", json=json, headers=headers)
        assert refused.status_code == status and refused.mimetype == "application/problem+json", (
            refused.get_json()
        )
        if code is not None:
            assert refused.get_json()["code"] == code and refused.get_json()["detail"]
        assert client.get(url).get_json() == before, "a refused join changes nothing"
    joined = client.post(f"{url}/join", json={"seat": 1}, headers=bearer(bea["key"]))
    assert joined.status_code == 201, joined.get_json()
    mine = client.get("/players/me/games", headers=bearer(bea["key"])).get_json()["games"]
    assert [(g["id"], g["my_seats"], g["rated"]) for g in mine] == [(game["id"], [1], True)]
    # The seat is Bea's: her result rates her.
    assert client.post(f"{url}/resign", headers=bearer(joined.get_json()["token"])).status_code == 200
    assert archive_all(redis_client, database_url) == 1
    ratings = client.get(url).get_json()["ratings"]
    assert [(r["seat"], r["player"]) for r in ratings] == [(0, ada["id"]), (1, bea["id"])]
    assert client.get(f"/players/{bea['id']}").get_json()["ratings"]["property"]["games"] == 1


@pytest.mark.parametrize(
    "url, code",
    [
        ("/players/nobody", None),  # not an id: no route
        ("/players/p_unknown", "player_not_found"),
        ("/players/bot:nolevel", None),
        ("/leaderboards/chess", "title_not_found"),
        ("/leaderboards/property?limit=0", None),
        ("/leaderboards/property?cursor=made-up", "bad_cursor"),
    ],
)
def test_bad_reads_are_clear_refusals(rated_client, url: str, code: str | None) -> None:
    reply = rated_client.get(url)
    assert 400 <= reply.status_code < 500 and reply.mimetype == "application/problem+json"
    if code is not None:
        assert reply.get_json()["code"] == code


def test_a_bot_level_is_a_public_player(rated_client) -> None:
    # "me" is no rated id: GET /players/me is the key's own settings, 401 without a player key.
    assert rated_client.get("/players/me").status_code == 401
    assert rated_client.get("/players/bot:medium").get_json() == {"id": "bot:medium", "ratings": {}}
