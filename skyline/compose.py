"""The composition root: every collaborator of a process, built once, from one ``Settings``.

``build_services`` is the one place that makes the store's and the queues' clients, the
``GameStore``, the archive's reads, the players, the games, seats, versions, webhooks and the
workers' indexes, for every process: the API (``skyline.wsgi``), the bot worker with its sweeper
and archiver, and the webhook worker (``skyline worker``). What differs between them is said by
their ``Role``, never by a second way of building them.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.config import Settings
from service.play.clocks import Clocks
from service.play.games import Games
from service.play.players import Players
from service.play.ratings import Ratings
from service.play.repository import GameRepository
from service.play.seats import Seats
from service.play.seeks import Seeks
from service.play.services import Services
from service.play.versions import Versions
from service.play.webhooks import Webhooks
from service.store.archiving import ArchiveDue, IdleGames
from service.store.botgames import BotGameQuota
from service.store.botqueue import BotQueue, queue_redis
from service.store.connect import StoreRedis, settings_client
from service.store.games import GameStore
from service.store.keys import WEBHOOK_WORKERS
from service.store.lobby import LobbyIndex
from service.store.migrate import refuse_first_layout
from service.store.players import PlayerStore
from service.store.seats import SeatStore
from service.store.seeks import SeekStore
from service.store.streamcaps import StreamCaps
from service.store.webhooks import WebhookStore
from service.store.workers import WorkerPresence


@dataclass(frozen=True)
class Role:
    """How one kind of process differs in what it is given (nothing else does)."""

    # Under gevent every waiting request would open its own connection, and a burst of thousands of
    # event streams thousands: the API's pools are bounded (SKYLINE_REDIS_CONNECTIONS).
    bounded_pools: bool
    # The states this process committed, kept for its next request on the game (SKYLINE_RECENT_GAMES):
    # a worker reads each game itself before it moves, so it keeps none.
    keeps_recent_states: bool
    # Whether a commit here may leave a bot turn to enqueue (the webhook worker only reads games).
    enqueues_bot_turns: bool


API = Role(bounded_pools=True, keeps_recent_states=True, enqueues_bot_turns=True)
BOT_WORKER = Role(bounded_pools=False, keeps_recent_states=False, enqueues_bot_turns=True)
WEBHOOK_WORKER = Role(bounded_pools=False, keeps_recent_states=False, enqueues_bot_turns=False)


def build_services(
    settings: Settings,
    role: Role = API,
    *,
    redis_client: StoreRedis | None = None,
    enqueue_bots: bool = True,
) -> Services:
    """Every collaborator of a process in ``role``, from ``settings``.

    ``redis_client``: the store's client, when the caller holds one (tests, benchmarks), else made
    from ``REDIS_URL``. ``enqueue_bots=False`` leaves every bot turn to the sweeper (a document
    built without Redis, tests that play bots by hand).
    """
    pool_size = settings.redis_connections if role.bounded_pools else None
    if redis_client is None:
        redis_client = settings_client(settings, max_connections=pool_size)
    refuse_first_layout(redis_client)
    # RQ_REDIS_URL's own client, or the store's when the queues share its Redis.
    queue_client = queue_redis(settings, store=redis_client, max_connections=pool_size)
    bot_queue = BotQueue(queue_client, job_timeout=settings.bot_job_timeout)
    store = GameStore(
        redis_client,
        ttl_seconds=settings.game_ttl_seconds,
        finished_ttl_seconds=settings.finished_game_ttl_seconds,
        lobby_ttl_seconds=settings.lobby_ttl_seconds,
    )
    lobby = LobbyIndex(redis_client, settings.lobby_ttl_seconds)
    bot_games = BotGameQuota(
        redis_client, per_address=settings.bot_games_per_address, ttl_seconds=settings.game_ttl_seconds
    )
    # Every read of a game: Redis first (a live game pays nothing), then the archive.
    repository = GameRepository(
        store, settings.database_url or None, archive_wait_seconds=settings.archive_timeout_seconds
    )
    player_store = PlayerStore(redis_client)
    games = Games(
        store,
        bot_queue.offer_turn if enqueue_bots and role.enqueues_bot_turns else None,
        stall_seconds=settings.bot_stall_seconds,
        recent_games=settings.recent_games if role.keeps_recent_states else 0,
        bot_games=bot_games,
        lobby=lobby,
        repository=repository,
        player_store=player_store,
        live_games_per_player=settings.live_games_per_player,
    )
    webhook_store = WebhookStore(
        redis_client, ttl_seconds=max(settings.game_ttl_seconds, settings.lobby_ttl_seconds)
    )
    webhooks = Webhooks(
        webhook_store,
        games,
        allow_http=settings.webhook_allow_http,
        allow_private=settings.webhook_allow_private,
    )
    seats = Seats(games, SeatStore(redis_client), lobby, webhooks=webhooks)
    players = Players(player_store, repository, webhooks)
    return Services(
        settings=settings,
        redis=redis_client,
        queue_redis=queue_client,
        store=store,
        lobby=lobby,
        bot_queue=bot_queue,
        bot_games=bot_games,
        repository=repository,
        player_store=player_store,
        games=games,
        versions=Versions(games),
        seats=seats,
        clocks=Clocks(games, seats),
        webhook_store=webhook_store,
        webhooks=webhooks,
        players=players,
        ratings=Ratings(repository, player_store),
        seeks=Seeks(SeekStore(redis_client), games, players, repository),
        stream_caps=StreamCaps(
            redis_client,
            per_address=settings.streams_per_address,
            per_token=settings.streams_per_token,
            lifetime=settings.sse_max_seconds,
        ),
        bot_workers=WorkerPresence(redis_client),
        webhook_workers=WorkerPresence(redis_client, key=WEBHOOK_WORKERS),
        archive_due=ArchiveDue(redis_client),
        idle_games=IdleGames(redis_client),
    )
