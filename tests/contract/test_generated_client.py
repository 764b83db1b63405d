"""A Python client generated from openapi.yaml plays every title, through its typed calls only.

openapi-python-client (pinned in the dev extras) generates the client with no warning; the
test then plays one complete game of each title between human seats, and one with a bot at
seat 0, against the live server. Every reply must parse into the model of its own title (and
each move into the model of its own type), and ``to_dict()`` of every parsed reply must give
back exactly the JSON received: no raw fallback, no parse failure, no wrong-branch parse.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from engines import registry
from service.http.contract import SERVICE_EVENTS, pascal

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "skyline_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("client")
    tool = Path(sys.executable).with_name("openapi-python-client")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(tool), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none"]
        + ["--config", str(Path(__file__).with_name("openapi-python-client.yaml"))]
        + ["--output-path", str(out / PACKAGE)],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_generation_has_no_warning_and_the_package_imports(generated):
    models = importlib.import_module(f"{PACKAGE}.models")
    for game_id in registry.GAMES:
        for part in ("Game", "Moves", "ActionResult", "Events", "Record", "GameCreated", "View", "Result"):
            assert hasattr(models, pascal(game_id) + part), pascal(game_id) + part


class TypedPlayer:
    """Plays through the generated calls; counts every reply by how well it parsed."""

    def __init__(self, client_package, base_url: str) -> None:
        self.api = importlib.import_module(f"{PACKAGE}.api.games")
        for name in ("create_game", "get_game", "get_moves", "post_action", "get_events", "get_record"):
            importlib.import_module(f"{PACKAGE}.api.games.{name}")
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.client = client_package.Client(base_url=base_url, raise_on_unexpected_status=True, timeout=30)
        self.counts: Counter[str] = Counter()

    def call(self, operation, expected: str, **kwargs):
        """One typed call: its parsed reply, checked against the JSON received."""
        try:
            response = operation.sync_detailed(client=self.client, **kwargs)
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            self.counts["parse_failures"] += 1
            raise AssertionError(f"{operation.__name__} did not parse: {error!r}") from error
        parsed = response.parsed
        if response.status_code == 409 and type(parsed).__name__ == "Problem":
            # A bot moved between our listing and our move: the typed problem says so.
            assert parsed.code == "stale_version" and parsed.to_dict() == json.loads(response.content)
            self.counts["stale_versions"] += 1
            return None
        if parsed is None:
            self.counts["raw_fallbacks"] += 1
            raise AssertionError(f"{operation.__name__}: {response.status_code} {response.content[:300]!r}")
        if type(parsed).__name__ != expected:
            self.counts["wrong_branch"] += 1
            raise AssertionError(f"{operation.__name__} parsed as {type(parsed).__name__}, not {expected}")
        received = json.loads(response.content)
        assert parsed.to_dict() == received, f"{expected}.to_dict() differs from the JSON received"
        self.counts["typed_replies"] += 1
        return parsed

    def check_moves(self, title: str, moves) -> None:
        for listed in moves:
            expected = pascal(title) + pascal(listed.move.type_) + "Move"
            if type(listed.move).__name__ != expected:
                self.counts["wrong_branch"] += 1
                raise AssertionError(f"{listed.move!r} parsed as {type(listed.move).__name__}")
            self.counts["typed_moves"] += 1

    def check_events(self, title: str, events) -> None:
        for event in events:
            # The service's own events (seats and time) are one component for every title.
            expected = SERVICE_EVENTS.get(event.type_) or pascal(title) + pascal(event.type_) + "Event"
            if type(event).__name__ != expected:
                self.counts["wrong_branch"] += 1
                raise AssertionError(f"{event!r} parsed as {type(event).__name__}, not {expected}")
            self.counts["typed_events"] += 1

    def play(self, title: str, seats: list[dict], options: dict, seed: int, rng: random.Random) -> None:
        m = self.models
        T = pascal(title)
        body = getattr(m, T + "CreateGameRequest").from_dict(
            {"title": title, "seats": seats, "options": options, "seed": seed}
        )
        created = self.call(self.api.create_game, T + "GameCreated", body=body)
        tokens = {human.seat: f"Bearer {human.token}" for human in created.human_seats}
        assert sorted(tokens) == [i for i, seat in enumerate(seats) if seat["kind"] == "human"]
        to_act, status = created.to_act, created.status
        # Only a stop for a hung game: New York played at random by humans (who may take back
        # their own buildings, which the random bot avoids) runs to thousands of moves, ~170 s
        # on a quiet machine, and went past 240 s under the suite's own load.
        deadline = time.monotonic() + 600
        while status != "finished":
            assert time.monotonic() < deadline, f"{title} did not finish in time"
            humans = [seat for seat in to_act if seat in tokens]
            if not humans:
                time.sleep(0.02)  # a bot is thinking, in the worker
                shown = self.call(
                    self.api.get_game, T + "Game", game_id=created.id, authorization=tokens[min(tokens)]
                )
                assert type(shown.view).__name__ == T + "View"
                to_act, status = shown.to_act, shown.status
                continue
            seat = rng.choice(humans)
            listing = self.call(
                self.api.get_moves, T + "Moves", game_id=created.id, authorization=tokens[seat]
            )
            self.check_moves(title, listing.moves)
            choice = rng.choice(listing.moves).move
            request = m.ActionRequest(move=choice, version=listing.version)
            reply = self.call(
                self.api.post_action,
                T + "ActionResult",
                game_id=created.id,
                body=request,
                authorization=tokens[seat],
            )
            if reply is None:
                continue  # stale: list again
            assert type(reply.view).__name__ == T + "View"
            self.check_events(title, reply.events)
            to_act, status = reply.to_act, reply.status
        shown = self.call(
            self.api.get_game, T + "Game", game_id=created.id, authorization=tokens[min(tokens)]
        )
        assert type(shown.result).__name__ == T + "Result"
        record = self.call(self.api.get_record, T + "Record", game_id=created.id)
        self.check_moves(title, record.moves)
        log = self.call(self.api.get_events, T + "Events", game_id=created.id)
        assert len(log.events) == len(record.moves)
        for entry in log.events:
            self.check_events(title, entry.events)


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


def test_every_title_plays_through_the_typed_client(generated, live):
    player = TypedPlayer(generated, live)
    with player.client:
        for index, title in enumerate(sorted(registry.GAMES)):
            game = registry.GAMES[title]
            rng = random.Random(title)
            count = max(2, game.min_seats)
            for lineup in ([HUMAN] * count, [BOT] + [HUMAN] * (count - 1)):
                options = game.option_combinations(len(lineup))[0]
                player.play(title, lineup, options, seed=200 + index, rng=rng)
    print(f"typed client: {dict(player.counts)}")
    assert player.counts["raw_fallbacks"] == 0
    assert player.counts["parse_failures"] == 0
    assert player.counts["wrong_branch"] == 0
    assert player.counts["typed_replies"] > 100 and player.counts["typed_moves"] > 100


def test_a_lobby_game_through_the_typed_client(generated, live):
    """Create with an open seat, find it in the lobby, join, play, resign: every reply typed."""
    player = TypedPlayer(generated, live)
    m = player.models
    seats_api = importlib.import_module(f"{PACKAGE}.api.seats")
    for name in ("join_game", "get_lobby", "resign_game", "leave_game", "abort_game"):
        importlib.import_module(f"{PACKAGE}.api.seats.{name}")
    rng = random.Random(47)
    with player.client:
        body = m.PropertyCreateGameRequest.from_dict(
            {
                "title": "property",
                "seats": [{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}],
                "listed": True,
                "clock": {"turn_seconds": 3600},
            }
        )
        created = player.call(player.api.create_game, "PropertyGameCreated", body=body)
        assert created.status == "waiting" and created.to_act == []
        lobby = player.call(
            seats_api.get_lobby, "Lobby", title=m.GetLobbyTitle("property"), seats=2, limit=100
        )
        assert created.id in [game.id for game in lobby.games]
        joined = player.call(seats_api.join_game, "Joined", game_id=created.id, body=m.Join.from_dict({}))
        assert joined.seat == 1 and joined.status == "active"
        tokens = {0: f"Bearer {created.human_seats[0].token}", 1: f"Bearer {joined.token}"}
        for _ in range(4):
            shown = player.call(
                player.api.get_game, "PropertyGame", game_id=created.id, authorization=tokens[0]
            )
            assert set(shown.deadlines.to_dict()) == {str(seat) for seat in shown.to_act}
            seat = shown.to_act[0]
            listing = player.call(
                player.api.get_moves, "PropertyMoves", game_id=created.id, authorization=tokens[seat]
            )
            request = m.ActionRequest(move=rng.choice(listing.moves).move, version=listing.version)
            player.call(
                player.api.post_action,
                "PropertyActionResult",
                game_id=created.id,
                body=request,
                authorization=tokens[seat],
            )
        resigned = player.call(seats_api.resign_game, "Resigned", game_id=created.id, authorization=tokens[1])
        assert resigned.status == "finished"
        shown = player.call(player.api.get_game, "PropertyGame", game_id=created.id, authorization=tokens[0])
        assert type(shown.result).__name__ == "PropertyResult"
        assert shown.result.reason == "resignation" and shown.result.winners == [0]
        log = player.call(player.api.get_events, "PropertyEvents", game_id=created.id)
        for entry in log.events:
            player.check_events("property", entry.events)
        kinds = [event.type_ for entry in log.events for event in entry.events]
        assert kinds[:2] == ["seat_joined", "game_started"] and kinds[-1] == "seat_resigned"
        record = player.call(player.api.get_record, "PropertyRecord", game_id=created.id)
        assert len(record.moves) == 4
    assert (
        player.counts["raw_fallbacks"]
        == player.counts["parse_failures"]
        == player.counts["wrong_branch"]
        == 0
    )
