-- The compact archive (issue 62, docs/archive.md "The compact form"): an ended game is one row
-- of ended_games, its log and its sparse snapshots zstd-compressed msgpack (service/archive/
-- compact.py), and one row per seat in ended_seats for a player's history.
--
-- Both tables are partitioned by the game's end (declarative partitioning), so that old months
-- can be detached and moved to cheaper storage; the default partition takes any game no monthly
-- partition covers, so no insert ever fails for want of one (docs/deploy.md: adding monthly
-- partitions). A partitioned table's primary and unique keys must hold the partition key: the
-- keys are (id, ended_at) and (game_id, seat, ended_at), and the game id alone cannot be declared
-- unique. Archive.write_game keeps a game written once all the same: it takes a transaction lock
-- on the game's id (pg_advisory_xact_lock) and looks for the id before it inserts. Every key
-- starts with the game's id: Citus can distribute both tables on it (colocated), and every read
-- of a game names its id (tests/archive/test_read_queries.py).
--
-- The rows of migrations 0001-0002 (archived_games, archived_log, archived_snapshots,
-- archived_seats) are moved here by a data step run after the migrations (service/archive/
-- convert.py): SQL cannot zstd-compress. Those tables are left empty, to be dropped by a later
-- migration once every deployment has converted.

CREATE TABLE ended_games (
    id            text NOT NULL,
    position      bigint,  -- from archived_positions, set in the same transaction, just before its commit
    title         text GENERATED ALWAYS AS (meta ->> 'title') STORED NOT NULL,
    rules_version text GENERATED ALWAYS AS (meta ->> 'rules_version') STORED NOT NULL,
    status        text NOT NULL CHECK (status IN ('finished', 'aborted', 'expired')),
    version       integer NOT NULL CHECK (version >= 0),
    meta          json NOT NULL,
    result        json,
    created_at    timestamptz NOT NULL,
    started_at    timestamptz,
    ended_at      timestamptz NOT NULL,
    archived_at   timestamptz NOT NULL DEFAULT now(),
    rematch       text,
    -- zstd(msgpack): the entries as kept (a move's compact, a seat change's JSON) and their times.
    log           bytea NOT NULL,
    -- zstd: the state at the last version (JSON).
    final_state   bytea NOT NULL,
    -- zstd(msgpack): the states every SNAPSHOT_EVERY versions before the last; null: none.
    snapshots     bytea,
    CHECK (status <> 'finished' OR result IS NOT NULL),
    PRIMARY KEY (id, ended_at)
) PARTITION BY RANGE (ended_at);
CREATE TABLE ended_games_default PARTITION OF ended_games DEFAULT;
-- Export: --since/--until on the end, --title, each resumable from a position.
CREATE INDEX ended_games_position ON ended_games (position);
CREATE INDEX ended_games_title_ended ON ended_games (title, ended_at, position);

CREATE TABLE ended_seats (
    game_id   text NOT NULL,
    seat      smallint NOT NULL CHECK (seat >= 0),
    kind      text NOT NULL,
    player_id text,
    rank      smallint CHECK (rank >= 1),
    ended_at  timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat, ended_at),
    FOREIGN KEY (game_id, ended_at) REFERENCES ended_games (id, ended_at) ON DELETE CASCADE
) PARTITION BY RANGE (ended_at);
CREATE TABLE ended_seats_default PARTITION OF ended_seats DEFAULT;
CREATE INDEX ended_seats_player ON ended_seats (player_id, ended_at DESC, game_id)
    WHERE player_id IS NOT NULL;
