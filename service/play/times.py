"""Times as the service writes them, in every reply and every notice: RFC 3339, UTC, to the second,
with ``Z`` (``2026-12-02T14:25:39Z``), the way JavaScript's ``toISOString``, GitHub and Stripe
write them; Python (3.11+), JavaScript's ``Date`` and typed clients read it as it is. One
spelling, from this one function: a client that compares or parses them never meets two."""

from __future__ import annotations

import datetime
import math
import time


def rfc3339(at: float, *, round_up: bool = False, microseconds: bool = False) -> str:
    """``at`` (seconds since the epoch) to the second below it, or with ``round_up`` the second
    above (a deadline shown is never earlier than the real one); with ``microseconds``, as it is
    to the microsecond (a webhook's ``timestamp``: notices of one second keep their order)."""
    if microseconds:
        whole = math.floor(at)
        fraction = min(round((at - whole) * 1_000_000), 999_999)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{fraction:06d}Z"
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(math.ceil(at) if round_up else math.floor(at)))


def utc_datetime(at: float) -> datetime.datetime:
    """``at`` (seconds since the epoch) as an aware UTC datetime: how the archive keeps a time."""
    return datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
