"""Settings: every knob Skyline reads from its environment, read here and nowhere else (12-factor).

A setting is one line of ``Settings``::

    name: type = setting("VARIABLE", default, "what it does, for docs/deploy.md's table")

- The default is written once: it is what an unset (or empty) variable means, and what code
  building ``Settings`` by hand gets.
- The annotation says how the variable is read: ``int``, ``float``, ``bool`` (a flag:
  1/0, true/false, yes/no, on/off), ``str``, ``str | None``, ``Literal[...]`` (one of a few
  words, any case), or ``kind=`` for a shape of its own (a rate, a list of origins, a schedule).
  Numbers are at least ``minimum`` (0 unless said) and at most ``maximum``.
- A value that does not read is refused with a ``SettingError`` naming the variable, the value
  and what was expected; `skyline` prints it as one line and exits 2.

The reader is a few lines over ``dataclasses.fields`` rather than environs: environs reads
through marshmallow, and this module is imported by the worker and the lower rooms, which must
not load marshmallow (tests/service/test_rooms.py). docs/deploy.md's table of settings is
generated from these lines (``skyline settings``), and a test holds the two together.

What a child process must find in its environment by nature (``PROMETHEUS_MULTIPROC_DIR``,
which prometheus-client reads itself; the environment handed to children) goes through
``environment()`` and ``export()``, so that ``os.environ`` is spelled in this module only.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints


class SettingError(ValueError):
    """A variable whose value cannot be read; the message names it."""


@dataclass(frozen=True)
class Kind:
    """How a variable's text becomes a value (``read`` raises ValueError saying what it expected),
    and how a value is written back as text (``show``: the defaults in docs/deploy.md)."""

    read: Callable[[str], Any]
    show: Callable[[Any], str] = str


def _read_int(text: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError("expected a whole number")
    return int(text)


def _read_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("expected a number") from None
    if not math.isfinite(value):
        raise ValueError("expected a finite number")
    return value


_FLAGS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


def _read_flag(text: str) -> bool:
    try:
        return _FLAGS[text.lower()]
    except KeyError:
        raise ValueError("expected a flag: 1/0, true/false, yes/no or on/off") from None


def _choice(words: tuple[str, ...]) -> Kind:
    def read(text: str) -> str:
        for word in words:
            if word.lower() == text.lower():
                return word
        raise ValueError(f"expected one of {', '.join(words)}")

    return Kind(read)


INT = Kind(_read_int)
FLOAT = Kind(_read_float, lambda value: f"{value:g}")
FLAG = Kind(_read_flag, lambda value: "on" if value else "off")
TEXT = Kind(str)


# ---- the kinds of their own ------------------------------------------------------------------------------
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*(s|m|h)?\s*$")
_UNIT = {None: 1, "s": 1, "m": 60, "h": 3600}
_OFF = ("", "0", "off", "none", "false")


def parse_rate(text: str | None, name: str = "rate") -> tuple[int, int] | None:
    """``"600/60"`` (600 requests per 60 s), ``"100/1m"``; ``"off"`` or ``"0"`` is no limit."""
    if text is None or text.strip().lower() in _OFF:
        return None
    match = _RATE.match(text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(
            f"{name}: expected REQUESTS/SECONDS such as 600/60 or 100/1m, or 'off'; got {text!r}"
        )
    return int(match[1]), int(match[2]) * _UNIT[match[3]]


def _read_rate(text: str) -> tuple[int, int] | None:
    try:
        return parse_rate(text)
    except ValueError:
        raise ValueError(
            "expected REQUESTS/SECONDS such as 600/60 or 100/1m (each at least 1), or off"
        ) from None


def parse_origins(text: str | None) -> tuple[str, ...] | None:
    """``SKYLINE_CORS_ORIGINS``: ``*`` (default), a comma-separated list of origins, or ``off``."""
    if text is None or text.strip() == "":
        return ("*",)
    if text.strip().lower() in ("off", "none", "false", "0"):
        return None
    origins = tuple(part.strip().rstrip("/") for part in text.split(",") if part.strip())
    return ("*",) if "*" in origins else origins


# The Standard Webhooks retry schedule: the delays (seconds) before attempts 2 to 10.
WEBHOOK_RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0)


def parse_schedule(text: str | None) -> tuple[float, ...]:
    """``SKYLINE_WEBHOOK_RETRY_SCHEDULE``: seconds, comma-separated (tests); empty: the spec's."""
    if text is None or not text.strip():
        return WEBHOOK_RETRY_SCHEDULE
    try:
        delays = tuple(_read_float(part.strip()) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError("expected seconds, comma-separated (5,300,1800)") from None
    if any(delay < 0 for delay in delays):
        raise ValueError("expected seconds of 0 or more, comma-separated (5,300,1800)")
    return delays


RATE = Kind(_read_rate, lambda rate: "off" if rate is None else f"{rate[0]}/{rate[1]}")
ORIGINS = Kind(parse_origins, lambda origins: "off" if origins is None else ",".join(origins))
SCHEDULE = Kind(parse_schedule, lambda delays: ",".join(f"{delay:g}" for delay in delays))


def setting(
    env: str,
    default: Any,
    doc: str,
    *,
    kind: Kind | None = None,
    minimum: float | None = 0,
    maximum: float | None = None,
) -> Any:
    """One setting: its variable, its default, the sentence the docs show (see the module's doc)."""
    metadata = {"env": env, "doc": doc, "kind": kind, "minimum": minimum, "maximum": maximum}
    return field(default=default, metadata=metadata)


DAY = 24 * 3600
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


@dataclass(frozen=True)
class Settings:
    # One line a setting: ruff format leaves them so, and E501 is off for this file (pyproject.toml).
    # fmt: off
    # ---- Redis, PostgreSQL, and the API's processes
    redis_url: str | None = setting("REDIS_URL", None, "`redis://`, `rediss://` (TLS) or `unix://`; required by the API and the workers; unset, `skyline serve` starts an embedded Redis")
    redis_cluster: bool = setting("SKYLINE_REDIS_CLUSTER", False, "`REDIS_URL` names any node of a Redis Cluster (docs/cluster.md); `RQ_REDIS_URL` is then required")
    rq_redis_url: str | None = setting("RQ_REDIS_URL", None, "the Redis of the RQ queues (bot turns, webhook deliveries): a standalone one (RQ cannot use a Redis Cluster), any URL `REDIS_URL` takes; unset, `REDIS_URL`. A lost queue loses no turn: the sweeper enqueues every waiting bot turn again, within job timeout + abandon grace + `SKYLINE_SWEEP_SECONDS` (50 s by default)")
    database_url: str | None = setting("DATABASE_URL", None, "`postgresql://…` (any libpq URI): the archive of ended games; unset, `skyline serve` starts an embedded PostgreSQL under the data folder")
    host: str = setting("HOST", "127.0.0.1", "the API's address (image: `0.0.0.0`)")
    port: int = setting("PORT", 8000, "the API's port", maximum=65535)
    web_concurrency: int = setting("WEB_CONCURRENCY", 2, "gunicorn processes", minimum=1)
    worker_class: Literal["gevent", "gthread"] = setting("SKYLINE_WORKER_CLASS", "gevent", "gunicorn's worker class: `gevent` (a stream is a greenlet) or `gthread` (a thread each)")
    worker_connections: int = setting("SKYLINE_WORKER_CONNECTIONS", 10000, "connections each gunicorn process holds at most, streams included (gevent)", minimum=1)
    threads: int = setting("SKYLINE_THREADS", 8, "threads per gunicorn process, with `SKYLINE_WORKER_CLASS=gthread` only", minimum=1)
    graceful_timeout: int = setting("SKYLINE_GRACEFUL_TIMEOUT", 20, "seconds gunicorn gives requests in flight on SIGTERM")
    redis_connections: int = setting("SKYLINE_REDIS_CONNECTIONS", 32, "Redis connections per API process (a request waits for a free one)", minimum=1)
    # ---- games
    game_ttl_seconds: int = setting("SKYLINE_GAME_TTL_SECONDS", 14 * DAY, "an active game left idle this long (no move, no seat change) ends as `expired`, is archived and leaves Redis", minimum=1)
    finished_game_ttl_seconds: int = setting("SKYLINE_FINISHED_GAME_TTL_SECONDS", 3600, "an ended game (finished, aborted, expired) stays in Redis this long once archived, a grace; it never leaves Redis before the archive holds it", minimum=1)
    lobby_ttl_seconds: int = setting("SKYLINE_LOBBY_TTL_SECONDS", DAY, "a game still waiting for players (open seats) this long after its creation ends as `expired` and leaves the lobby", minimum=1)
    recent_games: int = setting("SKYLINE_RECENT_GAMES", 256, "games per API process whose last committed state is kept, and four times as many seats' move listings (0: none; see below)")
    # ---- requests: limits
    max_body_bytes: int = setting("SKYLINE_MAX_BODY_BYTES", 64 * 1024, "request bodies above are refused, 413 `body_too_large`", minimum=1)
    rate_limit_per_address: tuple[int, int] | None = setting("SKYLINE_RATE_LIMIT_PER_ADDRESS", (1200, 60), "requests per client address (IPv6: per /64), `REQUESTS/SECONDS` or `off` (§6)", kind=RATE)
    rate_limit_per_token: tuple[int, int] | None = setting("SKYLINE_RATE_LIMIT_PER_TOKEN", (600, 60), "requests per seat token, from any address (§6)", kind=RATE)
    trusted_proxy_hops: int = setting("SKYLINE_TRUSTED_PROXY_HOPS", 0, "proxies appending to `X-Forwarded-For` (chart: 1 with its Ingress) (§6)")
    cors_origins: tuple[str, ...] | None = setting("SKYLINE_CORS_ORIGINS", ("*",), "origins a browser may call from (§9): `*`, a comma-separated list, or `off`", kind=ORIGINS)
    # ---- event streams
    sse_max_seconds: int = setting("SKYLINE_SSE_MAX_SECONDS", 300, "an event stream closes after this long (clients resume with `Last-Event-ID`)", minimum=1)
    sse_heartbeat_seconds: int = setting("SKYLINE_SSE_HEARTBEAT_SECONDS", 15, "a stream's heartbeat, and how soon one whose client left is closed", minimum=1)
    streams_per_address: int = setting("SKYLINE_STREAMS_PER_ADDRESS", 50, "open event streams per client address (0: no cap); beyond, 429 `too_many_streams`")
    streams_per_token: int = setting("SKYLINE_STREAMS_PER_TOKEN", 10, "open event streams per seat token (0: no cap)")
    # ---- bots
    bot_job_timeout: int = setting("SKYLINE_BOT_JOB_TIMEOUT", 30, "a bot job's time limit (set by the API on each job)", minimum=1)
    bot_stall_seconds: float = setting("SKYLINE_BOT_STALL_SECONDS", 30.0, "a bot seat idle this long is re-enqueued when a client reads the game")
    live_games_per_player: int = setting("SKYLINE_LIVE_GAMES_PER_PLAYER", 200, "live games (waiting or active) a player key may hold a seat of (0: no cap); beyond, 429 `too_many_live_games`")
    players_per_address: tuple[int, int] | None = setting("SKYLINE_PLAYERS_PER_ADDRESS", (20, 3600), "players created (`POST /players`) per client address, `COUNT/SECONDS` or `off`", kind=RATE)
    bot_games_per_address: int = setting("SKYLINE_BOT_GAMES_PER_ADDRESS", 20, "running games of bots only per client address (0: no quota); beyond, 429 `too_many_bot_games`")
    bot_pressure_jobs: int = setting("SKYLINE_BOT_PRESSURE_JOBS", 8, "queued bot turns from which bots think a quarter of their level's time", minimum=1)
    # ---- the workers
    worker_port: int = setting("SKYLINE_WORKER_PORT", 0, "a worker's `/metrics` and `/healthz` (0: none; image: 9100)", maximum=65535)
    worker_abandon_grace_seconds: int = setting("SKYLINE_WORKER_ABANDON_GRACE_SECONDS", 15, "a job whose worker died is retried this long after its timeout (§4)")
    worker_maintenance_seconds: int = setting("SKYLINE_WORKER_MAINTENANCE_SECONDS", 60, "how often a worker looks for abandoned jobs", minimum=1)
    worker_ttl_seconds: int = setting("SKYLINE_WORKER_TTL_SECONDS", 60, "a worker's registration lifetime; an idle worker wakes every TTL − 15 s", minimum=1)
    sweep_seconds: float = setting("SKYLINE_SWEEP_SECONDS", 5.0, "how often a worker's sweeper looks for games waiting on a bot longer than job timeout + grace, and for passed turn deadlines (0: off)")
    archive_seconds: float = setting("SKYLINE_ARCHIVE_SECONDS", 1.0, "how often a worker's archiver writes the ended games due to PostgreSQL (with `DATABASE_URL`; 0: off)")
    archive_lease_seconds: float = setting("SKYLINE_ARCHIVE_LEASE_SECONDS", 60.0, "how long a worker holds a game it archives; after a crash, how soon another takes it", minimum=1)
    archive_timeout_seconds: float = setting("SKYLINE_ARCHIVE_TIMEOUT_SECONDS", 10.0, "how long a read of a game Redis has let go waits for a PostgreSQL connection before it is a 503 `archive_unavailable`", minimum=0.1)
    fault_bot_delay_seconds: float = setting("SKYLINE_FAULT_BOT_DELAY_SECONDS", 0.0, "crash tests only: every bot move waits this long first; never set it in production")
    # ---- webhooks
    webhook_allow_http: bool = setting("SKYLINE_WEBHOOK_ALLOW_HTTP", False, "webhook URLs may use `http` (tests, private networks)")
    webhook_allow_private: bool = setting("SKYLINE_WEBHOOK_ALLOW_PRIVATE", False, "webhook hosts may resolve to loopback, private or link-local addresses")
    webhook_retry_schedule: tuple[float, ...] = setting("SKYLINE_WEBHOOK_RETRY_SCHEDULE", WEBHOOK_RETRY_SCHEDULE, "seconds between a delivery's attempts, comma-separated (the Standard Webhooks schedule, 5 s … 24 h)", kind=SCHEDULE)
    webhook_lease_seconds: float = setting("SKYLINE_WEBHOOK_LEASE_SECONDS", 60.0, "how long a webhook worker holds an endpoint it delivers to; after a crash, how soon another sends again")
    webhook_rate_per_second: int = setting("SKYLINE_WEBHOOK_RATE_PER_SECOND", 20, "deliveries a second to one receiving URL, across games (0: no bound)")
    # ---- logs and metrics
    log_level: LogLevel = setting("SKYLINE_LOG_LEVEL", "INFO", "the lowest level logged")
    log_format: Literal["auto", "json", "text"] = setting("SKYLINE_LOG_FORMAT", "auto", "`json` (one object a line, for collectors), `text` (readable lines), or `auto`: text when the log's stream (stdout) is a terminal, else json")
    access_log: bool = setting("SKYLINE_ACCESS_LOG", True, "one log line per request (logger `skyline.access`)")
    prometheus_multiproc_dir: str | None = setting("PROMETHEUS_MULTIPROC_DIR", None, "where every process writes its metrics (§5); unset, the gunicorn config makes a fresh one")
    # ---- `skyline serve`
    data_dir: str = setting("SKYLINE_DATA_DIR", "var", "`skyline serve`: the data folder (Redis's AOF, the lock, metrics)")
    stop_grace_seconds: float = setting("SKYLINE_STOP_GRACE_SECONDS", 3.0, "`skyline serve`: how long the API and workers get to stop before SIGKILL")
    # fmt: on

    @property
    def queue_redis_url(self) -> str | None:
        """Where RQ's queues live: ``RQ_REDIS_URL``, else the store's ``REDIS_URL`` (not a cluster's:
        RQ cannot use one)."""
        if self.redis_cluster:
            return self.rq_redis_url
        return self.rq_redis_url or self.redis_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``environ`` (the process's environment by default); a bad value raises
        ``SettingError`` naming its variable."""
        environ = os.environ if environ is None else environ
        values = {}
        for each in fields(cls):
            text = environ.get(each.metadata["env"], "").strip()
            if text:
                values[each.name] = _read(each.name, text)
        settings = cls(**values)
        if settings.redis_cluster and not (settings.redis_url and settings.rq_redis_url):
            raise SettingError(
                "SKYLINE_REDIS_CLUSTER=1 needs REDIS_URL (any node of the cluster) and RQ_REDIS_URL"
                " (a standalone Redis for the queues: RQ cannot use a Redis Cluster)"
            )
        return settings


def kind_of(name: str) -> Kind:
    """How the setting ``name`` is read: its ``kind=``, else what its annotation says."""
    return _kinds()[name]


@cache
def _kinds() -> dict[str, Kind]:
    hints = get_type_hints(Settings)
    kinds = {}
    for each in fields(Settings):
        hint = hints[each.name]
        if each.metadata["kind"] is not None:
            kinds[each.name] = each.metadata["kind"]
        elif get_origin(hint) is Literal:
            kinds[each.name] = _choice(get_args(hint))
        elif hint is bool:
            kinds[each.name] = FLAG
        elif hint is int:
            kinds[each.name] = INT
        elif hint is float:
            kinds[each.name] = FLOAT
        elif hint in (str, str | None):
            kinds[each.name] = TEXT
        else:
            raise TypeError(f"Settings.{each.name}: give its setting a kind= to read {hint} with")
    return kinds


def _read(name: str, text: str) -> Any:
    meta = Settings.__dataclass_fields__[name].metadata
    try:
        value = kind_of(name).read(text)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if meta["minimum"] is not None and value < meta["minimum"]:
                raise ValueError(f"expected {meta['minimum']:g} or more")
            if meta["maximum"] is not None and value > meta["maximum"]:
                raise ValueError(f"expected {meta['maximum']:g} or less")
    except ValueError as error:
        raise SettingError(f"{meta['env']}={text!r}: {error}") from None
    return value


@dataclass(frozen=True)
class Described:
    """One setting as docs/deploy.md shows it: its default as its variable would say it (None: unset)."""

    env: str
    default: str | None
    doc: str


def described() -> Iterator[Described]:
    for each in fields(Settings):
        value = each.default
        shown = None if value is None else kind_of(each.name).show(value)
        yield Described(each.metadata["env"], shown, each.metadata["doc"])


def settings_table() -> str:
    """docs/deploy.md's table of settings, in markdown (``skyline settings`` prints it)."""
    rows = ["| variable | default | role |", "|---|---|---|"]
    for row in described():
        default = "unset" if row.default is None else f"`{row.default}`"
        if row.env.endswith("_SECONDS") and row.default and row.default.isdigit():
            seconds = int(row.default)
            default += f" ({seconds // DAY} d)" if seconds >= DAY and seconds % DAY == 0 else ""
        rows.append(f"| `{row.env}` | {default} | {row.doc} |")
    return "\n".join(rows) + "\n"


def environment(**overrides: str) -> dict[str, str]:
    """This process's environment, for a child: the variables it reads its own settings from."""
    return {**os.environ, **overrides}


def export(variable: str, value: str) -> None:
    """Set a variable this process's own libraries read (prometheus-client reads
    ``PROMETHEUS_MULTIPROC_DIR`` itself) and its children inherit."""
    os.environ[variable] = value
