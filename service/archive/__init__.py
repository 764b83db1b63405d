"""PostgreSQL: the archive of ended games, beside store/ (Redis), which holds the live ones.

- records.py: what the archive takes and gives (``ArchivedGame``, ``LogEntry``, ``Snapshot``,
  ``ArchivedSeat``, ``GameRecord``, ``ExportedGame``), checked before anything is written;
- archive.py: ``Archive``, a psycopg pool: ``write_game`` exactly once, the reads (a game, a
  range of its log, the snapshot at or before a version) and ``stream_games`` for exports;
- exchange.py: the export's NDJSON line, one game a line: written, and read back with its checks;
- compact.py: an ended game's log and snapshots packed into its one row (msgpack, zstd);
- schema.py: the migrations of ``migrations/NNNN_<name>.sql``, applied at start under a lock;
- convert.py: the data step of 0003, the games of the old form moved to the compact one.

Every SQL statement and table name is here. May import watch/ and config (and psycopg); never
store/ (Redis is beside it, not below), play/, http/ or run/. play/ and worker/ may import it.
docs/archive.md says what is kept and why.
"""
