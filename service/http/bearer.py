"""The seat token of a request: ``Authorization: Bearer <token>``."""

from __future__ import annotations

from engines.core import say

from .problems import Problem

# Where ``players_api.PlayerKeyLayer`` leaves the seat a player key names (``?seat=``).
PLAYER_SEAT = "skyline.player_seat"


def bearer_token(header: str | None) -> str | None:
    """Return the token of an ``Authorization: Bearer`` header, None when absent."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise Problem(
            401,
            "malformed_authorization",
            say("service.refusal.malformed_authorization.send_seat_token_authorization"),
        )
    return token
