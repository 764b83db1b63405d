"""Migrations against a real PostgreSQL: each applied once, even by processes starting together."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from service.archive.schema import MIGRATIONS, MigrationError, load_migrations, migrate

from .conftest import ROOT, backend_state, wait_for

# Neither migration may run twice: the first creates a table (a second CREATE fails), and each
# notes which session applied it. The pause keeps the others knocking while the first holds the lock.
SLOW_FIRST = """
CREATE TABLE applied_by (migration integer, backend integer);
INSERT INTO applied_by VALUES (1, pg_backend_pid());
SELECT pg_sleep(0.5);
"""
SECOND = """
CREATE TABLE second_table (x integer);
INSERT INTO applied_by VALUES (2, pg_backend_pid());
"""


def folder_of(tmp_path: Path, *migrations: str) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir(exist_ok=True)
    for number, sql in enumerate(migrations, start=1):
        (folder / f"{number:04d}_step_{number}.sql").write_text(sql)
    return folder


def rows(url: str, query: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as connection:
        return connection.execute(query.encode()).fetchall()


def migrating_processes(
    url: str, folder: Path, count: int, application: str = "migrate"
) -> list[subprocess.Popen[str]]:
    """``count`` processes that each migrate ``url`` from ``folder`` at the same instant."""
    start_at = time.time() + 2.0  # after every interpreter has started
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from service.archive.schema import migrate\n"
        "time.sleep(max(0.0, float(sys.argv[3]) - time.time()))\n"
        "print(migrate(sys.argv[1], Path(sys.argv[2])))\n"
    )
    env = {**os.environ, "PGAPPNAME": application}
    return [
        subprocess.Popen(
            [sys.executable, "-c", code, url, str(folder), repr(start_at)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]


def outputs(processes: list[subprocess.Popen[str]]) -> list[str]:
    results = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        results.append(out.strip())
    return results


# The numbers of the project's own migrations (service/archive/migrations/NNNN_*.sql).
SHIPPED = sorted(int(path.name[:4]) for path in Path(MIGRATIONS).glob("*.sql"))


def test_the_schema_is_migrated_once_and_recorded(database: str) -> None:
    assert SHIPPED[:2] == [1, 2]
    assert migrate(database) == SHIPPED
    assert migrate(database) == []
    versions = rows(database, "SELECT version, name, checksum FROM archive_migrations")
    shipped = load_migrations()
    assert versions == [(m.version, m.name, m.checksum) for m in shipped]
    assert [(m.version, m.name) for m in shipped][:2] == [(1, "archive"), (2, "rematch")]
    tables = rows(database, "SELECT tablename FROM pg_tables WHERE tablename LIKE 'archived_%' ORDER BY 1")
    assert [t[0] for t in tables] == [
        "archived_games",
        "archived_log",
        "archived_seats",
        "archived_snapshots",
    ]
    # 0003: the compact archive, partitioned by the end, a default partition for every end.
    parents = rows(
        database, "SELECT relname FROM pg_class WHERE relkind = 'p' AND relname LIKE 'ended_%' ORDER BY 1"
    )
    assert [p[0] for p in parents] == ["ended_games", "ended_seats"]
    defaults = rows(
        database,
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' ORDER BY 1",
    )
    assert [d[0] for d in defaults] == ["ended_games_default", "ended_seats_default"]


def test_four_processes_migrating_at_once_apply_each_migration_once(database: str, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, SLOW_FIRST, SECOND)
    results = outputs(migrating_processes(database, folder, 4))
    assert sorted(results) == ["[1, 2]", "[]", "[]", "[]"]
    applied = rows(database, "SELECT migration, backend FROM applied_by ORDER BY migration")
    assert [migration for migration, _ in applied] == [1, 2]
    assert applied[0][1] == applied[1][1], "one session applied both, under one lock"
    assert [v for (v,) in rows(database, "SELECT version FROM archive_migrations ORDER BY 1")] == [1, 2]


def test_the_real_migrations_from_three_processes_at_once(database: str) -> None:
    results = outputs(migrating_processes(database, MIGRATIONS, 3))
    assert sorted(results) == [str(SHIPPED), "[]", "[]"]


def test_a_process_killed_while_migrating_leaves_nothing_and_no_lock(database: str, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "CREATE TABLE half (x integer);\nSELECT pg_sleep(60);\n")
    [killed] = migrating_processes(database, folder, 1, application="migrate-killed")
    try:
        wait_for(
            lambda: "pg_sleep" in (backend_state(database, "migrate-killed") or ("", "", ""))[2],
            what="the migration's sleep",
            process=killed,
        )
        killed.send_signal(signal.SIGKILL)
        killed.communicate()
        # The session ends with its client: its transaction rolls back and its lock goes with it.
        wait_for(lambda: backend_state(database, "migrate-killed") is None, what="the killed session's end")
    finally:
        if killed.poll() is None:
            killed.kill()
            killed.communicate()
    assert rows(database, "SELECT to_regclass('half')") == [(None,)]
    (folder / "0001_step_1.sql").write_text("CREATE TABLE half (x integer);\n")  # it never applied: no edit
    started = time.monotonic()
    assert migrate(database, folder) == [1]
    assert time.monotonic() - started < 5, "the lock was free"


def test_a_failing_migration_leaves_the_ones_before_it(database: str, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "CREATE TABLE one (x integer);", "CREATE TABLE two (x integer);\nSELEC 1;")
    with pytest.raises(psycopg.errors.SyntaxError):
        migrate(database, folder)
    assert rows(database, "SELECT version FROM archive_migrations") == [(1,)]
    assert rows(database, "SELECT to_regclass('two')") == [(None,)]
    (folder / "0002_step_2.sql").write_text("CREATE TABLE two (x integer);")
    assert migrate(database, folder) == [2]


def test_an_applied_migration_that_was_edited_is_refused(database: str, tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "CREATE TABLE one (x integer);")
    migrate(database, folder)
    (folder / "0001_step_1.sql").write_text("CREATE TABLE one (x integer, y integer);")
    with pytest.raises(MigrationError, match="edited after it was applied"):
        migrate(database, folder)


def test_a_database_ahead_of_the_code_is_left_alone(database: str, tmp_path: Path) -> None:
    newer = folder_of(tmp_path, "CREATE TABLE one (x integer);", "CREATE TABLE two (x integer);")
    migrate(database, newer)
    (newer / "0002_step_2.sql").unlink()
    assert migrate(database, newer) == []


@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["0001_a.sql", "0003_c.sql"], "without gaps"),
        (["0002_b.sql"], "without gaps"),
        (["0001_a.sql", "notes.txt"], "not a migration"),
        (["1_a.sql"], "not a migration"),
    ],
)
def test_a_folder_of_migrations_is_numbered_without_gaps(
    tmp_path: Path, names: list[str], reason: str
) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=reason):
        load_migrations(tmp_path)


def test_the_command_migrates(database: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "service.archive.schema", database], cwd=ROOT, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout.strip()) == (0, f"applied migrations {SHIPPED}")
    again = subprocess.run(
        [sys.executable, "-m", "service.archive.schema", database], cwd=ROOT, capture_output=True, text=True
    )
    assert again.stdout.strip() == "the archive's schema is up to date"
