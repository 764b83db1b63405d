"""Seat tokens: random secrets handed out once, stored only as hashes, compared in constant time.

How a token travels (``Authorization: Bearer <token>``) is HTTP's business: ``service.http.bearer``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Sequence

from ..store.records import SeatRecord
from .errors import InvalidToken


def new_token() -> str:
    return secrets.token_urlsafe(32)


@functools.lru_cache(maxsize=4096)  # the seats playing now: each request hashes its token twice
def token_hash(token: str) -> str:
    # Tokens carry 256 random bits, so a fast hash is enough: no dictionary to defend against.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of(seats: Sequence[SeatRecord], token: str | None) -> int | None:
    """Return the seat the token belongs to; None for no token (a spectator)."""
    if token is None:
        return None
    wanted = token_hash(token)
    found = None
    for seat in seats:
        stored = seat.get("token_hash")
        # Compare against every seat so the time taken does not tell which one matched.
        if stored is not None and hmac.compare_digest(stored, wanted):
            found = seat["seat"]
    if found is None:
        raise InvalidToken("That token belongs to no seat of this game.")
    return found
