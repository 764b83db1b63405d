-- A game's row is written last, with its position (issue 62, docs/archive.md "Exactly once"):
-- Archive.write_game inserts the seats first, then takes the positions' lock and inserts the game's
-- row with its position, so the row is never updated after it is written. An update left a dead
-- copy of the row's inline part (its meta, result and the TOAST pointers: about a KB a game) in
-- the heap until a vacuum, and made the position's index point at two versions.
--
-- The seats refer to their game: that check waits for the commit, when the game's row is there.
ALTER TABLE ended_seats ALTER CONSTRAINT ended_seats_game_id_ended_at_fkey DEFERRABLE INITIALLY DEFERRED;
