-- The archive of ended games (docs/archive.md). JSON documents are `json`, not `jsonb`: `json`
-- keeps the text as it was written, so a read gives back the very bytes Redis held (jsonb would
-- reorder keys and rewrite numbers); queries that need to look inside cast to jsonb.

-- Positions are handed out in commit order (the writer takes POSITION_LOCK just before its
-- commit): what a reader sees is always a prefix of the positions, so an export that resumes
-- after position p misses nothing committed later.
CREATE SEQUENCE archived_positions AS bigint;

CREATE TABLE archived_games (
    id            text PRIMARY KEY,
    position      bigint UNIQUE,  -- set in the same transaction, just before its commit
    -- Read from the meta, never given apart from it: they cannot disagree.
    title         text GENERATED ALWAYS AS (meta ->> 'title') STORED NOT NULL,
    rules_version text GENERATED ALWAYS AS (meta ->> 'rules_version') STORED NOT NULL,
    status        text NOT NULL CHECK (status IN ('finished', 'aborted', 'expired')),
    version       integer NOT NULL CHECK (version >= 0),  -- the last; the log holds 1..version
    -- As Redis held it: title, rules version, seats with their token digests (never a token),
    -- options, seed, creation time, clock, stand-in.
    meta          json NOT NULL,
    result        json,
    created_at    timestamptz NOT NULL,
    started_at    timestamptz,  -- null: it never started (aborted or expired while waiting)
    ended_at      timestamptz NOT NULL,
    archived_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (status <> 'finished' OR result IS NOT NULL)
);
-- Export: --since/--until on the end, --title, each resumable from a position.
CREATE INDEX archived_games_ended ON archived_games (ended_at, position);
CREATE INDEX archived_games_title_ended ON archived_games (title, ended_at, position);

-- One row per version: a version read fetches a range of the primary key.
CREATE TABLE archived_log (
    game_id text NOT NULL REFERENCES archived_games (id) ON DELETE CASCADE,
    version integer NOT NULL CHECK (version >= 1),
    entry   json NOT NULL,  -- whole, unredacted: redaction is done on reading, per seat
    at      timestamptz NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- The state every SNAPSHOT_EVERY versions, and at the last: a version read starts from the
-- snapshot at or before it and replays the log from there.
CREATE TABLE archived_snapshots (
    game_id text NOT NULL REFERENCES archived_games (id) ON DELETE CASCADE,
    version integer NOT NULL CHECK (version >= 0),
    state   json NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- One row per seat, for a player's history ("my games", with result and rank) once players
-- have ids; ended_at is copied here so that a player's games, newest first, are one index range.
CREATE TABLE archived_seats (
    game_id   text NOT NULL REFERENCES archived_games (id) ON DELETE CASCADE,
    seat      smallint NOT NULL CHECK (seat >= 0),
    kind      text NOT NULL,
    player_id text,
    rank      smallint CHECK (rank >= 1),  -- 1 = first; null: no result (aborted, expired)
    ended_at  timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX archived_seats_player ON archived_seats (player_id, ended_at DESC, game_id)
    WHERE player_id IS NOT NULL;
