"""Every query a read of an archived game sends names its game (or, for "my games", its player).

Issue 62: the archive is to be held by a PostgreSQL distributed on the game's id (Citus's
``create_distributed_table``) and partitioned by the game's end; a read path whose query named
neither would ask every shard (and every partition). The SQL each read sends is captured at
psycopg's ``execute`` while an archived game is read every way a reader may (its view, moves, log,
stream, record, pictures, versions, rematch, a player's finished games), and each query on the
archive's tables must filter on the game's id, or on the player's id, with that value among its
parameters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import psycopg
import pytest

from service.http.services import services
from service.store.keys import ARCHIVE_DUE, game_key, index_keys, log_key
from skyline.web import api_app

from ..service.test_api import _play_to_the_end, bearer, create, tokens
from .test_archived_reads import _archive_all

NAMES_ITS_KEY = re.compile(r"\b(?:game_id|id|player_id)\s*=\s*%s")


@pytest.fixture
def archived_app(settings, redis_client, database_url: str) -> Iterator[Any]:
    app = api_app(replace(settings, database_url=database_url), redis_client=redis_client)
    yield app
    services(app).games.repository.close()


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Each query on the archive's tables, with its parameters, as psycopg is asked to send it."""
    captured: list[tuple[str, tuple[Any, ...]]] = []
    real = psycopg.Connection.execute

    def execute(self, query, params=None, **kwargs):
        text = query.decode() if isinstance(query, bytes) else str(query)
        if "archived_" in text:
            captured.append((text, tuple(params or ())))
        return real(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    return captured


def test_every_read_of_an_archived_game_names_the_game_or_the_player(
    archived_app, redis_client, database_url: str, sent
) -> None:
    client = archived_app.test_client()
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    created = create(client, title="new-york-city", seats=[{"kind": "human"}] * 2, seed=4)
    game_id, toks = created["id"], tokens(created)
    final = _play_to_the_end(client, game_id, toks)
    assert _archive_all(redis_client, database_url) == 1
    redis_client.delete(game_key(game_id), log_key(game_id))  # the grace is over: the archive's alone
    sent.clear()
    reads = ["", "/moves", "/events", "/record", "/board.svg", "/board.txt"]
    reads += [f"/versions/{n}" for n in (0, 1, final["version"] // 2, final["version"])]
    for path in reads:
        for headers in ({}, bearer(toks[0])):
            reply = client.get(f"/games/{game_id}{path}", headers=headers)
            assert reply.status_code in (200, 409), (path, reply.get_data()[:200])
    streamed = client.get(
        f"/games/{game_id}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "0"}
    )
    assert streamed.status_code == 200 and b"event: finished" in streamed.get_data()
    repository = services(archived_app).games.repository
    assert repository.claim_rematch(game_id, "a-rematch") == "a-rematch"
    repository.finished_games_of("a-player", None, 10)
    repository.finished_games_of("a-player", (final["version"] * 1.0, game_id), 10)

    assert len(sent) >= 10, sent  # the reads went to the archive, and were seen
    for query, params in sent:
        assert NAMES_ITS_KEY.search(query), query
        assert game_id in params or "a-player" in params, (query, params)
