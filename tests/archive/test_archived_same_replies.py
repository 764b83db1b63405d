"""The archived side of tests/service/test_same_replies.py: the same seeded games, played the same
way, archived in the compact form and let go by Redis, answer every reader the bytes that
``same_replies.json`` holds for them (written by the release before the compact log, from the live
game): the game, its events (JSON and the stream), pictures, versions, record and log."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import orjson
import pytest

from engines import registry
from service.http.services import services
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, game_key, index_keys, log_key
from skyline.web import api_app
from worker.archiver import Archiver

from ..service.test_same_replies import GOLDEN, Reader, _play
from ..service.test_same_replies import clock as clock  # noqa: F401  (the fixture)


@pytest.fixture
def make_app(settings, redis_client, database_url: str) -> Iterator:
    apps = []

    def made():
        app = api_app(
            replace(settings, database_url=database_url), redis_client=redis_client, enqueue_bots=False
        )
        apps.append(app)
        return app

    yield made
    for app in apps:
        services(app).games.repository.close()


def test_every_archived_reply_is_the_same_bytes_as_the_live_reference(
    make_app,
    redis_client,
    database_url: str,
    clock,  # noqa: F811
    monkeypatch,
) -> None:
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ids = iter(f"same{title[:6].replace('-', '')}{n}" for title in sorted(registry.GAMES) for n in range(3))
    monkeypatch.setattr("service.play.games.new_game_id", lambda beside=None: next(ids))
    played = make_app()
    ended: dict[str, tuple[Reader, object]] = {}
    for title in sorted(registry.GAMES):
        _play(played, clock, title, ended)
    archiver = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=60
    )
    try:
        assert archiver.archive_once()["written"] == len(ended)
    finally:
        archiver.stop()
    for live, _ in ended.values():
        redis_client.delete(game_key(live.game_id), log_key(live.game_id))  # the grace is over

    expected = orjson.loads(GOLDEN.read_bytes())
    fresh = make_app()  # a process that never saw the games: no checkpoint, only the archive
    for title, (live, rng_state) in ended.items():
        seen: dict[str, str] = {}
        reader = Reader(fresh, fresh.test_client(), live.game_id, seen)
        reader.tokens = live.tokens
        rng = random.Random()
        rng.setstate(rng_state)  # type: ignore[arg-type]
        reader.read_at_end(rng)
        at_end = {name: digest for name, digest in expected[title].items() if name.startswith("end ")}
        assert seen.keys() == at_end.keys(), title
        changed = [name for name, digest in at_end.items() if seen[name] != digest]
        assert not changed, (title, changed[:10], len(changed))
        assert services(fresh).games.read(live.game_id).archived
