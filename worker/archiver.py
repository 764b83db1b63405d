"""The archiver: a thread of every bot worker that writes ended games to PostgreSQL, each once.

Every ``SKYLINE_ARCHIVE_SECONDS`` it claims the games due in ``sk:archive-due`` (a lease: the
claim moves their score ahead, so two workers never hold one game at once, and a worker killed
holding one lets it come due again when the lease is out). For each: the game's hash and log from
Redis, the ``ArchivedGame`` (service.play.archiving: snapshots replayed from the seed),
``Archive.write_game`` (exactly once: a game already there is a no-op), then in one script the
game is marked ``archived``, its keys expire after ``SKYLINE_FINISHED_GAME_TTL_SECONDS`` and it
leaves the due set. PostgreSQL down: the game stays due and is tried again after a backoff that
doubles (1 s up to 4 s: archiving resumes within seconds of its return); nothing is lost and
nothing is written twice.

Each pass also drops from the archive's seats the ids of the players deleted while PostgreSQL was
away (``sk:players-to-forget``, entered by the deletion itself: service.play.players).

Why a thread of the bot workers, not of the webhook worker: the bot workers are the ones that
scale out (several per host, an HPA in the chart), and the leases let any number of them share
the due set; the webhook worker's one process waits on slow receivers.
"""

from __future__ import annotations

import logging
import threading
import time

from service.archive.archive import Archive, ArchiveUnavailable
from service.archive.records import InvalidArchive
from service.play.archiving import archived_game
from service.play.services import Services
from service.store.archiving import ArchivedIds, ArchiveDue
from service.store.players import PlayerStore

log = logging.getLogger("skyline.worker.archiver")

FIRST_RETRY_SECONDS = 1.0
# Capped low: after an outage the games that ended meanwhile are archived within seconds of
# PostgreSQL's return (at 60 s, a two-minute outage was caught up 2.4 minutes after it).
MAX_RETRY_SECONDS = 4.0
# The archive's ids copied to Redis per query (store.archiving.ArchivedIds), how often, and how
# long after PostgreSQL could not be reached.
IDS_BATCH = 10_000
COPY_SECONDS = 5.0
COPY_RETRY_SECONDS = 30.0
# A game that cannot be archived as it is (a bug to fix): looked at again this much later.
INVALID_RETRY_SECONDS = 3600.0


class Archiver:
    def __init__(
        self,
        due: ArchiveDue,
        database_url: str,
        *,
        interval_seconds: float,
        lease_seconds: float,
        grace_seconds: int,
        batch: int = 20,
        players: PlayerStore | None = None,
    ) -> None:
        self.due = due
        self.players = players  # the deleted players the archive is still to forget
        self.ids = ArchivedIds(due.redis)
        self.database_url = database_url
        self.interval = interval_seconds
        self.lease = lease_seconds
        self.grace = grace_seconds
        self.batch = batch
        self._archive: Archive | None = None
        self._failures: dict[str, int] = {}  # game -> failed attempts in a row (the backoff)
        self._unavailable: str | None = None  # the last game's: PostgreSQL could not be reached
        self._next_copy = 0.0  # when to copy the archive's ids to Redis next (monotonic)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_services(cls, services: Services) -> Archiver | None:
        """The worker's archiver; None without DATABASE_URL (no archive to write to)."""
        settings = services.settings
        if not settings.database_url:
            return None
        return cls(
            services.archive_due,
            settings.database_url,
            interval_seconds=settings.archive_seconds,
            lease_seconds=settings.archive_lease_seconds,
            grace_seconds=settings.finished_game_ttl_seconds,
            players=services.player_store,
        )

    @property
    def archive(self) -> Archive:
        if self._archive is None:
            # The pool connects in the background, and reconnects once PostgreSQL is back.
            # A short wait: the archiver is the pool's only user, so a connection not handed out
            # at once means PostgreSQL is away, and the games due are retried soon.
            self._archive = Archive(self.database_url, min_size=1, max_size=2, timeout=2.0)
        return self._archive

    def archive_once(self, now: float | None = None) -> dict[str, int]:
        """Archive the games due now; what was done (written, already, retried, gone)."""
        now = time.time() if now is None else now
        counts = {"written": 0, "already": 0, "retried": 0, "gone": 0}
        away: str | None = None  # why PostgreSQL could not be reached in this round
        for game_id in self.due.claim(now, self.lease, self.batch):
            if away is not None:
                # Not tried: each would wait for the pool in vain. Due again soon, not a lease later.
                counts[self._retry(game_id, away, FIRST_RETRY_SECONDS)] += 1
                continue
            outcome = self._archive_one(game_id)
            counts[outcome] += 1
            if outcome == "retried" and self._unavailable is not None:
                away = self._unavailable
        if away is None and time.monotonic() >= self._next_copy:
            self.copy_archived_ids()
        return counts

    def forget_players(self) -> int:
        """Drop from the archive's seats the ids of players deleted while it was away; how many."""
        if self.players is None:
            return 0
        done = 0
        for player_id in self.players.to_forget(self.batch):
            try:
                self.archive.forget_player(player_id)
            except ArchiveUnavailable:
                return done  # still away: every one waits for the next pass
            self.players.forgotten(player_id)
            done += 1
        return done

    def copy_archived_ids(self) -> int:
        """Copy the ids the archive holds past the position Redis knows into Redis (ArchivedIds):
        the games archived before there were sets, and those an import wrote. How many."""
        through = self.ids.through() or 0
        copied = 0
        try:
            while batch := self.archive.ids_after(through, IDS_BATCH):
                through = batch[-1][1]
                self.ids.add([game_id for game_id, _ in batch], through=through)
                copied += len(batch)
                if len(batch) < IDS_BATCH:
                    break
            if self.ids.through() is None:
                self.ids.add([], through=through)  # an empty archive: every id is known now
        except ArchiveUnavailable:
            # Later: meanwhile an unknown id is a 503, not a 404. Not at once: each try waits for
            # the pool, and the games due must not wait behind it when PostgreSQL returns.
            self._next_copy = time.monotonic() + COPY_RETRY_SECONDS
            return copied
        self._next_copy = time.monotonic() + COPY_SECONDS
        return copied

    def _archive_one(self, game_id: str) -> str:
        self._unavailable = None
        ended = self.due.read(game_id)
        if ended is None:  # gone from Redis (flushed by hand): nothing left to archive
            self.due.release(game_id, time.time(), self.grace)
            log.error("a game due to be archived is gone from Redis", extra={"game_id": game_id})
            return "gone"
        try:
            # Marked archived, then Redis was restored from before the release: written already.
            written = False
            if not ended.archived:
                game = archived_game(ended)
                written = self.archive.write_game(game)
                if not written and not self.archive.holds(game):
                    # Another game holds the id (an import the checks did not see): letting this
                    # one go would leave its readers the other, and this one lost for good.
                    log.error(
                        "another game is archived under this game's id; it stays in Redis",
                        extra={"event": "archive_id_conflict", "game_id": game_id},
                    )
                    self.due.postpone(game_id, time.time() + INVALID_RETRY_SECONDS)
                    return "retried"
        except ArchiveUnavailable as error:
            self._unavailable = str(error)
            return self._retry(game_id, str(error), FIRST_RETRY_SECONDS)
        except InvalidArchive as error:
            log.error(
                "a game cannot be archived as it is (%s); it stays in Redis",
                error,
                extra={"event": "archive_invalid", "game_id": game_id, "reason": str(error)},
            )
            self.due.postpone(game_id, time.time() + INVALID_RETRY_SECONDS)
            return "retried"
        # Only now, the archive holding it, may Redis let it go.
        _, rematch = self.due.release(game_id, time.time(), self.grace)
        if rematch is not None and rematch != ended.rematch:
            # Made between the read and the release: the archive learns it here (one made after
            # the release is copied by the rematch itself, which sees the game archived).
            try:
                self.archive.claim_rematch(game_id, rematch)
            except ArchiveUnavailable:
                log.error(
                    "a rematch was not copied to the archive", extra={"game_id": game_id, "rematch": rematch}
                )
        self._failures.pop(game_id, None)
        log.info(
            "game archived",
            extra={"event": "game_archived", "game_id": game_id, "version": ended.version, "new": written},
        )
        return "written" if written else "already"

    def _retry(self, game_id: str, reason: str, first: float) -> str:
        failures = self._failures.get(game_id, 0) + 1
        self._failures[game_id] = failures
        delay = min(MAX_RETRY_SECONDS, first * 2 ** (failures - 1))
        self.due.postpone(game_id, time.time() + delay)
        log.warning(
            "the archive cannot be reached; the game stays due",
            extra={"event": "archive_retry", "game_id": game_id, "retry_in": delay, "reason": reason},
        )
        return "retried"

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.archive_once()
                self.forget_players()
            except Exception:  # Redis down: the due set is where it was; try again next time
                log.warning("archiving failed; trying again in %s s", self.interval, exc_info=True)

    def start(self) -> None:
        if self.interval <= 0:
            return
        self._thread = threading.Thread(target=self._loop, name="archiver", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._archive is not None:
            self._archive.close()
