"""Redis: every key and every script, and nothing else.

- keys.py: the key layout, written down in one place;
- records.py: the records that cross the rooms (a game's meta, its seats, a result, a log entry,
  ``StoredGame``) as TypedDicts: the JSON as stored, typed;
- games.py: a game's hash, move log and idempotent replies; the read and the compare-and-set
  commit as Lua scripts; the index of games waiting for a bot;
- ratelimit.py, slidingwindow.py: the rate-limit counters and their Lua check;
- roundtrip.py: a read sent in another step's round trip (the game's read with the limits' check);
- fanout.py: one subscription per process, fanned out to its event streams;
- streamcaps.py: the caps on open event streams;
- botqueue.py: bot turns as RQ jobs, and RQ's client (``queue_redis``: ``RQ_REDIS_URL``);
  botgames.py: the quota of games of bots only;
- workers.py: the bot workers alive, by heartbeat (/readyz, `skyline serve`);
- seats.py: the compare-and-set of a seat change (join, leave, resign, abort) and the lobby's
  index in one script; lobby.py: the lobby's index (``sk:lobby``), read and pruned;
- aftercommit.py: what every commit script does last (deadlines, webhooks' outbox, and an ended
  game marked due to be archived); archiving.py: ``sk:archive-due``, claimed under a lease, and an
  archived game let go after its grace;
- partitions.py: a game's partition (of 1,024, from its id) and the partition's hash tag, chosen
  so that the partitions spread evenly over a Redis Cluster's slots (issue 56).

May import watch/ and config (and redis, rq); never Flask, http/ or play/.
"""
