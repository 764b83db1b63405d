"""Settings, read from the environment once (12-factor): every knob has a sane default."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "on", "true", "yes")


_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*(s|m|h)?\s*$")
_UNIT = {None: 1, "s": 1, "m": 60, "h": 3600}


def parse_rate(text: str | None, name: str = "rate") -> tuple[int, int] | None:
    """``"600/60"`` (600 requests per 60 s), ``"100/1m"``; ``"off"`` or ``"0"`` is no limit."""
    if text is None or text.strip().lower() in ("", "0", "off", "none", "false"):
        return None
    match = _RATE.match(text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(
            f"{name}: expected REQUESTS/SECONDS such as 600/60 or 100/1m, or 'off'; got {text!r}"
        )
    return int(match[1]), int(match[2]) * _UNIT[match[3]]


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
    return tuple(float(part) for part in text.split(",") if part.strip())


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    game_ttl_seconds: int  # an idle game expires after this long
    finished_game_ttl_seconds: int  # a finished game is kept this long
    max_body_bytes: int
    bot_job_timeout: int
    sse_max_seconds: int
    sse_heartbeat_seconds: int
    # Production knobs (issue 9): each has a default, so code building Settings by hand still works.
    rate_limit_per_address: tuple[int, int] | None = (1200, 60)  # requests, window seconds
    rate_limit_per_token: tuple[int, int] | None = (600, 60)
    trusted_proxy_hops: int = 0  # X-Forwarded-For entries to trust (load balancer, ingress)
    bot_stall_seconds: float = 30.0  # a bot seat idle this long gets its turn enqueued again on GET
    access_log: bool = True
    recent_games: int = 256  # games per API process whose last committed state is kept (0: none)
    redis_connections: int = 32  # Redis connections per API process (requests wait for one)
    bot_games_per_address: int = 20  # running games of bots only per client address (0: no cap)
    streams_per_address: int = 50  # open event streams per client address (0: no cap)
    streams_per_token: int = 10  # open event streams per seat token (0: no cap)
    cors_origins: tuple[str, ...] | None = ("*",)  # origins answered CORS (None: no CORS headers)
    lobby_ttl_seconds: int = 24 * 3600  # a game waiting for players expires this long after creation
    webhook_allow_http: bool = False  # webhook URLs may use http (tests, private networks)
    webhook_allow_private: bool = False  # webhook hosts may resolve to loopback/private addresses
    webhook_retry_schedule: tuple[float, ...] = WEBHOOK_RETRY_SCHEDULE
    webhook_lease_seconds: float = 60.0  # a claimed endpoint is left to its worker this long
    webhook_rate_per_second: int = 20  # deliveries a second to one URL (0: no bound)

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            game_ttl_seconds=_int("SKYLINE_GAME_TTL_SECONDS", 14 * 24 * 3600),
            finished_game_ttl_seconds=_int("SKYLINE_FINISHED_GAME_TTL_SECONDS", 7 * 24 * 3600),
            max_body_bytes=_int("SKYLINE_MAX_BODY_BYTES", 64 * 1024),
            bot_job_timeout=_int("SKYLINE_BOT_JOB_TIMEOUT", 30),
            sse_max_seconds=_int("SKYLINE_SSE_MAX_SECONDS", 300),
            sse_heartbeat_seconds=_int("SKYLINE_SSE_HEARTBEAT_SECONDS", 15),
            rate_limit_per_address=parse_rate(
                os.environ.get("SKYLINE_RATE_LIMIT_PER_ADDRESS", "1200/60"), "SKYLINE_RATE_LIMIT_PER_ADDRESS"
            ),
            rate_limit_per_token=parse_rate(
                os.environ.get("SKYLINE_RATE_LIMIT_PER_TOKEN", "600/60"), "SKYLINE_RATE_LIMIT_PER_TOKEN"
            ),
            trusted_proxy_hops=_int("SKYLINE_TRUSTED_PROXY_HOPS", 0),
            bot_stall_seconds=float(os.environ.get("SKYLINE_BOT_STALL_SECONDS") or 30),
            access_log=os.environ.get("SKYLINE_ACCESS_LOG", "on").strip().lower()
            not in ("0", "off", "false"),
            recent_games=_int("SKYLINE_RECENT_GAMES", 256),
            redis_connections=_int("SKYLINE_REDIS_CONNECTIONS", 32),
            bot_games_per_address=_int("SKYLINE_BOT_GAMES_PER_ADDRESS", 20),
            streams_per_address=_int("SKYLINE_STREAMS_PER_ADDRESS", 50),
            streams_per_token=_int("SKYLINE_STREAMS_PER_TOKEN", 10),
            cors_origins=parse_origins(os.environ.get("SKYLINE_CORS_ORIGINS")),
            lobby_ttl_seconds=_int("SKYLINE_LOBBY_TTL_SECONDS", 24 * 3600),
            webhook_allow_http=_flag("SKYLINE_WEBHOOK_ALLOW_HTTP"),
            webhook_allow_private=_flag("SKYLINE_WEBHOOK_ALLOW_PRIVATE"),
            webhook_retry_schedule=parse_schedule(os.environ.get("SKYLINE_WEBHOOK_RETRY_SCHEDULE")),
            webhook_lease_seconds=float(os.environ.get("SKYLINE_WEBHOOK_LEASE_SECONDS") or 60),
            webhook_rate_per_second=_int("SKYLINE_WEBHOOK_RATE_PER_SECOND", 20),
        )
