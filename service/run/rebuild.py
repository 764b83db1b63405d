"""`skyline ratings rebuild`: every rating recomputed from the archived games alone (docs/ratings.md).

The archive is found as `skyline export` finds it (``DATABASE_URL``, else the embedded PostgreSQL
under ``--data-dir``). One transaction: the ratings' tables are locked, emptied and refilled by
replaying every rated finished game in the order it was archived, the order it was settled in,
so the numbers come out the same to the last bit; it says how many ratings differed from those
it replaced (0 unless something wrote them outside a settlement).
"""

from __future__ import annotations

import argparse
import sys

import psycopg

from ..archive.ratings import all_ratings, rebuild
from ..archive.schema import migrate
from .exchange import archive_url


def run_rebuild(args: argparse.Namespace, database_url: str | None) -> int:
    with archive_url(database_url, args.data_dir, "ratings rebuild") as url:
        migrate(url)
        with psycopg.connect(url) as connection, connection.transaction():
            before = all_ratings(connection)
            games = rebuild(connection)
            after = all_ratings(connection)
    changed = sum(1 for key in before.keys() | after.keys() if before.get(key) != after.get(key))
    sys.stdout.write(f"{games} rated games replayed; {len(after)} ratings; {changed} differed from before\n")
    return 0
