"""Rules versions outlive a deploy, through the service: Property's version 2 (for tests only,
engines/property/versions.py: a mortgaged square collects no rent) is published as a deploy
would publish it, on an app created after it (the processes of the new deploy), against the
same Redis. A game begun under version 1 goes on under version 1 on every path that restores a
stored game (the API's reads and moves, the bot worker, the sweeper), new games get version 2,
records replay under their own version; a game whose version is no longer played is refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engines import registry
from engines.property.versions import MORTGAGES_COLLECT_NO_RENT as VERSION_2
from service.http.services import services
from service.run.embedded import EmbeddedRedis
from skyline.web import api_app
from worker.jobs import play_bot_turn
from worker.sweeper import Sweeper

from ..engines.property.scripts import scripted_game

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
SEED = 3


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """This module's own Redis: no live worker of the session may play the bot turns these
    tests play by hand (as tests/worker/test_jobs.py)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("rules-versions-redis"), appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def deploy_version_2(settings, redis_client):
    """``with deploy_version_2() as deployed``: version 2 published, and the new deploy's app
    on the same Redis, for the block."""

    @contextmanager
    def deploy() -> Iterator[Any]:
        with registry.publishing(VERSION_2):
            yield api_app(settings, redis_client=redis_client).test_client()

    return deploy


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, seats=HUMANS, seed=SEED) -> dict[str, Any]:
    response = client.post("/games", json={"title": "property", "seats": seats, "seed": seed})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def tokens(created: dict[str, Any]) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if "token" in seat}


def act(client, game_id: str, token: str, move: dict[str, Any], version: int) -> dict[str, Any]:
    response = client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(token)
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play(client, created: dict[str, Any], moves, start: int = 0) -> list[dict[str, Any]]:
    held = tokens(created)
    return [
        act(client, created["id"], held[seat], move, start + index)
        for index, (seat, move) in enumerate(moves)
    ]


def rent_of(reply: dict[str, Any]) -> int:
    return next(e for e in reply["events"] if e["type"] == "rent_paid")["amount"]


def test_a_game_begun_under_version_1_goes_on_under_it_after_the_deploy_of_version_2(
    client, deploy_version_2
):
    moves, hit = scripted_game(registry.get("property", 1), SEED, to_the_end=False)
    old = create(client)
    play(client, old, moves[:hit])

    with deploy_version_2() as deployed:
        catalog = {t["title"]: t for t in deployed.get("/catalog").get_json()["titles"]}
        assert catalog["property"]["rules_version"] == 2
        shown = deployed.get(f"/games/{old['id']}", headers=bearer(tokens(old)[0])).get_json()
        assert shown["rules_version"] == 1 and shown["version"] == hit
        seat = moves[hit][0]
        listing = deployed.get(f"/games/{old['id']}/moves", headers=bearer(tokens(old)[seat])).get_json()
        assert any(listed["move"] == moves[hit][1] for listed in listing["moves"])
        (reply,) = play(deployed, old, moves[hit : hit + 1], start=hit)
        assert rent_of(reply) > 0, "version 1: a mortgaged square collects its rent"

        new = create(deployed)
        assert (
            deployed.get(f"/games/{new['id']}", headers=bearer(tokens(new)[0])).get_json()["rules_version"]
            == 2
        )
        *_, reply = play(deployed, new, moves[: hit + 1])
        assert rent_of(reply) == 0, "version 2: it collects none"


def test_a_record_of_version_1_replays_under_it_after_the_deploy_of_version_2(client, deploy_version_2):
    moves, _ = scripted_game(registry.get("property", 1), SEED, to_the_end=True)
    old = create(client)
    play(client, old, moves)
    with deploy_version_2() as deployed:
        record = deployed.get(f"/games/{old['id']}/record").get_json()
        assert record["rules_version"] == 1 and record["result"] is not None
        game = registry.get(record["title"], record["rules_version"])
        state = game.setup(2, record["options"], record["seed"])
        for entry in record["moves"]:
            state.apply(entry["seat"], entry["move"])
        assert state.result().to_dict() == record["result"]


def test_the_bot_worker_and_the_sweeper_play_on_a_game_of_version_1(
    client, deploy_version_2, redis_client, worker_services
):
    old = create(client, seats=BOTS, seed=4)
    with deploy_version_2() as deployed:
        outcome = play_bot_turn(old["id"], 0, services=worker_services, max_turns=3)
        assert outcome["outcome"] == "played", outcome
        shown = deployed.get(f"/games/{old['id']}").get_json()
        assert shown["rules_version"] == 1 and shown["version"] == 3
        saved = services(deployed.application).games.store.load(old["id"])
        assert saved.state["rules_version"] == 1, "saved again under the version it began with"

        sweeper = Sweeper(worker_services, stall_seconds=0, interval_seconds=1)
        swept = sweeper.sweep_once(now=time.time() + 3600)
        assert swept["enqueued"] + swept["pending"] >= 1, swept


def test_a_game_under_a_version_no_longer_played_is_refused_not_played(
    settings, redis_client, deploy_version_2
):
    """A rollback to a deploy without version 2 (or an old process of a rolling deploy) meets a
    game begun under it: every read and move answers 409 unsupported_rules_version."""
    with deploy_version_2() as deployed:
        created = create(deployed)
    rolled_back = api_app(settings, redis_client=redis_client).test_client()
    token = bearer(tokens(created)[0])
    answers = [
        rolled_back.get(f"/games/{created['id']}", headers=token),
        rolled_back.get(f"/games/{created['id']}/moves", headers=token),
        rolled_back.post(
            f"/games/{created['id']}/actions", json={"move": {"type": "pass"}, "version": 0}, headers=token
        ),
    ]
    for answer in answers:
        assert answer.status_code == 409, answer.get_data(as_text=True)
        assert answer.mimetype == "application/problem+json"
        body = answer.get_json()
        assert body["code"] == "unsupported_rules_version" and "version 2" in body["detail"]
    assert services(rolled_back.application).games.store.load(created["id"]).version == 0


def test_the_catalog_lists_every_published_rules_version_of_each_title(client, deploy_version_2):
    """A client learns which rules a title plays and which older versions still replay."""
    for entry in client.get("/catalog").get_json()["titles"]:
        assert entry["rules_versions"] == list(registry.versions(entry["title"]))
        assert entry["rules_version"] == max(entry["rules_versions"])
    with deploy_version_2() as deployed:
        shown = {e["title"]: e for e in deployed.get("/catalog").get_json()["titles"]}
        assert shown["property"]["rules_versions"] == [1, 2] and shown["property"]["rules_version"] == 2
