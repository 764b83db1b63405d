"""Seat tokens and player keys: random secrets handed out once, stored only as hashes, compared
in constant time.

A player key (``sk_player_...``, service.play.players) is told from a seat token by its prefix
alone. Once its player is known, a request carries a ``PlayerCredential`` where a seat token would
go, and ``seat_of`` finds the seat bound to that player. How a token travels
(``Authorization: Bearer <token>``) is HTTP's business: ``service.http.bearer``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Sequence

from engines.core import say

from ..store.records import SeatRecord
from .errors import InvalidToken, NotYourGame, NotYourSeat, SeatAmbiguous

PLAYER_KEY_PREFIX = "sk_player_"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_player_key() -> str:
    return PLAYER_KEY_PREFIX + secrets.token_urlsafe(32)


def is_player_key(bearer: str) -> bool:
    return bearer.startswith(PLAYER_KEY_PREFIX)


class PlayerCredential(str):
    """A request's player, known from its key, and the seat it names (``?seat=``), if any.

    A ``str`` so that it goes where a seat token goes (every use case takes ``token: str | None``)
    without another parameter through every room; its text is ``player:<id>``, never the key, so a
    digest made of it (a stream's cap) is the player's and not a seat token's."""

    player_id: str
    seat: int | None
    # The digest of the key it was made from: what a long request (an event stream) checks again,
    # and what a rotation must find still current.
    key_hash: str | None

    def __new__(
        cls, player_id: str, seat: int | None = None, key_hash: str | None = None
    ) -> PlayerCredential:
        made = super().__new__(cls, f"player:{player_id}")
        made.player_id = player_id
        made.seat = seat
        made.key_hash = key_hash
        return made


def seats_of_player(seats: Sequence[SeatRecord], player_id: str) -> list[int]:
    """The seats a player holds: bound to it and taken (an invitation not yet taken is not held)."""
    return [seat["seat"] for seat in seats if seat.get("player") == player_id and seat["kind"] != "open"]


def _seat_of_player(seats: Sequence[SeatRecord], credential: PlayerCredential) -> int:
    held = seats_of_player(seats, credential.player_id)
    if not held:
        raise NotYourGame(say("service.refusal.player_not_seated.player_holds_seat_game"))
    if credential.seat is not None:
        if credential.seat not in held:
            raise NotYourSeat(
                say(
                    "service.refusal.seat_not_yours.seat_player_s_holds",
                    seat=str(credential.seat),
                    held=str(held),
                ),
                seats=held,
            )
        return credential.seat
    if len(held) > 1:
        raise SeatAmbiguous(
            say("service.refusal.seat_ambiguous.player_holds_seats_game", held=str(held)), seats=held
        )
    return held[0]


@functools.lru_cache(maxsize=4096)  # the seats playing now: each request hashes its token twice
def token_hash(token: str) -> str:
    # Tokens carry 256 random bits, so a fast hash is enough: no dictionary to defend against.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of(seats: Sequence[SeatRecord], token: str | None) -> int | None:
    """Return the seat the token belongs to; None for no token (a spectator)."""
    if token is None:
        return None
    if isinstance(token, PlayerCredential):
        return _seat_of_player(seats, token)
    wanted = token_hash(token)
    found = None
    for seat in seats:
        stored = seat.get("token_hash")
        # Compare against every seat so the time taken does not tell which one matched.
        if stored is not None and hmac.compare_digest(stored, wanted):
            found = seat["seat"]
    if found is None:
        raise InvalidToken(say("service.refusal.invalid_token.token_belongs_seat_game"))
    return found
