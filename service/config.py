"""Settings, read from the environment once (12-factor): every knob has a sane default."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    game_ttl_seconds: int  # an idle game expires after this long
    finished_game_ttl_seconds: int  # a finished game is kept this long
    max_body_bytes: int
    bot_job_timeout: int
    sse_max_seconds: int
    sse_heartbeat_seconds: int

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
        )
