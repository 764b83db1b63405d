"""The archive's schema, migrated at start: numbered SQL files, each applied once, under a lock.

``migrations/NNNN_<name>.sql`` are applied in order, each in a transaction of its own with its row
in ``archive_migrations`` (version, name, checksum), so a migration is either wholly applied and
recorded or not at all (PostgreSQL's DDL is transactional). Every process that starts migrates;
a session-level advisory lock lets one at a time in, and the next finds the work done. A process
killed while migrating loses its connection: its transaction rolls back and its lock is released.

An applied migration whose file changed since is refused (its checksum): a migration is never
edited, a new one is added. After them, under the same lock, the data step of 0003
(``convert.py``) moves the games archived in the old form to the compact one. Versions the
database has and this code does not know (a newer release migrated it) are left alone:
migrations only add, so older code keeps working beside them.

``python -m service.archive.schema <postgresql://...>`` migrates and says what it applied.
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from .convert import convert_old_games

MIGRATIONS = Path(__file__).with_name("migrations")


def lock_key(purpose: str) -> int:
    """An advisory lock's key (64 bits) of Skyline's own, that no other tool on the server uses."""
    return int.from_bytes(
        hashlib.sha256(f"skyline archive {purpose}".encode()).digest()[:8], "big", signed=True
    )


MIGRATION_LOCK = lock_key("migrations")


def notice_dead_clients(connection: psycopg.Connection[Any]) -> None:
    """Have the server end this session's statement within a second once its client is gone
    (killed), rather than when it next writes to it: a killed migrator or writer that waits on a
    lock, or sleeps, would otherwise keep its locks as long. PostgreSQL 14 and later."""
    if connection.info.server_version >= 140000:
        connection.execute("SET client_connection_check_interval = 1000")


_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS archive_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(RuntimeError):
    """The migrations cannot be applied as they stand (a bad folder, an edited migration, a server)."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load_migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """The migrations of ``folder``, numbered 1, 2, 3... with no gap and no other file."""
    migrations = []
    for path in sorted(folder.iterdir()):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise MigrationError(f"{path}: not a migration's name (NNNN_name.sql)")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    numbers = [migration.version for migration in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise MigrationError(f"{folder}: migrations must be numbered 1, 2, 3... without gaps: {numbers}")
    return migrations


def migrate(conninfo: str, folder: Path = MIGRATIONS) -> list[int]:
    """Apply what is not applied yet; return the versions this call applied (often none)."""
    migrations = load_migrations(folder)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        encoding = connection.execute("SHOW server_encoding").fetchone()
        if encoding is None or encoding[0].upper() not in ("UTF8", "UTF-8"):
            raise MigrationError(
                f"the archive needs a UTF8 database (JSON is kept as text); this one is {encoding}"
            )
        notice_dead_clients(connection)
        connection.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            # Under the lock: two processes creating it at once would collide in the catalog.
            connection.execute(_CREATE_TABLE)
            rows = connection.execute("SELECT version, checksum FROM archive_migrations").fetchall()
            applied: dict[int, str] = {version: checksum for version, checksum in rows}
            done = []
            for migration in migrations:
                if migration.version in applied:
                    if applied[migration.version] != migration.checksum:
                        raise MigrationError(
                            f"migration {migration.version} ({migration.name}) was edited after it was "
                            "applied; add a new migration instead"
                        )
                    continue
                with connection.transaction():
                    connection.execute(migration.sql.encode())
                    connection.execute(
                        "INSERT INTO archive_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.checksum),
                    )
                done.append(migration.version)
            # Data a migration's SQL cannot move (0003: the compact archive's zstd), under the lock.
            convert_old_games(connection)
            return done
        finally:
            if not connection.broken:  # else the server has already let the lock go with the session
                connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m service.archive.schema <postgresql://...>", file=sys.stderr)
        return 2
    applied = migrate(argv[0])
    print(f"applied migrations {applied}" if applied else "the archive's schema is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
