"""The compact log (issue 62): what Redis keeps of a move, and a game begun in the form before it.

Redis keeps a move's entry as msgpack without its events (service.store.logform): the rules'
events, with every hidden card, are made again by replay for each reader. A game written by the
release before (each entry whole, as JSON) is read as it is and goes on in the compact form: every
reply is the same whatever form each of its entries is in.
"""

from __future__ import annotations

import random

import msgpack
import orjson

from engines import registry
from service.http.services import services
from service.store.keys import log_key
from service.store.logform import LEADING, decoded, encoded

from .test_api import bearer, create, tokens


def _play(client, game_id: str, toks: dict[int, str], rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        shown = client.get(f"/games/{game_id}").get_json()
        if shown["status"] != "active":
            return
        seat = shown["to_act"][0]
        listing = client.get(f"/games/{game_id}/moves", headers=bearer(toks[seat])).get_json()
        reply = client.post(
            f"/games/{game_id}/actions",
            json={"move": rng.choice(listing["moves"])["move"], "version": listing["version"]},
            headers=bearer(toks[seat]),
        )
        assert reply.status_code == 200, reply.get_json()


def _replies(client, game_id: str, toks: dict[int, str]) -> dict[str, bytes]:
    """What every reader reads of the game's log and of its versions."""
    version = client.get(f"/games/{game_id}").get_json()["version"]
    seen = {}
    for who, headers in [("spectator", {}), *((f"seat{s}", bearer(t)) for s, t in toks.items())]:
        seen[f"events {who}"] = client.get(f"/games/{game_id}/events", headers=headers).get_data()
        for n in range(0, version + 1, 3):
            seen[f"versions/{n} {who}"] = client.get(
                f"/games/{game_id}/versions/{n}", headers=headers
            ).get_data()
    return seen


def _as_written_before(app, redis_client, game_id: str) -> None:
    """The game's log rewritten as the release before the compact log wrote it: each entry whole."""
    games = services(app).games
    whole = games.log(games.read(game_id))
    redis_client.delete(log_key(game_id))
    redis_client.rpush(log_key(game_id), *[orjson.dumps(entry) for entry in whole])


def test_a_move_is_kept_without_its_events_and_read_with_them(app, client, redis_client):
    created = create(client, title="new-york-city", seats=[{"kind": "human"}] * 3, seed=7)
    game_id, toks = created["id"], tokens(created)
    _play(client, game_id, toks, random.Random(1), 12)
    raws = redis_client.lrange(log_key(game_id), 0, -1)
    assert len(raws) == 12
    games = services(app).games
    whole = games.log(games.read(game_id))
    for version, (raw, entry) in enumerate(zip(raws, whole, strict=True), start=1):
        fields = msgpack.unpackb(raw)
        assert isinstance(fields, list) and b"events" not in raw
        kept = decoded(raw, version)
        assert kept[LEADING] == [] and "events" not in kept
        assert {k: v for k, v in kept.items() if k != LEADING} == {
            k: v for k, v in entry.items() if k != "events"
        }
        assert entry["events"], "the rules' events, made by replay"
        assert encoded(kept) == raw
        # Each of them a fraction of the entry as it was kept before.
        assert len(raw) < len(orjson.dumps(entry)) / 2


def test_a_game_written_in_the_form_before_reads_the_same_and_goes_on(app, client, redis_client):
    title = "fresh-fish"
    bounds = registry.get(title).catalog_entry()["seats"]
    created = create(client, title=title, seats=[{"kind": "human"}] * bounds["min"], seed=3)
    game_id, toks = created["id"], tokens(created)
    rng = random.Random(2)
    _play(client, game_id, toks, rng, 10)
    compact = _replies(client, game_id, toks)
    _as_written_before(app, redis_client, game_id)
    assert redis_client.lindex(log_key(game_id), 0)[:1] == b"{"
    services(app).games.repository.checkpoints = type(services(app).games.repository.checkpoints)(1 << 20)
    assert _replies(client, game_id, toks) == compact, "the form before reads the same"
    _play(client, game_id, toks, rng, 10)  # its next moves are kept compact
    raws = redis_client.lrange(log_key(game_id), 0, -1)
    assert raws[0][:1] == b"{" and raws[-1][:1] != b"{"
    mixed = _replies(client, game_id, toks)
    _as_written_before(app, redis_client, game_id)
    assert _replies(client, game_id, toks) == mixed, "a log of both forms reads as one of the form before"
