-- Ratings (docs/ratings.md): one per player and title, openskill's PlackettLuce, changed only in
-- the transaction that archives a rated game (service.archive.ratings.settle), so a game moves
-- them exactly once. `double precision` keeps a Python float exactly (PostgreSQL 12 and later
-- print the shortest text that reads back as the same float): a rebuild compares to the bit.
CREATE TABLE ratings (
    player_id  text NOT NULL,  -- a player's id, or bot:<level> for a bot level
    title      text NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL CHECK (sigma > 0),
    games      integer NOT NULL CHECK (games >= 0),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (player_id, title)
);
-- The leaderboard: a title's ratings by their conservative value, best first.
CREATE INDEX ratings_board ON ratings (title, (mu - 3 * sigma) DESC, player_id);

-- Which game moved a rating, and by how much: one row per rated seat of each rated game. Its
-- primary key is the game's seat: a game settled twice would be refused by it. No foreign key to
-- the game: ended_games (0003) is partitioned by the end, so its key is (id, ended_at), and the
-- history outlives a month of games moved to cheaper storage.
CREATE TABLE rating_history (
    game_id      text NOT NULL,
    seat         smallint NOT NULL CHECK (seat >= 0),
    player_id    text NOT NULL,
    title        text NOT NULL,
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu_after     double precision NOT NULL,
    sigma_after  double precision NOT NULL,
    ended_at     timestamptz NOT NULL,
    position     bigserial NOT NULL,  -- the order of settlement: a rebuild replays it
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_history_player ON rating_history (player_id, title, position);
