"""Every Redis key Skyline writes, and what it holds: the key layout, in one place.

A game belongs to one of 1,024 partitions (``store.partitions``: derived from its id), and its
keys, with its entries in every index of games, share its partition's hash tag ``{<T>}``: they
live in one Redis Cluster slot, and the one script of a commit touches that slot only. An index
read as a whole (by a sweeper, by the lobby) is read over every partition in one script
(``store.partitioned``). Values are JSON (orjson), a move's log entry msgpack (``store.logform``),
never pickle. No key name holds a seat token, only a digest of it. The layout before partitions,
and how a Redis moves from it:
``store.migrate`` (``sk:layout`` says which layout a Redis holds).

``sk:{<T>}:g:<game>`` (hash): ``version``, ``status``, ``meta`` (title, rules version, seats
    with their token hashes, options, seed), ``state``, ``updated``, ``deadlines`` (games with a
    clock), ``archived`` (when the archive took it), ``first_to_act`` (games created with seats
    bound to players: who acts at version 0, for their "my games"). Written by ``store.games``
    (create, then the commit script: a compare-and-set on the version). A live game's keys do
    not expire: the sweeper ends a game idle too long as ``expired`` (``idle`` below); an ended
    game stays until the archive holds it, then ``SKYLINE_FINISHED_GAME_TTL_SECONDS``
    (``store.archiving``).
``sk:{<T>}:g:<game>:log`` (list): one JSON entry per move; entry *i* made version *i* + 1. The commit
    script appends; lives as long as the game's hash.
``sk:{<T>}:g:<game>:idem:<digest>`` (string): the first reply to an ``Idempotency-Key`` (a digest of
    the seat and the key), set by the commit script; 24 h.
``sk:{<T>}:events`` (pub/sub channel, one per partition, in its slot): each commit publishes
    ``<game> <version>`` there, with SPUBLISH on a cluster (sharded pub/sub) and PUBLISH on one
    Redis; every API process subscribes once (``store.fanout``). A player's key rotated or the
    player deleted is published as ``!player <player>`` on the channel of the player id's
    partition (``store.players``): the streams opened with that key check it again. The channel
    of releases before (``sk:{<T>}:g:<game>:events``, the version alone) is still listened to on
    one Redis.
``sk:{seeks:<title>}:seeks`` (hash): a title's seeks, id -> JSON (player, seats, rated, options,
    clock, rating window, the seeker's rating, created, expires, status, game), written by the
    seek scripts only (``store.seeks``); a seek is dropped a day after it expired or ended.
``sk:{seeks:<title>}:pool:<class>`` (sorted set): the waiting seeks of one kind (seats, rated,
    options, clock: ``class`` a digest of them), scored by their expiry: the matching script
    reads one pool and takes seeks in order of arrival.
``sk:{seeks:<title>}:of:<player>`` (sorted set): a player's seeks of the title, by expiry (its cap,
    ``GET /seeks``). ``sk:{seeks:<title>}:gone`` (sorted set): seeks by when they are dropped.
    Every key of a title's seeks shares the hash tag ``{seeks:<title>}``: one Redis Cluster slot,
    so the one script that matches seeks sees and changes them all at once.
``sk:rl:{token:<digest>}:<window>`` (string): a token's requests in one window (a seat token's
    or a player key's digest), counted at the request's edge (``store.ratelimit``).
``sk:rl:{address:<address>}:<window>`` (string): an address's requests in one window (IPv6
    counted per /64). Each counter lives two windows.
``sk:{<T>}:archive-due`` (sorted set, one per partition as every index below): games that ended
    and wait for the archive, scored by when a worker may next take one (the end, then a lease
    or a retry's backoff); added by the commit scripts (``store.games``, ``store.seats``) in the
    step that ends the game, removed by the script that marks it archived (``store.archiving``).
``sk:{<T>}:archived-ids`` (set): every game id the archive holds, so that while PostgreSQL is
    away a read of an id in none of them is a 404 from Redis alone (``store.archiving.ArchivedIds``);
    added by the script that lets an archived game go, and by the archiver from the archive's own
    ids (games archived before, imported ones). ``sk:archived-ids-through`` (string): the archive's
    position through which every id is in the sets (absent: the sets may be missing some, and
    an unknown id is a 503 while PostgreSQL is away). Neither expires: an id costs about 60 bytes.
``sk:{<T>}:idle`` (sorted set): live games by when they will have been idle too long, renewed by
    every commit script; the sweeper ends those due (``store.archiving.IdleGames``).
``sk:{<T>}:bots-due`` (sorted set): games whose bot seat is due to act, scored by when they were
    marked (``store.games``, before the commit); the workers' sweeper forgets them.
``sk:sweeper-lock`` (string): the worker sweeping now (``worker.sweeper``), one interval.
``sk:bot-games:<address>`` (sorted set): an address's running games of bots only
    (``store.botgames``); lives as long as a game.
``sk:streams:address:<address>``, ``sk:streams:token:<digest>`` (sorted sets): open event
    streams, scored by when each closes at the latest (``store.streamcaps``).
``sk:{<T>}:deadlines`` (sorted set): games with a clock whose human seat is to act, scored by the
    earliest deadline; written by the commit scripts (``store.games``, ``store.seats``) in the
    same step as the move, with the deadlines themselves in the game's hash (``deadlines``).
    The workers' sweeper acts on those due (``play.clocks``).
``sk:{<T>}:lobby`` (sorted set): listed games waiting for players, scored by when they were created
    (``store.lobby``); added at creation, removed by the seat script when the game starts or is
    aborted, trimmed past ``SKYLINE_LOBBY_TTL_SECONDS`` and pruned of gone games when read.
``sk:{<T>}:g:<game>:webhooks``, ``sk:{<T>}:g:<game>:wh:*``, ``sk:{<T>}:webhooks-due``,
    ``sk:{<T>}:webhooks-sending``, ``sk:{<T>}:webhooks-held``, ``sk:wh-rate:<url digest>:<second>``:
    webhooks, their outbox and deliveries (``store.webhooks``, whose docstring holds their
    layout); ``sk:webhook-workers``: the webhook workers alive, as ``sk:bot-workers`` below.
``sk:player:{<player>}`` (hash): a player (service.play.players): ``key_hash`` (the digest of
    its key, never the key), ``created``. ``sk:player-key:<digest>`` (string): the player a key's
    digest names, one per player (a rotation replaces it in the same script). Both written by
    ``store.players``; a player lives until deleted.
``sk:players-to-forget`` (sorted set): deleted players, by when, whose id the archive's seats may
    still hold: added in the deletion's step, removed once the archive dropped it (at once, or by
    a worker's archiver while PostgreSQL was away).
``sk:player:{<player>}:games`` (sorted set): the games with a seat bound to the player, scored by
    when it was bound; ``sk:player:{<player>}:live`` (sorted set): those that count against its
    cap of live games (``SKYLINE_LIVE_GAMES_PER_PLAYER``), ended ones dropped when a count finds
    it full. Both written in the player's slot just before the binding script writes the game
    (``store.players.PlayerStore.reserve``).
``sk:bot-workers`` (sorted set): the bot workers alive, ``<hostname>:<pid>`` scored by their
    last heartbeat in Redis's clock (``store.workers``); /readyz and `skyline serve` read it.

Bot turns are RQ jobs, under RQ's own keys (``rq:queue:skyline-bots``,
``rq:queue:skyline-bots-all-bot``, ``rq:job:bot-<game>-<version>``, RQ's registries):
``store.botqueue`` names the queues and the jobs (on ``RQ_REDIS_URL``'s Redis when set). On one
Redis an address's counters ride in the game's script and a player's key pointer is written in the
player's; on a cluster each is its own step (docs/cluster.md says what still crosses slots).
"""

from __future__ import annotations

from .partitions import all_partitions, partition_of, tag, tag_of

_GAME = "sk:{{{tag}}}:g:{game}"


def _game_prefix(game_id: str) -> str:
    """Where a game's keys start: its partition's hash tag, then the game (store.partitions)."""
    return _GAME.format(tag=tag_of(game_id), game=game_id)


def game_key(game_id: str) -> str:
    return _game_prefix(game_id)


# Every game's hash, as a SCAN pattern: a game id is 12 characters, and no other key of a game
# ends 12 characters after its tag's "}:g:".
GAME_KEYS_PATTERN = "sk:{*}:g:" + "?" * 12


def log_key(game_id: str) -> str:
    return f"{_game_prefix(game_id)}:log"


def idempotency_key(game_id: str, digest: str) -> str:
    return f"{_game_prefix(game_id)}:idem:{digest}"


def partition_channel(partition: int) -> str:
    """A partition's channel of moves: ``<game> <version>`` per commit of one of its games."""
    return f"sk:{{{tag(partition)}}}:events"


def partition_channels() -> list[str]:
    """Every partition's channel (a cluster's subscriber names each: sharded pub/sub has no pattern)."""
    return [partition_channel(partition) for partition in all_partitions()]


def events_channel_of(game_id: str) -> str:
    """The channel a game's commits are published on: its partition's, in the game's slot."""
    return partition_channel(partition_of(game_id))


def event_message(game_id: str, version: int) -> str:
    """What a commit publishes on ``events_channel_of``; the scripts build the same in Lua."""
    return f"{game_id} {version}"


def parse_event_message(data: bytes | str) -> tuple[str, int] | None:
    """``(game, version)`` of an ``event_message``; None for anything else."""
    text = data.decode() if isinstance(data, bytes) else data
    game_id, _, version = text.partition(" ")
    try:
        return game_id, int(version)
    except ValueError:
        return None


# What a rotation or a deletion of a player publishes on the partition channel of the player's id
# (``credential_channel_of``): the streams opened with its key check it again. A game id never
# starts with "!", and a process of the release before reads no version in it and drops it.
REVOKED_PREFIX = "!player "


def credential_channel_of(player_id: str) -> str:
    """The channel a player's key changes are told on: a partition's, every process hears it."""
    return partition_channel(partition_of(player_id))


def revoked_message(player_id: str) -> str:
    return REVOKED_PREFIX + player_id


def parse_revoked_message(data: bytes | str) -> str | None:
    """The player of a ``revoked_message``; None for anything else (a commit's)."""
    text = data.decode() if isinstance(data, bytes) else data
    return text[len(REVOKED_PREFIX) :] if text.startswith(REVOKED_PREFIX) else None


# Every partition's channel, for the one pattern subscription of a process on one Redis.
EVENTS_PATTERN = "sk:{*}:events"


def events_channel(game_id: str) -> str:
    """The game's channel of releases before partition channels (the version alone): processes
    of the release before publish there during a rolling upgrade, so one Redis still listens."""
    return f"{_game_prefix(game_id)}:events"


LEGACY_EVENTS_PATTERN = "sk:{*}:g:*:events"


def game_of_channel(channel: bytes | str) -> str | None:
    """The game id of an ``events_channel``; None for a partition's channel."""
    name = channel.decode() if isinstance(channel, bytes) else channel
    start = name.find("}:g:")
    if start < 0 or not name.endswith(":events"):
        return None
    return name[start + len("}:g:") : -len(":events")]


def index_key(index: str, partition: int) -> str:
    """One partition's part of an index of games (DEADLINES, LOBBY, ...), in its games' slot."""
    return f"sk:{{{tag(partition)}}}:{index}"


def index_keys(index: str) -> list[str]:
    """Every partition's part of an index."""
    return [index_key(index, partition) for partition in all_partitions()]


def index_of(index: str, game_id: str) -> str:
    """The part of an index that holds ``game_id``: in the slot of the game's own keys."""
    return f"sk:{{{tag_of(game_id)}}}:{index}"


RATE_LIMIT_PREFIX = "sk:rl"


def rate_limit_key(prefix: str, scope: str, identity: str) -> str:
    """The counters of one limit for one identity, without the window (``<key>:<window index>``),
    in a slot of the identity's own."""
    return f"{prefix}:{{{scope}:{identity}}}"


# Games whose bot seat was due to act, scored by when it was last found so: the workers'
# sweeper (worker/sweeper.py) enqueues the turn of any game that waits too long, so that no
# lost or abandoned job can stall a game, whether or not a client looks at it. One key for
# all games (outside every game's slot): it is written in its own command, before the commit
# that makes a bot due, so that the log of a single Redis never holds that commit without it.
BOTS_DUE = "bots-due"
SWEEPER_LOCK = "sk:sweeper-lock"


def bot_games_key(address: str) -> str:
    return f"sk:bot-games:{address}"


def streams_key(scope: str, identity: str) -> str:
    """Open event streams of an address (``scope`` "address") or of a token's digest ("token")."""
    return f"sk:streams:{scope}:{identity}"


# The bot workers alive, by last heartbeat (store.workers).
BOT_WORKERS = "sk:bot-workers"


# The webhook workers alive, by last heartbeat (store.workers; `skyline serve` reads it).
WEBHOOK_WORKERS = "sk:webhook-workers"


# Ended games waiting for the archive, by when a worker may take them (store.archiving).
ARCHIVE_DUE = "archive-due"

# The ids the archive holds (a set per partition), and the archive's position through which the
# sets hold every one (store.archiving.ArchivedIds).
ARCHIVED_IDS = "archived-ids"
ARCHIVED_IDS_THROUGH = "sk:archived-ids-through"

# Live games (waiting or active), by when they will have been idle too long: a waiting game its
# lobby's lifetime after its creation, an active one SKYLINE_GAME_TTL_SECONDS after its last
# commit. Every commit script renews the score; the workers' sweeper ends a game whose time has
# come as ``expired`` (store.archiving), and the archive takes it as any ended game. The keys of a
# live game never expire by themselves: a game leaves Redis only once PostgreSQL holds it.
IDLE = "idle"


# The key layout this Redis is written in ("2": the partitioned one), set by the first process to
# start on an empty Redis or by `skyline migrate-keys` (store.migrate).
LAYOUT = "sk:layout"


# Listed games waiting for players, by creation time (store.lobby, store.seats).
LOBBY = "lobby"

# Games with a clock, by their earliest deadline (store.games' and store.seats' commit scripts).
DEADLINES = "deadlines"


# Webhooks (store.webhooks): a game's endpoints, the outbox of games with versions to announce,
# each endpoint's deliveries, its queue and those set aside, the endpoints due to send and those
# a worker holds, and the rate per URL.
WEBHOOKS_DUE = "webhooks-due"
WEBHOOKS_SENDING = "webhooks-sending"
WEBHOOKS_HELD = "webhooks-held"


def webhooks_key(game_id: str) -> str:
    return f"{_game_prefix(game_id)}:webhooks"


def deliveries_key(game_id: str) -> str:
    return f"{_game_prefix(game_id)}:wh:deliveries"


def queue_key(game_id: str, endpoint: str) -> str:
    return f"{_game_prefix(game_id)}:wh:queue:{endpoint}"


def later_key(game_id: str, endpoint: str) -> str:
    return f"{_game_prefix(game_id)}:wh:later:{endpoint}"


def sending_member(game_id: str, endpoint: str) -> str:
    return f"{game_id} {endpoint}"


def webhook_rate_key(url_digest: str, second: int) -> str:
    return f"sk:wh-rate:{url_digest}:{second}"


# Players (store.players): a player's hash and its games share the hash tag {<player id>}; the
# key's digest points at its player from a slot of its own.
def player_key(player_id: str) -> str:
    return f"sk:player:{{{player_id}}}"


def player_games_key(player_id: str) -> str:
    return f"sk:player:{{{player_id}}}:games"


def player_live_games_key(player_id: str) -> str:
    return f"sk:player:{{{player_id}}}:live"


PLAYER_GAMES_PATTERN = "sk:player:{*}:games"  # a SCAN pattern: every player's index of games


def player_of_games_key(key: str) -> str:
    """The player whose index of games ``key`` is (a key PLAYER_GAMES_PATTERN matched)."""
    return key[len("sk:player:{") : -len("}:games")]


def player_by_key(digest: str) -> str:
    return f"sk:player-key:{digest}"


# Deleted players whose id the archive's seats may still hold, by when each was deleted: entered
# in the deletion's step, left once the archive dropped the id (store.players, worker.archiver).
PLAYERS_TO_FORGET = "sk:players-to-forget"


# The first key layout, before partitions, read only by store.migrate: each game's keys under its
# own id's tag (``sk:{<id>}:game``, ``:log``, ...), each index of games in one key.
FIRST_LAYOUT_INDEXES = {
    DEADLINES: "sk:deadlines",
    BOTS_DUE: "sk:bots-due",
    ARCHIVE_DUE: "sk:archive-due",
    IDLE: "sk:idle",
    LOBBY: "sk:lobby",
    WEBHOOKS_DUE: "sk:webhooks-due",
    WEBHOOKS_SENDING: "sk:webhooks-sending",  # members "<game> <endpoint>"
    WEBHOOKS_HELD: "sk:webhooks-held",
}
FIRST_LAYOUT_GAME_HASHES = "sk:{*}:game"  # a SCAN pattern


def first_layout_prefix(game_id: str) -> str:
    """Where a game's keys started in the first layout."""
    return f"sk:{{{game_id}}}"


def first_layout_game(key: str) -> str | None:
    """The game id of a first-layout game hash's name (None: not one; an id holds no brace)."""
    game_id = key[len("sk:{") : -len("}:game")]
    return None if "{" in game_id or "}" in game_id else game_id


# ---- seeks (store.seeks): every key of a title's seeks in one slot, ``{seeks:<title>}`` ----------
def seek_keys_prefix(title: str) -> str:
    return f"sk:{{seeks:{title}}}"


def seeks_key(title: str) -> str:
    return f"{seek_keys_prefix(title)}:seeks"


def seek_pool_key(title: str, kind: str) -> str:
    return f"{seek_keys_prefix(title)}:pool:{kind}"


def player_seeks_key(title: str, player_id: str) -> str:
    return f"{seek_keys_prefix(title)}:of:{player_id}"


def seeks_gone_key(title: str) -> str:
    return f"{seek_keys_prefix(title)}:gone"
