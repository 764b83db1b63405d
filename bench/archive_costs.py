"""What a game costs Redis before and after the archive, and one archiver's throughput (issue 54).

Starts an embedded Redis (AOF off) and an embedded PostgreSQL with its default settings (fsync
on, as `skyline serve` runs it), then plays random games of every title in this process, through
``Games.act`` on that Redis (the commits, keys and log of any game; no HTTP: the bytes are what is
measured, not the requests), every seat a human's, 2 to 4 seats. For each game, the Redis bytes of
its keys (``MEMORY USAGE <key> SAMPLES 0``, summed over ``SCAN MATCH sk:{id}:*``):

- live: at the version nearest the middle of the game (measured every 8 versions while playing);
- ended: once it ended, before the archive has it;
- archived, in the grace: after the archiver wrote it (the hash marked, the keys expiring);
- after the grace: the archiver runs with a grace of 20 s, waited out: the game's keys are
  counted again (and must be none).

Throughput: every ended game waits in ``sk:archive-due``; one ``worker.archiver.Archiver`` (the
bot worker's thread, its pool of 2) runs ``archive_once`` until none is due, timed end to end;
then the same games' ``archived_game`` (the snapshots replayed by the engine, CPU only) is timed
alone, to tell the replay from the write. Last, PostgreSQL's bytes per archived game
(``pg_total_relation_size`` of the archive's tables and their partitions, divided by the games),
before and after the compact archive in one run: the same games are also written, in a scratch
database migrated to 0002 only, in the form of the release before it (a row per version, each
entry whole as JSON, a snapshot every 64 versions), and in another, migrated to the head, as the
first compact archive wrote them ("first compact": 0003 as first released, no dictionary, a move's
time inside its entry, the row updated with its position: harness/old_archive.py); and each
game's row bytes by title. ``--ended-per-title 10``: at least 10 ended games of each title.

Before and after the compact log (issue 62), in one run: each ended game's log is also written,
in a scratch key, as today's release wrote it (each entry whole: its events, as JSON) and as JSON
without the events, and measured the same way ("before" and "JSON, no events" bytes per version).
Latency (p50/p99, in this process, no HTTP): each move (``Games.act``), a live read
(``Games.show``) and a version read at a random n (``Versions.show``), live before the archive
and archived after the grace (the archive's log and snapshots).

Usage:
    python bench/archive_costs.py [--games-per-title 10] [--seed 54] [--max-moves 3000] [--ended-per-title 10]
Not a test; record the printed tables in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402
import psycopg  # noqa: E402
import redis  # noqa: E402

from bench.measure import percentile  # noqa: E402
from engines import registry  # noqa: E402
from harness.old_archive import OLD_TABLES, old_migrations, write_first_compact_form  # noqa: E402
from harness.old_archive import write_old_form as write_old_archive  # noqa: E402
from service.archive.records import ArchivedGame, Snapshot  # noqa: E402
from service.archive.schema import migrate  # noqa: E402
from service.config import Settings  # noqa: E402
from service.http.services import services  # noqa: E402
from service.play.archiving import archived_game, with_whole_log  # noqa: E402
from service.play.games import Games  # noqa: E402
from service.play.replay import initial_state  # noqa: E402
from service.run.embedded import EmbeddedRedis  # noqa: E402
from service.run.postgres import EmbeddedPostgres  # noqa: E402
from service.store.archiving import ArchiveDue  # noqa: E402
from service.store.keys import ARCHIVE_DUE, game_key, log_key  # noqa: E402
from service.store.partitioned import PartitionedIndex
from skyline.web import api_app  # noqa: E402

try:  # the compact log (issue 62); absent from the releases before it
    from service.store.logform import LEADING
except ImportError:  # pragma: no cover
    LEADING = ""
from worker.archiver import Archiver  # noqa: E402

# Longer than the archiving of every game takes, so that each is measured inside its grace.
GRACE_SECONDS = 20
# The compact archive (issue 62, migration 0003), partitioned: its partitions are summed.
ARCHIVE_TABLES = ("ended_games", "ended_seats")
# The form of the release before it (migrations 0001-0002), written in a scratch database.


def game_bytes(client: redis.Redis, game_id: str) -> int:
    """Redis's bytes for the game's own keys (its hash tag), every element counted."""
    total = 0
    for key in client.scan_iter(match=f"{game_key(game_id)}*", count=1000):
        total += int(client.memory_usage(key, samples=0) or 0)
    return total


@dataclass
class Played:
    title: str
    id: str
    version: int = 0
    live_bytes: int = 0
    ended_bytes: int = 0
    archived_bytes: int = 0
    after_grace_bytes: int = -1
    ended: bool = False
    samples: dict[int, int] = field(default_factory=dict)
    move_seconds: list[float] = field(default_factory=list)
    before_bytes: int = 0  # its keys with the log as today's release wrote it
    no_events_bytes: int = 0  # with the log as JSON without the events


def log_forms(games: Games, client: redis.Redis, played: Played) -> None:
    """The game's bytes with its log in the two other forms, in a scratch key of its slot."""
    stored = games.read(played.id)
    whole = games.log(stored)
    scratch = log_key(played.id) + ":bench"
    log_bytes = int(client.memory_usage(log_key(played.id), samples=0) or 0)
    for form, entries in (
        ("before", [orjson.dumps(entry) for entry in whole]),
        (
            "no_events",
            [
                orjson.dumps({k: v for k, v in entry.items() if k not in ("events", LEADING)})
                for entry in whole
            ],
        ),
    ):
        client.delete(scratch)
        if entries:
            client.rpush(scratch, *entries)
        other = int(client.memory_usage(scratch, samples=0) or 0)
        setattr(played, f"{form}_bytes", played.ended_bytes - log_bytes + other)
    client.delete(scratch)


def play(games: Games, client: redis.Redis, title: str, rng: random.Random, limit: int) -> Played:
    bounds = registry.get(title).catalog_entry()["seats"]
    count = rng.randint(bounds["min"], min(bounds["max"], 4))
    created = games.create({"title": title, "seats": [{"kind": "human"}] * count})
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    played = Played(title, created["id"])
    for _ in range(limit):
        stored, state = games._load(played.id)
        if stored.status != "active":
            break
        if stored.version % 8 == 0:
            played.samples[stored.version] = game_bytes(client, played.id)
        seat = state.to_act()[0]
        move = rng.choice(state.legal_moves(seat))
        started = time.perf_counter()
        games.act(played.id, tokens[seat], move, stored.version, wake_bots=False)
        played.move_seconds.append(time.perf_counter() - started)
    final = games.read(played.id)
    played.version, played.ended = final.version, final.status != "active"
    middle = min(played.samples, key=lambda version: abs(version - played.version / 2))
    played.live_bytes = played.samples[middle]
    played.ended_bytes = game_bytes(client, played.id)
    log_forms(games, client, played)
    return played


def read_latency(
    app: object, played: list[Played], rng: random.Random, reads: int
) -> tuple[list[float], list[float]]:
    """Seconds of ``reads`` live reads and as many version reads (a random n) per game, in turn."""
    found = services(app)
    live, versions = [], []
    for game in played:
        for _ in range(reads):
            started = time.perf_counter()
            found.games.show(game.id, None)
            live.append(time.perf_counter() - started)
            started = time.perf_counter()
            found.versions.show(game.id, rng.randint(0, game.version), None)
            versions.append(time.perf_counter() - started)
    return live, versions


def archive_all(client: redis.Redis, url: str, grace: int) -> tuple[int, float]:
    archiver = Archiver(ArchiveDue(client), url, interval_seconds=0, lease_seconds=600, grace_seconds=grace)
    written = 0
    try:
        archiver.archive.pool.wait(timeout=30)  # connected before the clock starts
        started = time.perf_counter()
        while ArchiveDue(client).due():
            written += archiver.archive_once()["written"]
        return written, time.perf_counter() - started
    finally:
        archiver.stop()


def archive_bytes(url: str, tables: tuple[str, ...] = ARCHIVE_TABLES) -> int:
    """pg_total_relation_size of ``tables`` (indexes and TOAST included), their partitions summed."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
        total = 0
        for table in tables:
            # A table that is not partitioned is its own one-row tree (pg_partition_tree gives none).
            row = connection.execute(
                "SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(%s) "
                "WHERE relid <> %s::regclass), pg_total_relation_size(%s))",
                (table, table, table),
            ).fetchone()
            total += int(row[0]) if row and row[0] is not None else 0
    return total


def row_bytes(url: str, query: str, game_ids: list[str]) -> dict[str, int]:
    """Each game's row bytes (pg_column_size of its rows: heap tuples, compressed values as
    stored, without pages and indexes), by ``query`` (game_id, bytes) over ``game_ids``."""
    with psycopg.connect(url) as connection:
        return {game: int(size) for game, size in connection.execute(query, (game_ids,)).fetchall()}


_NEW_ROWS = """
SELECT g.id, pg_column_size(g.*) + (SELECT sum(pg_column_size(s.*)) FROM ended_seats s WHERE s.game_id = g.id)
FROM ended_games g WHERE g.id = ANY(%s)
"""
_OLD_ROWS = """
SELECT g.id, pg_column_size(g.*)
    + (SELECT coalesce(sum(pg_column_size(l.*)), 0) FROM archived_log l WHERE l.game_id = g.id)
    + (SELECT sum(pg_column_size(n.*)) FROM archived_snapshots n WHERE n.game_id = g.id)
    + (SELECT sum(pg_column_size(s.*)) FROM archived_seats s WHERE s.game_id = g.id)
FROM archived_games g WHERE g.id = ANY(%s)
"""


def write_old_form(url: str, games: list[ArchivedGame]) -> None:
    """``games`` as the release before the compact archive wrote them (harness.old_archive), with
    the state every 64 versions from the setup's: the setup's state is snapshot 0."""
    write_old_archive(
        url,
        [
            replace(
                game,
                snapshots=(
                    Snapshot(0, orjson.dumps(initial_state(orjson.loads(game.meta)).to_dict())),
                    *(s for s in game.snapshots if s.version != 0),
                ),
            )
            for game in games
        ],
    )


def scratch_database(server: EmbeddedPostgres, name: str) -> str:
    """A scratch database migrated to the head."""
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}".encode())
    url = server.url_of(name)
    migrate(url)
    return url


def old_form_database(server: EmbeddedPostgres, folder: Path) -> str:
    """A scratch database with the schema of the release before (migrations 0001-0002 only)."""
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute("CREATE DATABASE before_compact")
    old = old_migrations(folder / "old-migrations")
    url = server.url_of("before_compact")
    migrate(url, old)
    return url


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games-per-title", type=int, default=10)
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--max-moves", type=int, default=3000)
    parser.add_argument("--ended-per-title", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="skyline-bench-archive-"))
    for part in ("redis", "postgres"):
        (folder / part).mkdir()
    redis_server = EmbeddedRedis(folder / "redis", appendonly=False).start()
    postgres = EmbeddedPostgres(folder / "postgres").start()  # its default settings: fsync on
    client = redis.Redis.from_url(redis_server.url)
    try:
        migrate(postgres.url)
        settings = replace(Settings.from_env(), redis_url=redis_server.url, database_url=postgres.url)
        app = api_app(settings, redis_client=client, enqueue_bots=False)
        games: Games = services(app).games
        started = time.perf_counter()
        every = []
        for title in sorted(registry.GAMES):
            mine = [play(games, client, title, rng, args.max_moves) for _ in range(args.games_per_title)]
            # --ended-per-title: more games of the title until that many ended (four times as many
            # at most): random New York games often go past --max-moves.
            while (
                sum(game.ended for game in mine) < args.ended_per_title
                and len(mine) < 4 * args.ended_per_title
            ):
                mine.append(play(games, client, title, rng, args.max_moves))
            every += mine
        # Random moves can go on for very long (a Property game without an end in sight): those
        # games stay live, out of the figures.
        played = [game for game in every if game.ended]
        print(
            f"{len(every)} games played in {time.perf_counter() - started:.0f} s; "
            f"{len(every) - len(played)} not over after {args.max_moves} moves, left out",
            flush=True,
        )
        assert int(PartitionedIndex(client, ARCHIVE_DUE).size()) == len(played)

        live_reads, live_versions = read_latency(app, played, rng, 20)
        # The replay alone (CPU), over the games as Redis holds them, before they are archived.
        due = ArchiveDue(client)
        started = time.perf_counter()
        made = []
        for game in played:
            ended = due.read(game.id)
            assert ended is not None
            made.append(archived_game(ended))
        replay_seconds = time.perf_counter() - started
        # Before, in the same run: the same games in the form of the release before the compact
        # archive (each entry whole, the events made by the replay as that release did).
        before_url = old_form_database(postgres, folder)
        write_old_form(before_url, [with_whole_log(game) for game in made])
        # And as the first compact archive wrote them (0003 as first released: no dictionary, each
        # move's time inside its entry, the row updated with its position).
        first_url = scratch_database(postgres, "first_compact")
        write_first_compact_form(first_url, made)

        began = time.monotonic()
        written, seconds = archive_all(client, postgres.url, grace=GRACE_SECONDS)
        released = time.monotonic()  # the last game let go (its keys expire a grace later)
        assert written == len(played), written
        for game in played:
            game.archived_bytes = game_bytes(client, game.id)
        assert time.monotonic() - began < GRACE_SECONDS, "the first grace ran out before it was measured"
        time.sleep(released + GRACE_SECONDS + 2.5 - time.monotonic())  # and Redis's expiry cycle
        for game in played:
            game.after_grace_bytes = game_bytes(client, game.id)
        stored_bytes = archive_bytes(postgres.url)
        before_bytes = archive_bytes(before_url, OLD_TABLES)
        first_bytes = archive_bytes(first_url)
        ids = [game.id for game in played]
        now_rows = row_bytes(postgres.url, _NEW_ROWS, ids)
        before_rows = row_bytes(before_url, _OLD_ROWS, ids)
        first_rows = row_bytes(first_url, _NEW_ROWS, ids)
        _, archived_versions = read_latency(app, played, rng, 20)

        print(
            "| title | games | versions (median) | live bytes (median) | ended "
            "| archived, in the grace | after the grace |"
        )
        print("|---|---|---|---|---|---|---|")
        for title in sorted(registry.GAMES):
            mine = [game for game in played if game.title == title]
            if not mine:
                print(f"| {title} | 0 | | | | | |")
                continue

            def median(values: list[int]) -> int:
                return int(statistics.median(values))

            print(
                f"| {title} | {len(mine)} | {median([g.version for g in mine])} "
                f"| {median([g.live_bytes for g in mine])} | {median([g.ended_bytes for g in mine])} "
                f"| {median([g.archived_bytes for g in mine])} | {max(g.after_grace_bytes for g in mine)} |"
            )
        print()
        print("Redis bytes per version at the game's end (ended bytes over versions):")
        print()
        print(
            "| title | before: median | before: largest | JSON, no events: median "
            "| now: median | now: largest |"
        )
        print("|---|---|---|---|---|---|")
        per_version: list[float] = []
        for title in sorted(registry.GAMES):
            mine = [game for game in played if game.title == title and game.version]
            if not mine:
                continue
            now = [game.ended_bytes / game.version for game in mine]
            before = [game.before_bytes / game.version for game in mine]
            no_events = [game.no_events_bytes / game.version for game in mine]
            per_version.append(statistics.median(now))
            print(
                f"| {title} | {statistics.median(before):.0f} | {max(before):.0f} "
                f"| {statistics.median(no_events):.0f} | {statistics.median(now):.0f} | {max(now):.0f} |"
            )
        print()
        print(f"Median over the titles (now): {statistics.median(per_version):.0f} bytes a version")
        moves = [seconds for game in played for seconds in game.move_seconds]
        print()
        print("| latency (ms) | count | p50 | p99 | p99 / live read's |")
        print("|---|---|---|---|---|")
        live_p99 = percentile(live_reads, 0.99)
        for name, values in (
            ("a move (Games.act)", moves),
            ("a live read (Games.show)", live_reads),
            ("a version read, live (random n)", live_versions),
            ("a version read, archived (random n)", archived_versions),
        ):
            print(
                f"| {name} | {len(values)} | {percentile(values, 0.5) * 1000:.2f} "
                f"| {percentile(values, 0.99) * 1000:.2f} | {percentile(values, 0.99) / live_p99:.1f} |"
            )
        print()
        total_versions = sum(game.version for game in played)
        print()
        print("| archiver | games | versions | seconds | games/s | versions/s |")
        print("|---|---|---|---|---|---|")
        print(
            f"| archive_once until none is due (replay + write) | {written} | {total_versions} "
            f"| {seconds:.2f} | {written / seconds:.1f} | {total_versions / seconds:.0f} |"
        )
        print(
            f"| archived_game alone (the snapshots' replay) | {len(played)} | {total_versions} "
            f"| {replay_seconds:.2f} | {len(played) / replay_seconds:.1f} "
            f"| {total_versions / replay_seconds:.0f} |"
        )
        print()
        print("PostgreSQL, an ended game's row bytes (pg_column_size, median and largest by title):")
        print()
        print(
            "| title | games | before: median | before: largest | first compact: median "
            "| first compact: largest | now: median | now: largest |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for title in sorted(registry.GAMES):
            mine = [game.id for game in played if game.title == title]
            if not mine:
                continue
            old = [before_rows[game] for game in mine]
            first = [first_rows[game] for game in mine]
            new = [now_rows[game] for game in mine]
            print(
                f"| {title} | {len(mine)} | {statistics.median(old):.0f} | {max(old)} "
                f"| {statistics.median(first):.0f} | {max(first)} "
                f"| {statistics.median(new):.0f} | {max(new)} |"
            )
        print()
        print(
            f"PostgreSQL, pg_total_relation_size (tables, partitions, indexes, TOAST) over {len(played)} "
            f"games: before {before_bytes} bytes, {before_bytes // len(played)} a game; "
            f"first compact {first_bytes} bytes, {first_bytes // len(played)} a game; "
            f"now {stored_bytes} bytes, {stored_bytes // len(played)} a game"
        )
        services(app).games.repository.close()
    finally:
        client.close()
        postgres.stop()
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
