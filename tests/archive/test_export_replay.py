"""What an import recomputes is what the service held: games played through the use cases on a real
Redis (service.play.games.Games, Seats), then taken as the archive would take them from Redis — the
meta, the log and the state as stored — give `record_of` equal to `Games.record` (GET
/games/{id}/record) and a replay whose final state is Redis's byte for byte, resignations included.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import orjson
import pytest
import redis

from engines import registry
from service.archive.records import ArchivedGame, ArchivedSeat, LogEntry, check
from service.play.archiving import whole_entries as made_whole_log
from service.play.games import Games
from service.play.replays import ReplayMismatch, record_of, replayed
from service.play.seats import Seats
from service.store.games import GameStore
from service.store.keys import game_key, log_key
from service.store.lobby import LobbyIndex
from service.store.seats import SeatStore

UTC = datetime.UTC


def moment(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, UTC)


def as_archived(client: redis.Redis, game_id: str, result: dict[str, Any] | None) -> ArchivedGame:
    """The game as Redis holds it, shaped as the archiving worker is to write it."""
    raw_meta, raw_state = client.hmget(game_key(game_id), ["meta", "state"])
    assert isinstance(raw_meta, bytes) and isinstance(raw_state, bytes)
    kept: list[bytes] = client.lrange(log_key(game_id), 0, -1)  # type: ignore[assignment]  # redis-py's stubs say bytes | str
    meta = orjson.loads(raw_meta)
    # Each entry whole, as the archive keeps it (Redis keeps a move's events to the replay).
    raw_log = [orjson.dumps(entry) for entry in made_whole_log(meta, kept)]
    log = tuple(LogEntry(n, raw, moment(orjson.loads(raw)["at"])) for n, raw in enumerate(raw_log, start=1))
    ranks = result["ranks"] if result is not None else [None] * len(meta["seats"])
    return ArchivedGame(
        id=game_id,
        status="finished" if result is not None else "aborted",
        meta=raw_meta,
        version=len(log),
        final_state=raw_state,
        created_at=moment(meta["created"]),
        started_at=moment(meta["created"]),
        ended_at=log[-1].at if log else moment(meta["created"]),
        log=log,
        seats=tuple(ArchivedSeat(s["seat"], s["kind"], None, ranks[s["seat"]]) for s in meta["seats"]),
        result=None if result is None else orjson.dumps(result),
    )


def play_to_the_end(games: Games, game_id: str, tokens: dict[int, str], rng: random.Random) -> None:
    while True:
        stored, state = games._load(game_id)
        humans = [seat for seat in state.to_act() if stored.meta["seats"][seat]["kind"] == "human"]
        if stored.status != "active" or not humans:
            return
        seat = rng.choice(humans)
        games.act(game_id, tokens[seat], rng.choice(state.legal_moves(seat)), wake_bots=False)


@pytest.mark.parametrize("title", [title for title in sorted(registry.GAMES) if title != "new-york"])
def test_a_game_held_by_redis_replays_to_its_record_and_state(redis_client: redis.Redis, title: str) -> None:
    games = Games(GameStore(redis_client, ttl_seconds=600, finished_ttl_seconds=600), recent_games=0)
    seats = Seats(games, SeatStore(redis_client), LobbyIndex(redis_client, 600))
    engine = registry.get(title)
    count = max(engine.min_seats, min(3, engine.max_seats))
    created = games.create({"title": title, "seats": [{"kind": "human"}] * count, "seed": 21})
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    rng = random.Random(title)
    game_id = created["id"]
    for _ in range(6):  # a few moves, then (with three seats) a resignation, a stand-in's seat after it
        stored, state = games._load(game_id)
        seat = state.to_act()[0]
        games.act(game_id, tokens[seat], rng.choice(state.legal_moves(seat)), wake_bots=False)
    if count > 2:
        seats.resign(game_id, tokens[count - 1])
        stand_in = count - 1
        # The stand-in bot's moves, played here as the worker would (no worker runs in this test).
        while True:
            stored, state = games._load(game_id)
            if stored.status != "active":
                break
            acting = state.to_act()
            if stand_in in acting:
                games.act(
                    game_id, None, rng.choice(state.legal_moves(stand_in)), bot_seat=stand_in, wake_bots=False
                )
                continue
            seat = rng.choice(acting)
            games.act(game_id, tokens[seat], rng.choice(state.legal_moves(seat)), wake_bots=False)
    play_to_the_end(games, game_id, tokens, rng)

    record = games.record(game_id)
    game = as_archived(redis_client, game_id, record["result"])
    check(game)
    assert record_of(game) == record
    again = replayed(game)
    assert again.final_state == game.final_state
    if count > 2:
        assert record["result"]["resigned"][count - 1] is True
        assert any(b'"move"' not in entry.entry for entry in game.log), "the resignation's entry"

    wrong = dict(record["result"], ranks=list(reversed(record["result"]["ranks"])))
    if wrong != record["result"]:
        with pytest.raises(ReplayMismatch, match="replays to the result"):
            replayed(as_archived(redis_client, game_id, wrong))
