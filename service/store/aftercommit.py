"""What every commit script does once its version is written, in Lua, shared by the move's commit
(``store.games``) and the seat change's (``store.seats``): index the game's turn deadlines, put a
game with webhooks in their outbox, and either renew a live game's lifetime or mark an ended one
due to be archived. All ride in the commit: no other round trip.
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


# A game with this status has ended: the archive takes it, and only then may Redis let it go.
ENDED = frozenset({"finished", "aborted", "expired"})

# The commit scripts' last word on a game's lifetime. A live game is (re)scored in ``sk:idle`` by
# when it will have been idle too long (``mode`` 'at': at ``expiry``, a Unix time; 'in': ``expiry``
# seconds from now); the commit that ends a game takes it off and marks it due to be archived
# instead, in the same step (no round trip, no crash between the two). Either way the game's keys
# do not expire (PERSIST: a game written before the archive had a TTL): the archiver lets them go
# once PostgreSQL holds the game (store.archiving).
ARCHIVE_OR_EXPIRE = """
local function archive_or_expire(game, log, archive_due, idle, status, mode, expiry, game_id, now)
  redis.call('PERSIST', game)
  redis.call('PERSIST', log)
  if status == 'finished' or status == 'aborted' or status == 'expired' then
    redis.call('ZREM', idle, game_id)
    redis.call('ZADD', archive_due, 'NX', now, game_id)
  elseif mode == 'at' then
    redis.call('ZADD', idle, expiry, game_id)
  else
    redis.call('ZADD', idle, tonumber(now) + tonumber(expiry), game_id)
  end
end
"""
