"""Opaque page cursors: where the previous page stopped, as a (number, key) pair.

The lobby's pages stop at a (creation time, game id), the deliveries' at a (version, delivery id);
both are written as URL-safe base64 of a JSON pair, so that a client passes them back untouched
and a cursor it made up, or one from another listing, is refused with a sentence.
"""

from __future__ import annotations

import base64
import binascii

import orjson

from engines.core import say

from .errors import BadCursor


def write_cursor(number: float, key: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps([number, key])).decode().rstrip("=")


def read_cursor(cursor: str, listing: str) -> tuple[float, str]:
    """The (number, key) a cursor holds; ``listing`` names the listing in the refusal (the message
    service.listing.<listing>: my_games, lobby, deliveries, leaderboard)."""
    try:
        number, key = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(key, str) or not isinstance(number, int | float) or isinstance(number, bool):
            raise ValueError(cursor)
        return float(number), key
    except (ValueError, TypeError, binascii.Error, orjson.JSONDecodeError):
        raise BadCursor(
            say(
                "service.refusal.bad_cursor.cursor_was_written_start",
                listing=say(f"service.listing.{listing}"),
            )
        ) from None
