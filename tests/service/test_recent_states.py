"""A move sent with the version this process committed skips the read of the game.

The kept state (service.play.games.RecentStates) must never change an answer: the commit's
compare-and-set still decides, the seat token's rate limit rides on the commit script, and
anything unusual falls back to reading the game.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import registry
from service.http.ratelimit import token_key
from service.http.services import services
from service.play.games import Games, RecentStates
from service.store.games import GameStore, StoredGame
from skyline.web import api_app

from ..conftest import an_address

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client, seed=7):
    created = client.post("/games", json={"title": "property", "seats": HUMANS, "seed": seed})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    return body["id"], {s["seat"]: s["token"] for s in body["seats"]}


def next_move(client, game_id, tokens):
    """The seat to act, its token and a legal move, as a client finds them."""
    shown = client.get(f"/games/{game_id}").get_json()
    seat = shown["to_act"][0]
    moves = client.get(f"/games/{game_id}/moves", headers=bearer(tokens[seat])).get_json()
    return seat, shown["version"], moves["moves"][0]["move"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def play(client, game_id, token, move, version):
    return client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(token)
    )


def count_reads(app, monkeypatch):
    store = services(app).games.store
    reads = []
    original = store.load
    monkeypatch.setattr(
        store, "load", lambda game_id, **how: reads.append(game_id) or original(game_id, **how)
    )
    return reads


def test_a_move_at_the_version_this_process_committed_is_not_read_again(app, client, monkeypatch):
    game_id, tokens = create(client)
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    seat, version, move = next_move(client, game_id, tokens)
    reads = count_reads(app, monkeypatch)
    reply = play(client, game_id, tokens[seat], move, version)
    assert reply.status_code == 200 and reply.get_json()["version"] == version + 1
    assert reads == [], "the kept state was used"
    stored = services(app).games.store.load(game_id)
    assert stored.version == version + 1


def test_a_whole_game_played_on_kept_states_ends_as_the_engine_says(app, client):
    game_id, tokens = create(client, seed=11)
    game = registry.get("property")
    local = game.setup(2, {}, 11)
    rng = random.Random(3)
    version = 0
    while not local.is_over():
        seat = local.to_act()[0]
        move = rng.choice(local.legal_moves(seat))
        local.apply(seat, move)
        reply = play(client, game_id, tokens[seat], move, version)
        assert reply.status_code == 200, reply.get_json()
        version += 1
    stored = services(app).games.store.load(game_id)
    assert stored.status == "finished" and game.restore(stored.state) == local


def test_a_stale_version_after_another_process_moved_is_a_409_and_changes_nothing(
    app, client, settings, redis_client
):
    game_id, tokens = create(client)
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    # Another API process plays the next move: this process's kept state is now one behind.
    other = api_app(settings, redis_client=redis_client).test_client()
    seat, version, move = next_move(other, game_id, tokens)
    assert play(other, game_id, tokens[seat], move, version).status_code == 200
    before = services(app).games.store.load(game_id)
    stale = play(client, game_id, tokens[seat], move, version)
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale_version"
    # The same answer as without a kept state: the game's version, read.
    assert stale.get_json()["current_version"] == version + 1
    assert stale.get_json()["detail"].startswith(f"The game is at version {version + 1}")
    after = services(app).games.store.load(game_id)
    assert (after.version, after.state) == (before.version, before.state)
    # The client catches up and plays on (a fresh read this time).
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200


def test_an_illegal_move_on_a_kept_state_is_refused_and_the_state_is_read_afterwards(
    app, client, monkeypatch
):
    game_id, tokens = create(client)
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    seat, version, move = next_move(client, game_id, tokens)
    refused = play(client, game_id, tokens[seat], {"type": "no_such_move"}, version)
    assert refused.status_code == 422 and refused.get_json()["code"] == "unknown_move_type"
    reads = count_reads(app, monkeypatch)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    assert reads == [game_id], "a state that met an error is not kept"


@pytest.fixture
def token_limited(settings, redis_client):
    return api_app(
        replace(settings, rate_limit_per_address=None, rate_limit_per_token=(4, 60)),
        redis_client=redis_client,
    )


def test_the_seat_token_limit_is_judged_by_the_commit_on_a_kept_state(token_limited, monkeypatch):
    client = token_limited.test_client()
    game_id, tokens = create(client, seed=5)
    local = registry.get("property").setup(2, {}, 5)
    rng = random.Random(9)
    version = 0
    reads = count_reads(token_limited, monkeypatch)
    answers = []
    while len(answers) < 12 and not local.is_over():
        seat = local.to_act()[0]
        move = rng.choice(local.legal_moves(seat))
        reply = play(client, game_id, tokens[seat], move, version)
        answers.append((seat, reply.status_code))
        if reply.status_code == 200:
            local.apply(seat, move)
            version += 1
        else:
            assert reply.status_code == 429 and reply.get_json()["code"] == "rate_limited"
            assert int(reply.headers["Retry-After"]) >= 1
            break
    stored = services(token_limited).games.store.load(game_id)
    assert stored.version == version, "a refused move wrote nothing"
    refused_seat = answers[-1][0]
    assert answers[-1][1] == 429
    assert sum(1 for seat, _ in answers if seat == refused_seat) == 5, (
        "the fifth request of a token is refused"
    )
    assert len(reads) < len(answers), "moves were judged on kept states"


def test_with_a_per_address_limit_a_kept_move_is_counted_by_its_commit(settings, redis_client, monkeypatch):
    app = api_app(
        replace(settings, rate_limit_per_address=(1000, 60), rate_limit_per_token=(1000, 60)),
        redis_client=redis_client,
    )
    client = app.test_client()
    address = client.environ_base["REMOTE_ADDR"] = an_address()
    game_id, tokens = create(client)
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    seat, version, move = next_move(client, game_id, tokens)

    def counted(scope: str, identity: str) -> int:
        pattern = f"sk:rl:*{scope}:{identity}[:}}]*"  # the identity whole, not a prefix of another
        return sum(int(redis_client.get(key) or 0) for key in redis_client.scan_iter(pattern))

    def both() -> tuple[int, int]:
        return counted("address", address), counted("token", token_key(tokens[seat]))

    before = both()
    reads = count_reads(app, monkeypatch)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    assert reads == [], "the kept state answered: no read"
    assert min(before) > 0 and both() == (before[0] + 1, before[1] + 1), (
        "both limits counted the move, in its commit script"
    )


def test_recent_states_keep_the_last_committed_and_answer_only_their_version():
    game = registry.get("property")
    recent = RecentStates(capacity=2)

    def stored(game_id, version):
        return StoredGame(game_id, version, "active", {}, {})

    for name in ("a", "b", "c"):
        recent.keep(stored(name, 3), game.setup(2, {}, 1))
    assert recent.take("a", 3) is None, "the least recently committed game was dropped"
    assert recent.take("b", 4) is None, "another version is not answered"
    assert recent.take("b", 3) is None, "an entry asked at another version is gone"
    taken = recent.take("c", 3)
    assert taken is not None and taken[0].version == 3
    assert recent.take("c", 3) is None, "a taken entry is out until a commit keeps it again"
    RecentStates(capacity=0).keep(stored("d", 1), game.setup(2, {}, 1))


def test_the_worker_keeps_no_states(app, worker_services):
    """A bot job reads its game before it moves: the workers' Games keeps nothing, the API's does."""
    assert worker_services.games.recent.capacity == 0
    assert services(app).games.recent.capacity == services(app).settings.recent_games > 0


def test_games_keep_nothing_when_told_so(redis_client):
    store = GameStore(redis_client, ttl_seconds=60, finished_ttl_seconds=60)
    games = Games(store, recent_games=0)
    assert games.recent.capacity == 0


def containers(value, found=None):
    """The ids of every list and dict inside ``value``."""
    found = set() if found is None else found
    if isinstance(value, dict):
        found.add(id(value))
        for item in value.values():
            containers(item, found)
    elif isinstance(value, list):
        found.add(id(value))
        for item in value:
            containers(item, found)
    return found


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_a_reply_shares_nothing_with_the_state_kept_for_the_next_move(app, client, title):
    seats = max(3, registry.get(title).min_seats)
    body = {"title": title, "seats": [{"kind": "human"}] * seats, "seed": 21}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    games = services(app).games
    local = registry.get(title).setup(seats, created["options"], 21)
    rng = random.Random(21)
    for version in range(40):
        if local.is_over():
            break
        seat = local.to_act()[0]
        move = rng.choice(local.legal_moves(seat))
        local.apply(seat, move)
        reply = games.act(game_id, tokens[seat], move, version)
        stored, kept = games.recent.take(game_id, version + 1)
        assert not containers(reply) & containers(kept.__dict__), f"version {version + 1}"
        games.recent.keep(stored, kept)


def moved_elsewhere(client, settings, redis_client, game_id, tokens):
    """Commit one move here (kept at its version), then one more from another API process."""
    seat, version, move = next_move(client, game_id, tokens)
    assert play(client, game_id, tokens[seat], move, version).status_code == 200
    other = api_app(settings, redis_client=redis_client).test_client()
    seat, version, move = next_move(other, game_id, tokens)
    assert play(other, game_id, tokens[seat], move, version).status_code == 200
    return seat, version, move


def test_a_kept_state_changes_no_answer_a_stale_illegal_move_is_still_a_409(
    app, client, settings, redis_client
):
    game_id, tokens = create(client, seed=13)
    seat, version, _ = moved_elsewhere(client, settings, redis_client, game_id, tokens)
    answer = play(client, game_id, tokens[seat], {"type": "no_such_move"}, version)
    assert answer.status_code == 409 and answer.get_json()["code"] == "stale_version"
    assert answer.get_json()["current_version"] == version + 1


def test_a_dry_run_is_judged_on_the_game_as_it_is_not_on_a_kept_state(app, client, settings, redis_client):
    game_id, tokens = create(client, seed=17)
    seat, version, move = moved_elsewhere(client, settings, redis_client, game_id, tokens)
    answer = client.post(
        f"/games/{game_id}/actions?dry_run=true",
        json={"move": move, "version": version},
        headers=bearer(tokens[seat]),
    )
    assert answer.status_code == 409 and answer.get_json()["code"] == "stale_version"
