"""The sweeper: no game waits on a bot forever, whatever happened to its job.

A bot turn's job can be lost in many ways — its worker killed (RQ's maintenance retries it,
up to its retries), its retries used up, its enqueue lost with the last second of a crashed
Redis's AOF. The API marks a game in ``BOTS_DUE`` (service/store/games.py) before every commit that
makes a bot seat due; here, a thread of every worker looks, every ``SKYLINE_SWEEP_SECONDS``,
for games marked longer ago than the job timeout plus the abandon grace:

- the game still waits on a bot at some version: its turn is enqueued (``BotQueue`` ignores a
  turn whose job is queued or running, and retries one whose worker died), and the mark is
  renewed, so the game is looked at again one stall period later;
- otherwise (played, finished, expired): the mark is dropped, unless it was renewed meanwhile.

The marks are the truth, not the queue: the queue may live in a Redis of its own
(``RQ_REDIS_URL``), and when that Redis loses everything (a restart without persistence, a
FLUSHALL), every game with a bot to act is enqueued again here within job timeout + abandon grace +
``SKYLINE_SWEEP_SECONDS``, with no client request (tests/ops/test_queue_redis.py).

The same turn also acts on the turn deadlines that passed (``sk:deadlines``, games with a
clock): ``service.play.clocks`` plays the stand-in's move or resigns the seat, a compare-and-set
on the version the deadline was set at, so each deadline is acted on once. And it ends the games
left idle too long (``sk:idle``) as ``expired`` (``Seats.expire_idle``), a compare-and-set too:
the archive then takes them as any ended game, and only then do they leave Redis.

One worker sweeps at a time (a short lock), so many workers cost Redis no more than one.
A bot move is still never applied twice: every move is a compare-and-set on the version.
"""

from __future__ import annotations

import logging
import threading
import time

from engines import registry
from service.play.games import bot_seats_to_act, has_humans
from service.play.services import Services
from service.store.games import GameMissing
from service.store.keys import SWEEPER_LOCK

from . import metrics

log = logging.getLogger("skyline.worker.sweeper")


class Sweeper:
    def __init__(
        self,
        services: Services,
        *,
        stall_seconds: float,
        interval_seconds: float,
        batch: int = 200,
    ) -> None:
        # The same games, seats and queues as a bot job's (worker.jobs.Turns): the process's Services,
        # the marks on the store's Redis (REDIS_URL), the turns enqueued on RQ's.
        self.store = services.store
        self.queue = services.bot_queue
        self.connection = services.redis
        self.stall_seconds = stall_seconds
        self.interval = interval_seconds
        self.batch = batch
        self.seats = services.seats
        self.clocks = services.clocks
        self.idle = services.idle_games
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_services(cls, services: Services) -> Sweeper:
        settings = services.settings
        return cls(
            services,
            stall_seconds=settings.bot_job_timeout + settings.worker_abandon_grace_seconds,
            interval_seconds=settings.sweep_seconds,
        )

    def sweep_once(self, now: float | None = None) -> dict[str, int]:
        """Look at every game marked before the stall deadline; return what was done."""
        now = time.time() if now is None else now
        counts = {"enqueued": 0, "pending": 0, "forgotten": 0}
        for game_id, score in self.store.bots_due_since(now - self.stall_seconds, self.batch):
            try:
                stored = self.store.load(game_id)
            except GameMissing:
                counts["forgotten"] += self.store.forget_bot_due(game_id, score)
                continue
            state = registry.get(stored.meta["title"], stored.meta["rules_version"]).restore(stored.state)
            if stored.status != "active" or not bot_seats_to_act(stored.meta, state):
                counts["forgotten"] += self.store.forget_bot_due(game_id, score)
                continue
            enqueued = self.queue.enqueue_turn(game_id, stored.version, humans=has_humans(stored.meta))
            self.store.mark_bot_due(game_id)
            if enqueued:
                counts["enqueued"] += 1
                metrics.turn_swept()
                log.warning(
                    "bot turn enqueued by the sweeper",
                    extra={
                        "event": "bot_sweep",
                        "game_id": game_id,
                        "version": stored.version,
                        "waited_seconds": round(now - float(score), 1),
                    },
                )
            else:
                counts["pending"] += 1
        return counts

    def _turn(self) -> bool:
        """Sweep if no other worker holds the lock for this interval."""
        ttl = max(1, int(self.interval))
        if not self.connection.set(SWEEPER_LOCK, b"1", nx=True, ex=ttl):
            return False
        self.sweep_once()
        self.sweep_deadlines()
        self.sweep_idle()
        return True

    def sweep_idle(self, now: float | None = None, lease_seconds: float = 60.0) -> dict[str, int]:
        """End the games idle too long as ``expired``; each claimed under a lease, so a sweeper
        killed in the middle leaves the game due again once the lease is out."""
        now = time.time() if now is None else now
        counts: dict[str, int] = {}
        for game_id in self.idle.claim(now, lease_seconds, self.batch):
            outcome = self.seats.expire_idle(game_id, now)
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome in ("ended", "gone"):
                self.idle.forget(game_id)
            elif outcome == "not_idle":
                try:  # the lease's score would wake it early: its true one (a commit may have set it)
                    stored = self.store.load(game_id, parse_state=False)
                except GameMissing:
                    self.idle.forget(game_id)
                else:
                    self.idle.renew(
                        game_id, max(self.seats.idle_until(stored), self.idle.due_at(game_id) or 0)
                    )
            else:
                log.info("idle game expired", extra={"event": "game_expired", "game_id": game_id})
        return counts

    def sweep_deadlines(self, now: float | None = None) -> dict[str, int]:
        """Act on every passed turn deadline (service.play.clocks): a stand-in move or a
        resignation, each a compare-and-set on the version the deadline was set at."""
        counts: dict[str, int] = {}
        for game_id, score in self.clocks.due(now, self.batch):
            # Several seats of one game may be due at once (sealed bids): one action each.
            for _ in range(16):
                outcome = self.clocks.expire(game_id, score, now)
                counts[outcome] = counts.get(outcome, 0) + 1
                if outcome in ("stood_in", "resigned"):
                    log.info(
                        "turn deadline passed",
                        extra={"event": "turn_timed_out", "game_id": game_id, "outcome": outcome},
                    )
                    continue
                break
        return counts

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self._turn()
            except Exception:  # Redis down, a game that cannot be read: try again next time
                log.warning("sweep failed; trying again in %s s", self.interval, exc_info=True)

    def start(self) -> None:
        if self.interval <= 0:
            return
        self._thread = threading.Thread(target=self._loop, name="bot-sweeper", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
