"""``Services``: what one process's use cases and their stores are, as one typed value.

Built once per process by ``skyline.compose.build_services`` from the one ``Settings`` the process
read at its start; the API (``service.http.services``) and the workers (``worker.services``) reach
every collaborator through it, so a bot job, the sweeper, the archiver and a request read a game
through the same ``Games``, with the same archive and the same players. The type lives here, the
lowest room that sees all its parts, so that http/ and worker/ can name it without importing the
room that builds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from ..config import Settings
from ..store.archiving import ArchiveDue, IdleGames
from ..store.botgames import BotGameQuota
from ..store.botqueue import BotQueue
from ..store.connect import StoreRedis
from ..store.games import GameStore
from ..store.lobby import LobbyIndex
from ..store.players import PlayerStore
from ..store.streamcaps import StreamCaps
from ..store.webhooks import WebhookStore
from ..store.workers import WorkerPresence
from .clocks import Clocks
from .games import Games
from .players import Players
from .ratings import Ratings
from .repository import GameRepository
from .seats import Seats
from .seeks import Seeks
from .versions import Versions
from .webhooks import Webhooks


@dataclass(frozen=True)
class Services:
    settings: Settings
    redis: StoreRedis  # the store's client (REDIS_URL, a cluster's on a cluster)
    queue_redis: Redis  # RQ's (RQ_REDIS_URL), the store's own client when they share a Redis
    store: GameStore
    lobby: LobbyIndex
    bot_queue: BotQueue
    bot_games: BotGameQuota
    repository: GameRepository  # every read of a game, live in Redis or archived (DATABASE_URL)
    player_store: PlayerStore
    games: Games
    versions: Versions
    seats: Seats
    clocks: Clocks
    webhook_store: WebhookStore
    webhooks: Webhooks
    players: Players
    ratings: Ratings  # public ratings and leaderboards (docs/ratings.md)
    seeks: Seeks  # finding opponents (docs/ratings.md)
    stream_caps: StreamCaps
    bot_workers: WorkerPresence  # the bot workers' beats (/readyz, the supervisor)
    webhook_workers: WorkerPresence
    archive_due: ArchiveDue
    idle_games: IdleGames
