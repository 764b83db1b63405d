"""Issue 65: an import never overwrites a game and never writes one the service cannot serve.

`skyline import` on a real PostgreSQL (and, for live games, a real Redis): every hostile file of
the issue is refused with the line named, no traceback, and nothing of the file written; a game live
in Redis under an imported id is left to be archived as it was played. The command runs by its
``main`` in the test's process (test_export.py's ``skyline_here``): what is proven is its reading of
the file; a real process's refusal of a live id is tests/ops/test_archive_outage.py's.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest

from service.archive.archive import Archive
from service.archive.records import ArchivedGame
from service.run.postgres import EmbeddedPostgres
from service.store.keys import game_key
from worker.archiver import Archiver

from ..service.test_api import _play_to_the_end, create, tokens
from .conftest import new_database, rows_of
from .played import played_game
from .test_export import archived, served_as_written, skyline_here


@pytest.fixture(scope="module")
def games() -> list[ArchivedGame]:
    return [
        played_game("fresh-fish", seed=3),
        played_game("property", seed=4),
        played_game("fresh-fish", seed=5),
    ]


@pytest.fixture(scope="module")
def exported(postgres: EmbeddedPostgres, games: list[ArchivedGame], tmp_path_factory) -> list[dict[str, Any]]:
    """The games' export lines, parsed."""
    path = tmp_path_factory.mktemp("export") / "games.ndjson"
    done = skyline_here("export", "-o", str(path), url=archived(new_database(postgres), games))
    assert done.returncode == 0, done.stderr
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def file_of(lines: list[dict[str, Any] | bytes]) -> bytes:
    return b"".join((line if isinstance(line, bytes) else orjson.dumps(line)) + b"\n" for line in lines)


def copy(line: dict[str, Any]) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(line))


def meta_of(line: dict[str, Any]) -> dict[str, Any]:
    return orjson.loads(line["archive"]["meta"])


def set_meta(line: dict[str, Any], meta: dict[str, Any]) -> None:
    line["archive"]["meta"] = orjson.dumps(meta).decode()


def set_entry(line: dict[str, Any], index: int, entry: Any) -> None:
    line["archive"]["log"][index]["entry"] = orjson.dumps(entry).decode()


def entry_of(line: dict[str, Any], index: int) -> dict[str, Any]:
    return orjson.loads(line["archive"]["log"][index]["entry"])


def refused(url: str, data: bytes, line: int, *reasons: str, merge: bool = False) -> str:
    done = skyline_here("import", *(["--merge"] if merge else []), "-", url=url, stdin=data)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err, err
    assert f"skyline import: line {line}: " in err, err
    for reason in reasons:
        assert reason in err, err
    assert "nothing of the file was written" in err
    assert len(err) < 4000, "a refusal quotes a value cut short, not megabytes of it"
    return err


def hostile(line: dict[str, Any], case: str) -> dict[str, Any]:
    bad = copy(line)
    if case == "empty-entry":
        set_entry(bad, 2, {})
    elif case == "events-boom":
        set_entry(bad, 2, {**entry_of(bad, 2), "events": "boom"})
    elif case == "events-not-the-moves":
        entry = entry_of(bad, 2)
        set_entry(bad, 2, {**entry, "events": [*entry["events"], {"type": "extra"}]})
    elif case == "entry-not-object":
        set_entry(bad, 2, [1, 2])
    elif case in ("seat-without-kind", "seat-without-seat"):
        meta = meta_of(bad)
        del meta["seats"][0]["kind" if case == "seat-without-kind" else "seat"]
        set_meta(bad, meta)
    elif case == "archive-seat-without-kind":
        del bad["archive"]["seats"][0]["kind"]
    elif case == "megabyte-name":
        meta = meta_of(bad)
        meta["seats"][0]["name"] = "n" * 1_000_000
        set_meta(bad, meta)
        bad["record"]["seats"][0]["name"] = meta["seats"][0]["name"]
    elif case == "options-null":
        meta = meta_of(bad)
        meta["options"] = None
        set_meta(bad, meta)
        bad["record"]["options"] = None
    elif case in ("id-65", "id-slash", "id-nul"):
        bad["record"]["id"] = {"id-65": "a" * 65, "id-slash": "a/b", "id-nul": "a\x00b"}[case]
    return bad


HOSTILE = {
    "empty-entry": "Log entry 3's events are not a list",
    "events-boom": "Log entry 3's events are not a list",
    "events-not-the-moves": "Log entry 3's events are not those its move makes",
    "entry-not-object": "Log entry 3 is not a JSON object",
    "seat-without-kind": "Seat 0 of the meta has no 'kind'",
    "seat-without-seat": "Seat 0 of the meta has no 'seat'",
    "archive-seat-without-kind": "a seat's kind is missing",
    "megabyte-name": "Seat 0's name 'nnnn",
    "options-null": "The options None are not an object",
    "id-65": "is not one the service makes",
    "id-slash": "is not one the service makes",
    "id-nul": "is not one the service makes",
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_line_is_refused_by_its_number_and_nothing_of_the_file_is_written(
    postgres: EmbeddedPostgres, exported: list[dict[str, Any]], games: list[ArchivedGame], case: str
) -> None:
    target = new_database(postgres)
    refused(target, file_of([exported[0], hostile(exported[1], case), exported[2]]), 2, HOSTILE[case])
    for game in games:
        assert set(rows_of(target, game.id).values()) in ({0}, set())


def test_two_games_under_one_id_are_refused_with_both_lines_and_the_same_game_twice_is_once(
    postgres: EmbeddedPostgres, exported: list[dict[str, Any]], games: list[ArchivedGame]
) -> None:
    target = new_database(postgres)
    other = copy(exported[2])
    other["record"]["id"] = exported[0]["record"]["id"]  # another game under the first one's id
    refused(
        target, file_of([exported[0], exported[1], other]), 3, "is also line 1's", "two games under one id"
    )
    assert set(rows_of(target, games[0].id).values()) == {0}

    done = skyline_here("import", "-", url=target, stdin=file_of([exported[0], exported[1], exported[0]]))
    assert done.returncode == 0, done.stderr
    assert b"2 games written, 1 already archived" in done.stderr
    served_as_written(target, games[0])


def test_an_archived_id_is_refused_to_another_game_and_the_same_game_is_a_no_op(
    postgres: EmbeddedPostgres, exported: list[dict[str, Any]], games: list[ArchivedGame]
) -> None:
    target = archived(new_database(postgres), games[:1])
    other = copy(exported[2])
    other["record"]["id"] = games[0].id
    refused(target, file_of([exported[1], other]), 2, f"game {games[0].id} is archived already", merge=True)
    assert set(rows_of(target, games[1].id).values()) == {0}
    served_as_written(target, games[0])

    done = skyline_here("import", "--merge", "-", url=target, stdin=file_of(exported))
    assert done.returncode == 0, done.stderr
    assert b"2 games written, 1 already archived" in done.stderr
    for game in games:
        served_as_written(target, game)


def test_an_import_under_a_live_id_is_refused_and_the_live_game_is_archived_as_played(
    client,
    redis_server,
    archiver: Archiver,
    database_url: str,
    postgres: EmbeddedPostgres,
    exported: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch,
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_server.url)  # the import's live games
    live = create(client, seed=11)
    live_id = live["id"]
    intruder = copy(exported[1])
    intruder["record"]["id"] = live_id
    refused(database_url, file_of([exported[0], intruder]), 2, f"game {live_id} is live (in Redis)")
    assert set(rows_of(database_url, live_id).values()) == {0}

    _play_to_the_end(client, live_id, tokens(live))
    played = client.get(f"/games/{live_id}/record").get_json()
    assert archiver.archive_once()["written"] == 1
    with Archive(database_url) as archive:
        kept = archive.read_game(live_id)
        assert kept is not None and orjson.loads(kept.meta)["seed"] == 11
    # The archive's game is the one played: its export's record is the live game's record.
    out = tmp_path / "live.ndjson"
    assert skyline_here("export", "-o", str(out), url=database_url).returncode == 0
    (line,) = [orjson.loads(raw) for raw in out.read_bytes().splitlines()]
    assert line["record"] == played

    # The same game again, still in Redis (its grace) and in the archive: a no-op either way.
    elsewhere = new_database(postgres)
    done = skyline_here("import", str(out), url=elsewhere)
    assert done.returncode == 0 and b"0 games written, 1 already archived" in done.stderr, done.stderr
    done = skyline_here("import", "--merge", str(out), url=database_url)
    assert done.returncode == 0 and b"0 games written, 1 already archived" in done.stderr, done.stderr


def test_the_played_games_of_every_title_pass_the_checks(games: list[ArchivedGame]) -> None:
    from service.play.replays import check_as_made, replayed

    for game in games:
        check_as_made(game)
        assert replayed(dataclasses.replace(game, final_state=b"null")).final_state == game.final_state


def test_the_archiver_never_lets_a_game_go_when_another_holds_its_id(
    client, redis_client, archiver: Archiver, database_url: str, games: list[ArchivedGame]
) -> None:
    """What the import's checks guard against, guarded where it would do harm: a game written
    under a live id behind the import's back (by hand) keeps the live game in Redis."""
    live = create(client, seed=11)
    _play_to_the_end(client, live["id"], tokens(live))
    with Archive(database_url) as archive:
        assert archive.write_game(dataclasses.replace(games[0], id=live["id"]))
    assert archiver.archive_once() == {"written": 0, "already": 0, "retried": 1, "gone": 0}
    assert redis_client.hget(game_key(live["id"]), "archived") is None
    assert client.get(f"/games/{live['id']}/record").get_json()["seed"] == 11


def test_a_game_with_a_join_a_resignation_and_a_rematch_passes_the_checks_as_the_api_made_it(
    client, redis_client
) -> None:
    """The checks hold a game to what the API makes: one it made through its seat changes passes."""
    from service.archive.records import check
    from service.play.archiving import archived_game, with_whole_log
    from service.play.replays import check_as_made, replayed
    from service.store.archiving import ArchiveDue

    from ..service.test_api import bearer, first_move

    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}]
    created = client.post("/games", json={"title": "property", "seats": seats}).get_json()
    game_id = created["id"]
    joined = client.post(f"/games/{game_id}/join", json={"name": "Cy ✓"}).get_json()
    seat_tokens = {0: tokens(created)[0], joined["seat"]: joined["token"]}
    for _ in range(4):
        seat = client.get(f"/games/{game_id}").get_json()["to_act"][0]
        move, version = first_move(client, game_id, seat_tokens[seat])
        reply = client.post(
            f"/games/{game_id}/actions",
            json={"move": move, "version": version},
            headers=bearer(seat_tokens[seat]),
        )
        assert reply.status_code == 200, reply.get_json()
    assert client.post(f"/games/{game_id}/resign", headers=bearer(seat_tokens[1])).status_code == 200
    assert client.post(f"/games/{game_id}/rematch", headers=bearer(seat_tokens[0])).status_code == 201
    ended = ArchiveDue(redis_client).read(game_id)
    assert ended is not None and ended.status == "finished" and ended.rematch
    game = with_whole_log(archived_game(ended))  # as an export writes it: each entry whole
    check(game)
    check_as_made(game)
    assert replayed(dataclasses.replace(game, final_state=b"null")).final_state == game.final_state
