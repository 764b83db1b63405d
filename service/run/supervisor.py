"""`skyline serve`: a supervisor for Redis (embedded unless REDIS_URL is set), the archive's
PostgreSQL (embedded unless DATABASE_URL is set, migrated at start), gunicorn and the workers.

- One instance per data folder: an exclusive lock on ``<data>/skyline.lock`` is taken before
  anything starts; a second `skyline serve` on the same folder refuses at once, naming the
  running one's pid and address. The embedded Redis inherits the lock, so it is held until
  the last process that may write the AOF is gone: two Redis servers never share one AOF.
- Each child runs in a session of its own: the terminal's Ctrl-C (or a closed terminal's
  SIGHUP) reaches only the supervisor, which stops them in order — the API and the workers
  first, then Redis, after it has written its AOF, and PostgreSQL last.
- On Linux each child dies with the supervisor (a parent-death signal), so a ``kill -9`` of
  the supervisor leaves no orphan serving a half-dead stack.
- A start fails only when a child could not come up at all: it exited with a status of its
  own (not killed by a signal) before it was ever ready — Redis answers PING, gunicorn answers
  ``/healthz``, a bot worker is registered and beats (service/store/workers.py). That is a
  configuration error (a port in use, a bad setting, a Redis that refuses): everything stops,
  with the cause, and `skyline serve` exits non-zero.
- Any other death, whatever its timing or signal (an OOM kill, a poison job, a kill -9 a
  second after the start), is a crash: the child is restarted after a backoff that doubles
  while it keeps crashing (0.5 s up to 30 s) and starts again at 0.5 s once it has been up
  for a minute. Each restart is logged with its cause.
"""

from __future__ import annotations

import errno
import fcntl
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import redis
from redis.exceptions import RedisClusterException

from ..archive.schema import MigrationError, migrate
from ..config import Settings, environment
from ..store.connect import StoreRedis, store_client
from ..store.keys import BOT_WORKERS, WEBHOOK_WORKERS
from ..store.migrate import FirstLayout, FirstLayoutOnCluster, check_layout, migrate_layout
from ..store.workers import WorkerPresence, member
from .embedded import EmbeddedRedis, gunicorn_command, webhook_worker_command, worker_command
from .parentdeath import die_with_parent
from .postgres import STOP_SIGNAL, EmbeddedPostgres

# Restart delays: doubled at each crash in a row, from the first to the last.
FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 30.0
# A child up this long has stopped crashing: its next crash waits the first delay again.
STABLE_SECONDS = 60.0
# How often a child not yet ready is asked, and when the log says it is slow to come up.
READY_POLL_SECONDS = 0.2
SLOW_START_SECONDS = 30.0


def log(message: str) -> None:
    print(f"skyline: {message}", file=sys.stderr, flush=True)


def _child_setup(sig: int) -> Callable[[], None]:
    def setup() -> None:  # runs in the child, between fork and exec
        die_with_parent(sig)

    return setup


class DataDirInUse(SystemExit):
    pass


class DataDirLock:
    """An exclusive flock on ``<data_dir>/skyline.lock``, holding the owner's pid and address."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "skyline.lock"
        self.fd: int | None = None

    def _holder(self) -> dict[str, Any]:
        try:
            holder: dict[str, Any] = json.loads(self.path.read_text() or "{}")
            return holder
        except (OSError, ValueError):
            return {}

    def acquire(self, owner: dict[str, Any], *, wait_for_dead_owner: float = 10.0) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait_for_dead_owner
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
            holder = self._holder()
            pid = holder.get("pid")
            # The supervisor is gone but its Redis still holds the lock while it writes out
            # its AOF (it was sent SIGTERM when the supervisor died): wait for it a moment.
            if pid and not _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            os.close(fd)
            where = f"http://{holder.get('host')}:{holder.get('port')}" if holder.get("port") else "?"
            raise DataDirInUse(
                f"skyline: the data folder {self.path.parent} is in use by another `skyline serve` "
                f"(pid {pid or '?'}, serving {where}). Stop it first (Ctrl-C in its terminal, or "
                f"`kill {pid or '<pid>'}`), or give this one another folder with --data-dir or "
                "SKYLINE_DATA_DIR."
            )
        os.set_inheritable(fd, False)
        self.fd = fd
        self.describe(owner)

    def describe(self, owner: dict[str, Any]) -> None:
        """Say who holds the folder now (its pid, address, embedded Redis): others read it."""
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, json.dumps(owner).encode(), 0)

    def holder(self) -> dict[str, Any] | None:
        """What the folder's holder said of itself, if a live process holds the folder."""
        holder = self._holder()
        pid = holder.get("pid")
        return holder if pid and _alive(pid) and self._locked() else None

    def _locked(self) -> bool:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # closing releases a lock this took
        return False

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _alive(pid: int) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError):
        return True
    return True


def _port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def backoff(crashes: int) -> float:
    """The delay before restarting a child after ``crashes`` crashes in a row (1, 2, ...)."""
    return min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2.0 ** max(0, crashes - 1))


def describe_exit(status: int) -> str:
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


@dataclass
class Child:
    """One supervised process: how to start it, how to tell it is ready, and its restarts."""

    name: str
    start_process: Callable[[], subprocess.Popen[bytes]]
    # Asked until it says yes; None: ready once start_process returns (Redis waits for PING).
    ready_check: Callable[[subprocess.Popen[bytes]], bool] | None = None
    on_death: Callable[[subprocess.Popen[bytes]], None] | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    ready_at: float | None = None
    ever_ready: bool = False
    starts: int = 0
    crashes: int = 0  # in a row; back to 0 after a stable minute
    restart_at: float | None = None
    next_check_at: float = 0.0
    slow_start_logged: bool = False
    stop_signal: int = signal.SIGTERM

    def start(self) -> None:
        self.process = self.start_process()
        self.started_at = time.monotonic()
        self.starts += 1
        self.restart_at = None
        self.ready_at = None if self.ready_check else self.started_at
        self.ever_ready = self.ever_ready or self.ready_check is None
        self.next_check_at = self.started_at
        self.slow_start_logged = False

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal_group(self, sig: int, *, even_if_exited: bool = False) -> None:
        """Signal the child's whole process group (gunicorn's master and its workers)."""
        if self.process is None or (self.process.poll() is not None and not even_if_exited):
            return
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _loopback(host: str) -> str:
    """Where to reach a server bound to ``host`` from this machine."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)


def answers_healthz(host: str, port: int) -> bool:
    connection = http.client.HTTPConnection(_loopback(host), port, timeout=0.5)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


class Supervisor:
    def __init__(
        self,
        settings: Settings,
        *,
        host: str,
        port: int,
        workers: int,
        data_dir: str,
        bot_workers: int = 1,
        stop_grace_seconds: float | None = None,
    ) -> None:
        self.host, self.port, self.workers, self.bot_workers = host, port, workers, bot_workers
        self.data_dir = Path(data_dir).resolve()
        self.settings = settings
        self.stop_grace = (
            self.settings.stop_grace_seconds if stop_grace_seconds is None else stop_grace_seconds
        )
        self.lock = DataDirLock(self.data_dir)
        self.env = environment()  # the children's: they read their own settings from it
        self.redis: EmbeddedRedis | None = None
        self.redis_child: Child | None = None
        self.postgres: EmbeddedPostgres | None = None
        self.postgres_child: Child | None = None
        self.api: Child | None = None
        self.children: list[Child] = []  # API and bot workers
        self._worker_presences: dict[str, WorkerPresence] = {}
        self.stopping = False
        self.interrupts = 0

    # ---- starting ---------------------------------------------------------------------------
    def _popen_options(self, death_signal: int, pass_fds: tuple[int, ...] = ()) -> dict[str, Any]:
        return {"start_new_session": True, "preexec_fn": _child_setup(death_signal), "pass_fds": pass_fds}

    def _spawn(self, command: list[str]) -> Callable[[], subprocess.Popen[bytes]]:
        # Stateless children die at once with the supervisor: RQ's maintenance and the sweeper
        # recover a bot turn cut short, and the API holds nothing.
        return lambda: subprocess.Popen(
            command, env=self.env, stdin=subprocess.DEVNULL, **self._popen_options(signal.SIGKILL)
        )

    def _start_redis(self) -> subprocess.Popen[bytes]:
        assert self.redis is not None
        self.redis.start()
        assert self.redis.process is not None
        return self.redis.process

    def _start_postgres(self) -> subprocess.Popen[bytes]:
        assert self.postgres is not None
        self.postgres.start()
        assert self.postgres.process is not None
        return self.postgres.process

    def _prepare_archive(self) -> None:
        """The archive's PostgreSQL (embedded unless DATABASE_URL is set), migrated before any child
        starts: every process then finds the schema it expects."""
        if not self.env.get("DATABASE_URL"):
            # The server keeps the lock's file open, as Redis does: no second serve on its data.
            held = () if self.lock.fd is None else (self.lock.fd,)  # taken before: never None here
            self.postgres = EmbeddedPostgres(
                self.data_dir, popen_options=self._popen_options(STOP_SIGNAL, held)
            )
            self.postgres_child = Child("PostgreSQL", self._start_postgres, stop_signal=STOP_SIGNAL)
            self.postgres_child.start()
            self.env["DATABASE_URL"] = self.postgres.url
            log(f"embedded PostgreSQL on {self.postgres.url} (data in {self.postgres.data})")
        try:
            migrate(self.env["DATABASE_URL"])
        except (MigrationError, OSError, psycopg.Error) as error:
            raise SystemExit(
                f"skyline: the archive's PostgreSQL cannot be migrated ({error}); check DATABASE_URL "
                "and that PostgreSQL runs there, or unset it for the embedded one."
            ) from None

    def _move_to_current_layout(self) -> None:
        """A Redis written by the first key layout is moved before anything else starts on it:
        the supervisor starts every process that uses it, so none can write meanwhile."""
        client = self._store_client()
        try:
            check_layout(client)
        except FirstLayout:
            try:
                moved = migrate_layout(client)
            except FirstLayoutOnCluster as refused:
                raise SystemExit(f"skyline: {refused}") from None
            log(
                f"moved {moved.games} games ({moved.keys} keys, {moved.index_entries} index entries) "
                "to the partitioned key layout"
            )
        finally:
            client.close()

    def _store_client(self, **options: Any) -> StoreRedis:
        """The store's client on REDIS_URL: redis-py's cluster client with SKYLINE_REDIS_CLUSTER=1,
        since a plain one on a cluster's node is answered MOVED for every key another node holds."""
        return store_client(self.env["REDIS_URL"], cluster=self.settings.redis_cluster, **options)

    def _check_external_redis(
        self, url: str, timeout: float = 5.0, variable: str = "REDIS_URL", *, cluster: bool = False
    ) -> None:
        """A REDIS_URL (or RQ_REDIS_URL) that refuses is a configuration error: say so before
        starting anything. On a cluster every node is asked (the cluster client's PING)."""
        deadline = time.monotonic() + timeout
        while True:
            client: StoreRedis | None = None
            try:
                # Built in the loop: a cluster client asks for the slots as it is built.
                client = store_client(url, cluster=cluster, socket_connect_timeout=1, socket_timeout=1)
                client.ping()
                return
            except (redis.RedisError, RedisClusterException, OSError) as error:
                if time.monotonic() >= deadline:
                    raise SystemExit(
                        f"skyline: the Redis at {variable} cannot be used ({error}); check the URL "
                        f"and that Redis runs there, or unset {variable} for the embedded one."
                    ) from None
                time.sleep(0.25)
            finally:
                if client is not None:
                    client.close()

    def _presence(self, key: str) -> WorkerPresence:
        """The heartbeats of one kind of worker (``sk:bot-workers``, ``sk:webhook-workers``)."""
        if key not in self._worker_presences:
            client = self._store_client(socket_connect_timeout=0.5, socket_timeout=0.5)
            self._worker_presences[key] = WorkerPresence(client, key=key)
        return self._worker_presences[key]

    def _worker_is_ready(self, key: str) -> Callable[[subprocess.Popen[bytes]], bool]:
        """A worker child counts as started once it beats under ``key``."""

        def ready(process: subprocess.Popen[bytes]) -> bool:
            try:
                return self._presence(key).is_alive(member(process.pid))
            except (redis.RedisError, RedisClusterException, OSError):
                return False

        return ready

    def _forget_worker(self, key: str) -> Callable[[subprocess.Popen[bytes]], None]:
        """A worker child died: it no longer counts as alive (/readyz), without waiting out its beat."""

        def forget(process: subprocess.Popen[bytes]) -> None:
            try:
                self._presence(key).leave(member(process.pid))
            except (redis.RedisError, RedisClusterException, OSError):
                pass

        return forget

    def _api_is_ready(self, process: subprocess.Popen[bytes]) -> bool:
        return answers_healthz(self.host, self.port)

    def prepare(self) -> None:
        """Take the data folder, check the port, start Redis: everything before the children."""
        self.lock.acquire({"pid": os.getpid(), "host": self.host, "port": self.port})
        if not _port_is_free(self.host, self.port):
            self.lock.release()
            raise SystemExit(
                f"skyline: {self.host}:{self.port} is already in use; stop what serves there or "
                "choose another port (PORT=9000 make run, or --port)."
            )
        # RQ's queues: on RQ_REDIS_URL, passed on to the children as it is; unset, on REDIS_URL's.
        if self.settings.rq_redis_url and self.settings.rq_redis_url != self.settings.redis_url:
            self._check_external_redis(self.settings.rq_redis_url, variable="RQ_REDIS_URL")
        if self.settings.redis_url:
            self._check_external_redis(self.settings.redis_url, cluster=self.settings.redis_cluster)
        else:
            # Redis keeps the lock's file open: the folder stays locked until it has exited.
            held = () if self.lock.fd is None else (self.lock.fd,)  # taken above: never None here
            self.redis = EmbeddedRedis(self.data_dir, popen_options=self._popen_options(signal.SIGTERM, held))
            self.redis_child = Child("Redis", self._start_redis)
            self.redis_child.start()
            self.env["REDIS_URL"] = self.redis.url
            # `skyline import` checks its games against the live ones of this Redis.
            self.lock.describe(
                {"pid": os.getpid(), "host": self.host, "port": self.port, "redis": self.redis.url}
            )
            log(f"embedded Redis on {self.redis.socket} (data in {self.redis.data_dir})")
        self._move_to_current_layout()
        self._prepare_archive()
        # One metrics directory for gunicorn's processes and the bot workers, so the API's
        # /metrics shows everything; emptied at each start (prometheus-client's multiprocess mode).
        metrics_dir = self.data_dir / "metrics"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True)
        self.env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
        self.env.pop("SKYLINE_WORKER_PORT", None)  # the API's /metrics covers the workers here
        api_command = gunicorn_command(self.host, self.port, self.workers)
        self.api = Child("API", self._spawn(api_command), ready_check=self._api_is_ready)
        self.children = [self.api]
        self.children += [
            Child(
                f"bot worker {n + 1}",
                self._spawn(worker_command()),
                ready_check=self._worker_is_ready(BOT_WORKERS),
                on_death=self._forget_worker(BOT_WORKERS),
            )
            for n in range(self.bot_workers)
        ]
        # Webhooks have a worker of their own: a slow receiver never delays a bot turn.
        self.children.append(
            Child(
                "webhook worker",
                self._spawn(webhook_worker_command()),
                ready_check=self._worker_is_ready(WEBHOOK_WORKERS),
                on_death=self._forget_worker(WEBHOOK_WORKERS),
            )
        )
        for child in self.children:
            child.start()

    # ---- watching -----------------------------------------------------------------------------
    def _on_signal(self, signum: int, frame: object) -> None:
        self.interrupts += 1
        self.stopping = True

    def _all(self) -> list[Child]:
        stores = [child for child in (self.redis_child, self.postgres_child) if child is not None]
        return [*self.children, *stores]

    def _restart(self, child: Child, now: float) -> None:
        log(f"restarting the {child.name}")
        try:
            child.start()
        except Exception as error:  # Redis that does not come back, say
            child.crashes += 1
            delay = backoff(child.crashes)
            log(f"the {child.name} did not start ({error}); trying again in {delay:.1f} s")
            child.restart_at = now + delay

    def _check_ready(self, child: Child, now: float) -> None:
        assert child.ready_check is not None and child.process is not None
        if now < child.next_check_at:
            return
        child.next_check_at = now + READY_POLL_SECONDS
        if child.ready_check(child.process):
            child.ready_at = now
            if child.ever_ready:
                log(f"the {child.name} is back (pid {child.process.pid})")
            child.ever_ready = True
            if child is self.api and child.starts == 1:
                log(f"serving on http://{self.host}:{self.port} — Ctrl-C to stop")
        elif now - child.started_at > SLOW_START_SECONDS and not child.slow_start_logged:
            child.slow_start_logged = True
            log(f"the {child.name} (pid {child.process.pid}) is not ready after {SLOW_START_SECONDS:g} s")

    def _watch(self, child: Child) -> bool:
        """Restart a dead child when its backoff is over; False when it could not start at all."""
        now = time.monotonic()
        if child.restart_at is not None:
            if now >= child.restart_at:
                self._restart(child, now)
            return True
        if child.process is None:
            return True
        status = child.process.poll()
        if status is None:
            if child.ready_at is None:
                self._check_ready(child, now)
            return True
        lived = now - child.started_at
        if child.on_death is not None:
            child.on_death(child.process)
        if not child.ever_ready and status >= 0:
            # It never came up and was not killed: nothing a restart would change.
            log(
                f"the {child.name} could not start ({describe_exit(status)} after {lived:.1f} s, "
                "before it was ready; its own lines above say why); stopping"
            )
            return False
        stable = child.ready_at is not None and now - child.ready_at >= STABLE_SECONDS
        child.crashes = 1 if stable else child.crashes + 1
        delay = backoff(child.crashes)
        log(
            f"the {child.name} (pid {child.process.pid}) {describe_exit(status)} after {lived:.1f} s; "
            f"restarting it in {delay:.1f} s (crash {child.crashes} in a row)"
        )
        child.restart_at = now + delay
        return True

    # ---- stopping -------------------------------------------------------------------------------
    def _stop_children(self, children: list[Child], grace: float) -> None:
        for child in children:
            child.signal_group(child.stop_signal)
        deadline = time.monotonic() + grace
        for child in children:
            if child.process is None:
                continue
            try:
                child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log(f"the {child.name} did not stop in {grace:g} s; killing it")
                child.signal_group(signal.SIGKILL)
                child.process.wait()
        # gunicorn's workers die with their master (post_fork); make sure of it.
        for child in children:
            child.signal_group(signal.SIGKILL, even_if_exited=True)

    def stop(self) -> None:
        self._stop_children(self.children, self.stop_grace)
        if self.redis_child is not None and self.redis is not None:
            # Last, after everything that writes to it: SIGTERM makes it write out its AOF.
            self._stop_children([self.redis_child], 10.0)
            self.redis.stop()
        if self.postgres_child is not None and self.postgres is not None:
            # After Redis: the archive's writers are gone, and a game archived is never lost from
            # both (Redis lets a game go only once PostgreSQL holds it).
            self._stop_children([self.postgres_child], 30.0)
            self.postgres.stop()
        self.lock.release()

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        try:
            self.prepare()
        except BaseException:
            self.stop()
            raise
        status = 0
        try:
            while not self.stopping:
                if not all(self._watch(child) for child in self._all()):
                    status = 1
                    break
                time.sleep(0.1)
        finally:
            log("stopping")
            self.stop()
        log("stopped")
        return status


def serve(
    settings: Settings, *, port: int, host: str, workers: int, data_dir: str, bot_workers: int = 1
) -> int:
    """Run Redis (if needed), gunicorn and the bot workers until interrupted."""
    return Supervisor(
        settings, host=host, port=port, workers=workers, data_dir=data_dir, bot_workers=bot_workers
    ).run()
