"""Webhooks, the use case's half: which URLs may receive, their secrets, what a move announces.

Standard Webhooks (https://www.standardwebhooks.com): a secret is ``whsec_`` and the base64 of
24 random bytes; a notice is ``{"type", "timestamp", "data"}`` whose ``data`` holds public
facts only (what ``view(None)`` shows: never a hand, a token, a sealed bid).

- ``check_url``: ``https`` only, and a host that resolves to no loopback, private, link-local,
  multicast, reserved or unspecified address — at registration and again before each delivery
  (DNS can change; the delivery connects to the address it checked). Relaxed, for tests and
  private networks, by ``SKYLINE_WEBHOOK_ALLOW_HTTP`` and ``SKYLINE_WEBHOOK_ALLOW_PRIVATE``.
- ``EVENT_TYPES``: the service's log events and the notice type each becomes. The seat and
  clock events of the lobby (``seat_joined``, ``seat_resigned``, ``turn_timed_out``,
  ``game_started``) become notices by an entry in this table, nothing else.
- ``notices_for``: the notices one committed version announces (a human seat to act: one
  ``game.turn`` per seat and version; the end: ``game.finished``).

Not wired yet (issue 48, part C, in progress): registration at creation and ``PUT
/games/{id}/webhook``, the outbox written by the commit script, the RQ queue, the deliveries
route. ``worker/webhooks.py`` signs and delivers one notice.
"""

from __future__ import annotations

import base64
import ipaddress
import secrets
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .errors import PlayError

SECRET_PREFIX = "whsec_"
# The notice types a subscription may ask for; a subscription without ``events`` gets all.
NOTICE_TYPES = (
    "game.started",
    "game.turn",
    "game.finished",
    "seat.joined",
    "seat.resigned",
    "turn.timed_out",
    "deadline.near",
)
# A service log event (issue 47's lobby and clocks log these) -> the notice it becomes.
EVENT_TYPES: dict[str, str] = {
    "game_started": "game.started",
    "seat_joined": "seat.joined",
    "seat_resigned": "seat.resigned",
    "turn_timed_out": "turn.timed_out",
    "deadline_near": "deadline.near",
}
# The notices a seat's own webhook receives (its turn, its deadline, the end).
SEAT_NOTICES = frozenset({"game.turn", "deadline.near", "turn.timed_out", "game.finished"})
# What a log event may carry into a notice: public facts only (never a card, a bid, a token).
PUBLIC_EVENT_FIELDS = ("seat", "by", "deadline", "replaced_by")
MAX_URL_LENGTH = 2048


class WebhookRefused(PlayError):
    """A webhook URL that may not receive notices (scheme, host, address)."""

    code = "webhook_url_refused"


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_`` secret."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


Resolver = Callable[[str, int], Iterable[str]]


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (TCP)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def _forbidden(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (one of the addresses checked), and what to ask for."""

    url: str
    scheme: str
    host: str
    port: int
    path: str
    address: str


def check_url(
    url: Any,
    *,
    allow_http: bool = False,
    allow_private: bool = False,
    resolver: Resolver = resolve,
) -> Target:
    """The URL's target if it may receive notices; raises ``WebhookRefused`` with the reason."""
    if not isinstance(url, str) or not 0 < len(url) <= MAX_URL_LENGTH:
        raise WebhookRefused(f"A webhook URL is a string of 1 to {MAX_URL_LENGTH} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookRefused("The webhook URL cannot be read.") from None
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes:
        raise WebhookRefused(
            "A webhook URL must use https"
            + ("." if allow_http else " (SKYLINE_WEBHOOK_ALLOW_HTTP lets an operator allow http).")
        )
    if not parts.hostname:
        raise WebhookRefused("The webhook URL names no host.")
    if parts.username or parts.password:
        raise WebhookRefused("A webhook URL carries no user name or password.")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = list(resolver(parts.hostname, port))
    except (OSError, UnicodeError):
        raise WebhookRefused(f"The webhook host {parts.hostname!r} does not resolve.") from None
    if not addresses:
        raise WebhookRefused(f"The webhook host {parts.hostname!r} does not resolve.")
    if not allow_private:
        for address in addresses:
            if _forbidden(address):
                raise WebhookRefused(
                    f"The webhook host {parts.hostname!r} resolves to {address}, a loopback, private, "
                    "link-local or multicast address (SKYLINE_WEBHOOK_ALLOW_PRIVATE lets an operator "
                    "allow them)."
                )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(url, parts.scheme, parts.hostname, port, path, addresses[0])


def check_events(events: Any) -> tuple[str, ...]:
    if events is None:
        return NOTICE_TYPES
    if not isinstance(events, list) or not events or not all(e in NOTICE_TYPES for e in events):
        raise WebhookRefused("Webhook events are a non-empty list of: " + ", ".join(NOTICE_TYPES) + ".")
    return tuple(dict.fromkeys(events))


# ---- what a committed version announces ----------------------------------------------------
def notice(kind: str, data: dict[str, Any], at: float | None = None) -> dict[str, Any]:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if at is None else at))
    return {"type": kind, "timestamp": stamp, "data": data}


def notices_for(
    game_id: str,
    title: str,
    version: int,
    to_act: list[int],
    human_seats: Iterable[int],
    status: str,
    events: Iterable[dict[str, Any]] = (),
    result: dict[str, Any] | None = None,
) -> list[tuple[int | None, dict[str, Any]]]:
    """The notices of one version, each with the seat it concerns (None: the whole game).

    ``events`` are the version's log events; only those in ``EVENT_TYPES`` become notices,
    with their public fields. ``result`` (a finished game's) gives the ranking only.
    """
    base = {"game_id": game_id, "title": title, "version": version, "to_act": list(to_act)}
    found: list[tuple[int | None, dict[str, Any]]] = []
    for event in events:
        kind = EVENT_TYPES.get(event.get("type", ""))
        if kind is not None:
            extra = {k: event[k] for k in PUBLIC_EVENT_FIELDS if k in event}
            found.append((extra.get("seat"), notice(kind, {**base, **extra})))
    if status == "finished":
        ranking = (result or {}).get("ranking")
        found.append((None, notice("game.finished", {**base, "ranking": ranking})))
    else:
        humans = set(human_seats)
        for seat in to_act:
            if seat in humans:
                found.append((seat, notice("game.turn", {**base, "seat": seat})))
    return found


def delivery_id(game_id: str, version: int, kind: str, seat: int | None, endpoint: str) -> str:
    """The ``webhook-id`` of a notice to one endpoint: the same on every retry, unique otherwise."""
    who = "game" if seat is None else f"seat{seat}"
    return f"msg_{game_id}_{version}_{kind}_{who}_{endpoint}"
