"""GET /games/{id}/versions/{n}: every reader gets, at every version, what GET /games/{id} gave it then.

Random games of every title (humans and bots, open seats joined, a seat left and taken again, a
resignation with a stand-in) are played in-process; at each version every seat's token and the
spectator read the game and its last log entry, and the versions route must answer the same. The
one field not of then is ``rematch`` (a finished game's rematch is asked for later): a version has
none. The bots are played here, through the same ``Games.act`` the worker calls.
"""

from __future__ import annotations

import random
from dataclasses import replace

import orjson
import pytest

from engines import registry
from service.http.services import services
from service.play.versions import Versions
from skyline.web import api_app

from .test_api import assert_problem, bearer

NOT_OF_THEN = ("rematch",)
MOVES_PER_GAME = 45


@pytest.fixture
def quiet_app(settings, redis_client):
    """The app without the bots' queue: the test plays the bot seats itself."""
    return api_app(replace(settings), redis_client=redis_client, enqueue_bots=False)


@pytest.fixture
def qclient(quiet_app):
    return quiet_app.test_client()


class Recorder:
    """Plays a game over the test client and keeps what every reader read at every version."""

    def __init__(self, app, client, game_id: str) -> None:
        self.app, self.client, self.game_id = app, client, game_id
        self.tokens: dict[int, str] = {}
        # (version, seat or None) -> (GET /games/{id}, the last entry of /events then)
        self.seen: dict[tuple[int, int | None], tuple[dict, dict | None]] = {}

    def read_all(self) -> dict:
        spectator = None
        for seat, token in [(None, None), *sorted(self.tokens.items())]:
            headers = bearer(token) if token else {}
            shown = self.client.get(f"/games/{self.game_id}", headers=headers).get_json()
            version = shown["version"]
            events = self.client.get(
                f"/games/{self.game_id}/events?since={max(version - 1, 0)}", headers=headers
            ).get_json()["events"]
            assert events == [] or events[-1]["version"] == version
            self.seen[(version, seat)] = (shown, events[-1] if version > 0 else None)
            spectator = spectator or shown
        return spectator

    def play_bot(self, seat: int, rng: random.Random) -> None:
        games = services(self.app).games
        stored, state = games._load(self.game_id)
        move = rng.choice(state.legal_moves(seat))
        games.act(self.game_id, None, move, stored.version, bot_seat=seat, wake_bots=False)

    def play_human(self, seat: int, rng: random.Random) -> None:
        listing = self.client.get(
            f"/games/{self.game_id}/moves", headers=bearer(self.tokens[seat])
        ).get_json()
        move = rng.choice(listing["moves"])["move"]
        moved = self.client.post(
            f"/games/{self.game_id}/actions",
            json={"move": move, "version": listing["version"]},
            headers=bearer(self.tokens[seat]),
        )
        assert moved.status_code == 200, moved.get_json()

    def check_every_version(self) -> int:
        checked = 0
        for (version, seat), (shown, entry) in sorted(
            self.seen.items(), key=lambda kv: (kv[0][0], kv[0][1] or -1)
        ):
            token = self.tokens.get(seat) if seat is not None else None
            got = self.client.get(
                f"/games/{self.game_id}/versions/{version}", headers=bearer(token) if token else {}
            )
            assert got.status_code == 200, got.get_json()
            body = got.get_json()
            assert body.pop("entry") == entry, (version, seat)
            expected = {k: v for k, v in shown.items() if k not in NOT_OF_THEN}
            assert body == expected, (version, seat)
            checked += 1
        return checked


def _seats_for(title: str, rng: random.Random) -> list[dict]:
    bounds = registry.get(title).catalog_entry()["seats"]
    count = rng.randint(max(bounds["min"], 3), min(bounds["max"], 4))
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}, {"kind": "open"}]
    for _ in range(3, count):
        seats.append(rng.choice([{"kind": "bot", "bot": "random"}, {"kind": "open"}, {"kind": "human"}]))
    return seats


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_every_reader_gets_at_every_version_what_it_read_then(quiet_app, qclient, title):
    rng = random.Random(f"versions-{title}")
    seats = _seats_for(title, rng)
    # Half the games with a clock: the deadlines of then come with each version.
    clock = {"clock": {"turn_seconds": 600}} if rng.random() < 0.5 else {}
    created = qclient.post("/games", json={"title": title, "seats": seats, **clock}).get_json()
    game = Recorder(quiet_app, qclient, created["id"])
    game.tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    game.read_all()
    # With another seat open, seat 1 is joined, left, and joined again by another player.
    if sum(s["kind"] == "open" for s in created["seats"]) > 1:
        first = qclient.post(f"/games/{created['id']}/join", json={"seat": 1, "name": "Cy"}).get_json()
        game.tokens[1] = first["token"]
        game.read_all()
        assert (
            qclient.post(f"/games/{created['id']}/leave", headers=bearer(first["token"])).status_code == 200
        )
        del game.tokens[1]
        game.read_all()
    for seat in [s["seat"] for s in created["seats"] if s["kind"] == "open"]:
        joined = qclient.post(f"/games/{created['id']}/join", json={"seat": seat}).get_json()
        game.tokens[seat] = joined["token"]
        game.read_all()
    resigned = False
    for _ in range(MOVES_PER_GAME):
        shown = game.read_all()
        if shown["status"] != "active":
            break
        humans = [s["seat"] for s in shown["seats"] if s["kind"] == "human"]
        if not resigned and len(shown["seats"]) > 2 and shown["version"] > 12 and len(humans) > 1:
            quitter = humans[-1]
            assert (
                qclient.post(
                    f"/games/{created['id']}/resign", headers=bearer(game.tokens[quitter])
                ).status_code
                == 200
            )
            resigned = True
            continue
        seat = shown["to_act"][0]
        if shown["seats"][seat]["kind"] == "bot":
            game.play_bot(seat, rng)
        else:
            game.play_human(seat, rng)
    game.read_all()
    assert resigned or len(seats) == 2
    assert game.check_every_version() >= MOVES_PER_GAME


def _two_seat_game(client, title="property"):
    created = client.post(
        "/games", json={"title": title, "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).get_json()
    return created["id"], {s["seat"]: s["token"] for s in created["human_seats"]}


def test_a_seat_view_by_number_is_refused_while_the_game_runs_and_public_once_it_is_over(qclient):
    game_id, tokens = _two_seat_game(qclient)
    rng = random.Random(5)
    seen = {}
    for _ in range(6):
        shown = qclient.get(f"/games/{game_id}").get_json()
        seat = shown["to_act"][0]
        for reader in (0, 1):
            seen[(shown["version"], reader)] = qclient.get(
                f"/games/{game_id}", headers=bearer(tokens[reader])
            ).get_json()
        listing = qclient.get(f"/games/{game_id}/moves", headers=bearer(tokens[seat])).get_json()
        move = rng.choice(listing["moves"])["move"]
        qclient.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": listing["version"]},
            headers=bearer(tokens[seat]),
        )
    before = qclient.get(f"/games/{game_id}").get_json()
    refused = qclient.get(f"/games/{game_id}/versions/2?seat=0")
    assert_problem(refused, 409, "seat_view_while_running")
    assert_problem(
        qclient.get(f"/games/{game_id}/versions/2?seat=0", headers=bearer(tokens[0])),
        409,
        "seat_view_while_running",
    )
    assert qclient.get(f"/games/{game_id}").get_json() == before  # nothing changed
    assert qclient.post(f"/games/{game_id}/resign", headers=bearer(tokens[1])).status_code == 200
    for (version, reader), shown in seen.items():
        got = qclient.get(f"/games/{game_id}/versions/{version}?seat={reader}")
        assert got.status_code == 200
        assert got.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        body = got.get_json()
        body.pop("entry")
        assert body == shown
    assert_problem(qclient.get(f"/games/{game_id}/versions/1?seat=2"), 422, "no_such_seat")


def test_a_seat_token_never_gets_another_seats_hidden_facts(qclient, quiet_app):
    """At every version of a running game a seat's reply is its own view of the replayed state,
    never another seat's (nor, before the end, the whole state)."""
    game_id, tokens = _two_seat_game(qclient)
    rng = random.Random(9)
    game = registry.get("property")
    for _ in range(8):
        shown = qclient.get(f"/games/{game_id}").get_json()
        seat = shown["to_act"][0]
        listing = qclient.get(f"/games/{game_id}/moves", headers=bearer(tokens[seat])).get_json()
        move = rng.choice(listing["moves"])["move"]
        qclient.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": listing["version"]},
            headers=bearer(tokens[seat]),
        )
    stored = services(quiet_app).games.store.load(game_id)
    log = services(quiet_app).games.store.log(game_id)
    state = game.setup(2, stored.meta["options"], stored.meta["seed"])
    for version in range(stored.version + 1):
        if version:
            entry = log[version - 1]
            state.apply_listed(entry["seat"], entry["move"])
        views = {seat: orjson.loads(orjson.dumps(state.view(seat))) for seat in (0, 1)}
        assert views[0] != views[1]
        for seat in (0, 1):
            body = qclient.get(
                f"/games/{game_id}/versions/{version}", headers=bearer(tokens[seat])
            ).get_json()
            assert body["view"] == views[seat] and body["you"] == seat
            if body["entry"] is not None and body["entry"]["seat"] != seat:
                assert "move" not in body["entry"]


def test_bad_and_missing_versions_and_immutable_headers(qclient):
    game_id, tokens = _two_seat_game(qclient)
    assert_problem(qclient.get(f"/games/{game_id}/versions/1"), 404, "version_not_found")
    for bad in ("-1", "x", "1.5", "9" * 30, "%C2%B2"):
        assert_problem(qclient.get(f"/games/{game_id}/versions/{bad}"), 422, "invalid_version")
    assert_problem(qclient.get("/games/nope/versions/0"), 404, "game_not_found")
    assert_problem(
        qclient.get(f"/games/{game_id}/versions/0", headers=bearer("x" * 20)), 401, "invalid_token"
    )
    assert_problem(qclient.get(f"/games/{game_id}/versions/0?seat=x"), 422, "invalid_request")
    public = qclient.get(f"/games/{game_id}/versions/0")
    assert public.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert public.headers["Vary"] == "Authorization" and public.headers["ETag"]
    private = qclient.get(f"/games/{game_id}/versions/0", headers=bearer(tokens[0]))
    assert private.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    again = qclient.get(
        f"/games/{game_id}/versions/0",
        headers={**bearer(tokens[0]), "If-None-Match": private.headers["ETag"]},
    )
    assert again.status_code == 304 and again.headers["ETag"] == private.headers["ETag"]
    for picture, kind in (("board.svg", "image/svg+xml"), ("board.txt", "text/plain")):
        drawn = qclient.get(f"/games/{game_id}/versions/0/{picture}", headers=bearer(tokens[0]))
        assert drawn.status_code == 200 and drawn.mimetype == kind
        assert drawn.headers["Cache-Control"] == "private, max-age=31536000, immutable"
        now = qclient.get(f"/games/{game_id}/{picture}", headers=bearer(tokens[0]))
        assert drawn.data == now.data  # version 0 is the game now


def test_a_read_replays_at_most_a_checkpoint_interval(quiet_app, qclient, monkeypatch):
    game_id, tokens = _two_seat_game(qclient)
    rng = random.Random(3)
    for _ in range(40):
        shown = qclient.get(f"/games/{game_id}").get_json()
        if shown["status"] != "active":
            break
        seat = shown["to_act"][0]
        listing = qclient.get(f"/games/{game_id}/moves", headers=bearer(tokens[seat])).get_json()
        qclient.post(
            f"/games/{game_id}/actions",
            json={"move": rng.choice(listing["moves"])["move"], "version": listing["version"]},
            headers=bearer(tokens[seat]),
        )
    versions = Versions(services(quiet_app).games, every=8)
    last = services(quiet_app).games.store.load(game_id).version
    assert last >= 30
    cold, _ = versions.show(game_id, last - 1, None)
    assert len(versions.checkpoints) == (last - 1) // 8
    replayed: list[int] = []
    store = versions.games.store
    real_log = store.log

    def counting_log(game, start=0, end=-1):
        entries = real_log(game, start, end)
        replayed.append(len(entries))
        return entries

    monkeypatch.setattr(store, "log", counting_log)
    for version in range(last):
        replayed.clear()
        warm, _ = versions.show(game_id, version, None)
        assert all(count <= 8 for count in replayed), (version, replayed)
    assert warm["version"] == last - 1 and warm == cold


def test_a_game_played_to_its_end_after_a_resignation_reads_the_same_at_every_version(quiet_app, qclient):
    """Three seats, one resigns and a stand-in plays it to the end: every version reads as it was
    read (results re-ranked once the game is over, none before), and each seat's reads are then
    public by number."""
    rng = random.Random(12)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = qclient.post("/games", json={"title": "property", "seats": seats}).get_json()
    game = Recorder(quiet_app, qclient, created["id"])
    game.tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    for _ in range(2000):
        shown = game.read_all()
        if shown["status"] == "finished":
            break
        if shown["version"] == 5:
            assert (
                qclient.post(f"/games/{created['id']}/resign", headers=bearer(game.tokens[1])).status_code
                == 200
            )
            continue
        seat = shown["to_act"][0]
        if shown["seats"][seat]["kind"] == "bot":
            game.play_bot(seat, rng)
        else:
            game.play_human(seat, rng)
    assert shown["status"] == "finished" and shown["result"]["resigned"] == [False, True, False]
    game.check_every_version()
    for (version, seat), (read, entry) in game.seen.items():
        if seat is None:
            continue
        public = qclient.get(f"/games/{created['id']}/versions/{version}?seat={seat}")
        assert public.status_code == 200 and public.headers["Cache-Control"].startswith("public")
        body = public.get_json()
        assert body.pop("entry") == entry and body == read
