-- A finished game's one rematch (its id), as GET /games/{id} shows it. The one column of an
-- archived game written after it: a rematch may be asked for long after the game was archived.
-- It is set once (``Archive.claim_rematch``: only while it is null).
ALTER TABLE archived_games ADD COLUMN rematch text;
