"""Issue 54, point 2: a game left idle until it would expire is archived as it stands (X-IDLE).

A live game's keys never expire by themselves: ``sk:idle`` says when each will have been idle too
long, every commit renews it, and the workers' sweeper ends the game as ``expired`` (logged like an
abort, by the service: no more moves, an empty listing, every read still answers). The archiver
then takes it as any ended game, and only then does it leave Redis.
"""

from __future__ import annotations

import time

import pytest

from service.archive.archive import Archive
from service.store.keys import ARCHIVE_DUE, IDLE, LOBBY, game_key, index_keys, index_of, log_key
from worker.archiver import Archiver
from worker.sweeper import Sweeper

from ..service.test_api import bearer, create, first_move, tokens
from .conftest import GRACE
from .test_archiving import rows

LATER = 30 * 24 * 3600  # past any idle time of the settings


@pytest.fixture
def sweeper(redis_client, worker_services) -> Sweeper:
    redis_client.delete(*index_keys(IDLE))  # the session's Redis: only this test's games
    return Sweeper(worker_services, stall_seconds=0, interval_seconds=1)


def play_one_move(client, created: dict) -> None:
    game_id = created["id"]
    seat = client.get(f"/games/{game_id}").get_json()["to_act"][0]
    token = tokens(created)[seat]
    move, version = first_move(client, game_id, token)
    answer = client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(token)
    )
    assert answer.status_code == 200, answer.get_json()


def test_an_active_and_a_waiting_game_left_idle_expire_then_are_archived_once(
    client, redis_client, sweeper: Sweeper, archiver: Archiver, database_url: str
) -> None:
    active = create(client, seed=3)
    play_one_move(client, active)
    waiting = create(client, seats=[{"kind": "human"}, {"kind": "open"}], listed=True)
    for game in (active, waiting):
        assert redis_client.ttl(game_key(game["id"])) == -1, "a live game's keys never expire by themselves"
    assert sweeper.sweep_idle() == {}, "neither is idle yet"

    swept = sweeper.sweep_idle(now=time.time() + LATER)
    assert swept == {"expired": 2}
    for game in (active, waiting):
        game_id, token = game["id"], tokens(game)[0]
        shown = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
        assert shown["status"] == "expired" and shown["result"] is None and shown["to_act"] == []
        listed = client.get(f"/games/{game_id}/moves", headers=bearer(token)).get_json()
        assert listed["moves"] == [] and listed["to_act"] == []
        refused = client.post(
            f"/games/{game_id}/actions",
            json={"move": {"type": "pass"}, "version": shown["version"]},
            headers=bearer(token),
        )
        assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_active"
        assert "idle" in refused.get_json()["detail"]
        entry = client.get(f"/games/{game_id}/events").get_json()["events"][-1]
        assert entry["seat"] is None and [e["type"] for e in entry["events"]] == ["game_expired"]
        assert entry["events"][0]["idle_since"].endswith("Z")
        record = client.get(f"/games/{game_id}/record")  # as an aborted game's: its hands stay hidden
        assert record.status_code == 409 and record.get_json()["code"] == "game_not_over"
        assert redis_client.zscore(index_of(IDLE, game_id), game_id) is None
        assert redis_client.zscore(index_of(ARCHIVE_DUE, game_id), game_id) is not None
    assert redis_client.zscore(index_of(LOBBY, waiting["id"]), waiting["id"]) is None, (
        "an expired game leaves the lobby"
    )
    assert sweeper.sweep_idle(now=time.time() + LATER) == {}, "each expires once"

    assert archiver.archive_once()["written"] == 2
    with Archive(database_url) as archive:
        for game in (active, waiting):
            record = archive.read_game(game["id"])
            assert record is not None and record.status == "expired" and record.result is None
            assert rows(database_url, game["id"])["ended_games"] == 1
            assert 0 < redis_client.ttl(log_key(game["id"])) <= GRACE, "gone from Redis after the grace"


def test_a_move_that_lands_after_the_claim_keeps_the_game_alive(
    client, redis_client, sweeper: Sweeper
) -> None:
    game = create(client, seed=5)
    claimed = sweeper.idle.claim(time.time() + LATER, lease_seconds=60)
    assert game["id"] in claimed
    play_one_move(client, game)  # renews its idle time, after the claim
    assert sweeper.seats.expire_idle(game["id"]) == "not_idle"
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "active"
    assert redis_client.zscore(index_of(IDLE, game["id"]), game["id"]) > time.time() + 60, (
        "due again at its own time"
    )


def test_a_sweeper_killed_holding_an_idle_game_lets_it_come_due_again_after_its_lease(
    client, redis_client, sweeper: Sweeper
) -> None:
    game = create(client, seed=6)
    now = time.time() + LATER
    assert sweeper.idle.claim(now, lease_seconds=60) == [game["id"]]  # then the sweeper dies
    assert sweeper.sweep_idle(now=now + 1) == {}, "held by the dead sweeper's lease"
    assert sweeper.sweep_idle(now=now + 61) == {"expired": 1}
