"""What every commit script does once its version is written, in Lua, shared by the move's commit
(``store.games``) and the seat change's (``store.seats``): index the game's turn deadlines, and
put a game with webhooks in their outbox. Both ride in the commit: no other round trip.
"""

INDEX_AFTER_COMMIT = """
-- game: the game's hash; deadlines_index: sk:deadlines; webhooks: the game's webhooks' hash;
-- outbox: sk:webhooks-due; deadlines: the new deadlines ('' = unchanged); earliest: the earliest
-- of them ('' = none left).
local function index_after_commit(game, deadlines_index, webhooks, outbox, deadlines, earliest, game_id, now)
  if deadlines ~= '' then
    redis.call('HSET', game, 'deadlines', deadlines)
    if earliest == '' then
      redis.call('ZREM', deadlines_index, game_id)
    else
      redis.call('ZADD', deadlines_index, earliest, game_id)
    end
  end
  -- A game with webhooks: this version is due to be announced (service.store.webhooks).
  if redis.call('EXISTS', webhooks) == 1 then
    redis.call('ZADD', outbox, 'NX', now, game_id)
  end
end
"""
