"""Webhooks, the use case's half: which URLs may receive, their secrets, what a move announces.

Standard Webhooks (https://www.standardwebhooks.com): a secret is ``whsec_`` and the base64 of
24 random bytes; a notice is ``{"type", "timestamp", "data"}`` whose ``data`` holds public
facts only (what ``view(None)`` shows: never a hand, a token, a sealed bid).

- ``check_url``: ``https`` only, a host that is a DNS name (refused before any resolver is
  asked), and every address it resolves to public (``webhook_addresses.refusal``: an IPv6 that
  embeds an IPv4 is judged by it) — at registration and again before each delivery (DNS can
  change; the delivery connects to the address it checked). Relaxed, for tests and private
  networks, by ``SKYLINE_WEBHOOK_ALLOW_HTTP`` and ``SKYLINE_WEBHOOK_ALLOW_PRIVATE``.
- ``EVENT_TYPES``: the service's log events and the notice type each becomes. The seat and
  clock events of the lobby (``seat_joined``, ``seat_resigned``, ``turn_timed_out``,
  ``game_started``) become notices by an entry in this table, nothing else.
- ``notices_for``: the notices one committed version announces (a human seat to act: one
  ``game.turn`` per seat and version; the end: ``game.finished``), each stamped with when the
  version was committed (``timestamp``) and carrying it (``data.version``): what a receiver
  orders them by, since a notice that fails is retried on its own while later ones go on.

- ``Webhooks``: the use cases. Registration at creation (one ``webhook_secret`` for the
  creation's endpoints, shown once) and by a seat (``PUT /games/{id}/webhook``: its own
  endpoint and secret, for its own notices); the fan-out of committed versions into deliveries
  (``fan_out``, run by the webhook workers: the commit scripts only mark the game due, see
  ``service.store.webhooks``); the deliveries' listing.

``worker/webhooks.py`` signs and delivers, one endpoint's queue at a time.
"""

from __future__ import annotations

import base64
import hmac
import ipaddress
import re
import secrets
import socket
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson

from engines.core.messages import ENGLISH, render, say
from engines.registry import GAMES

from .auth import seat_of
from .cursors import read_cursor, write_cursor
from .deadlines import shown as shown_deadlines
from .errors import (
    GameNotFound,
    InvalidToken,
    MissingToken,
    WebhookEventsRefused,
    WebhookNotFound,
    WebhookRefused,
)
from .replies import CreatedGame
from .results import game_result
from .times import rfc3339
from .webhook_addresses import refusal

if TYPE_CHECKING:
    from ..store.records import GameMeta, GameResult
    from ..store.webhooks import WebhookStore
    from .games import Games

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
# What a secret looks like, the contract's pattern: Standard Webhooks' 24 to 64 random bytes in
# standard base64, padded (the alphabet its libraries decode, ``+`` and ``/`` included).
SECRET_PATTERN = SECRET_PREFIX + "[A-Za-z0-9+/]{32,88}={0,2}"
DELIVERIES_PAGE, DELIVERIES_PAGE_MAX = 100, 200
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
# The notices a player's webhook may hear of, in every game bound to the player (its turns and
# deadlines, its invitations, the joins and ends, and, carried over, the rematches).
PLAYER_NOTICES = (*NOTICE_TYPES, "game.invited")
# A service log event (issue 47's lobby and clocks log these) -> the notice it becomes.
EVENT_TYPES: dict[str, str] = {
    "game_started": "game.started",
    "seat_joined": "seat.joined",
    "seat_resigned": "seat.resigned",
    "turn_timed_out": "turn.timed_out",
    "deadline_near": "deadline.near",
}
# The notices a seat's own webhook receives (its turn, its deadline, its timeout, the end).
SEAT_NOTICES = ("game.turn", "game.finished", "turn.timed_out", "deadline.near")
# What a log event may carry into a notice: public facts only (never a card, a bid, a token).
PUBLIC_EVENT_FIELDS = ("seat", "by", "deadline", "replaced_by")
MAX_URL_LENGTH = 2048
# A DNS name: labels of 1 to 63 letters, digits, hyphens (not at an end) and underscores (some
# real names have them), 253 characters in all (RFC 1035), once IDNA made it ASCII.
MAX_NAME_LENGTH = 253
_LABEL = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?", re.IGNORECASE)


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_`` secret."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


Resolver = Callable[[str, int], Iterable[str]]


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (TCP)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def dns_name(host: str) -> str:
    """The name the resolver is asked for ``host`` (IDNA's ASCII form; an address as it is).

    A name no DNS could hold (a label over 63 characters, an empty one, a character no label
    has) is refused here, before any resolver: under gevent the resolver runs in a thread pool,
    which writes a traceback to the log for the ``UnicodeError`` such a name raises there.
    """
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return host
    except ValueError:
        pass
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError:
        name = ""
    bare = name.removesuffix(".")  # a trailing dot: the name is absolute
    if not bare or len(bare) > MAX_NAME_LENGTH or not all(map(_LABEL.fullmatch, bare.split("."))):
        raise WebhookRefused(
            say(
                "service.refusal.webhook_url_refused.webhook_host_dns_name",
                host=repr(host),
                max_name_length=str(MAX_NAME_LENGTH),
            )
        )
    return name


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
        raise WebhookRefused(
            say(
                "service.refusal.webhook_url_refused.webhook_url_string_characters",
                max_url_length=str(MAX_URL_LENGTH),
            )
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookRefused(say("service.refusal.webhook_url_refused.webhook_url_cannot_read")) from None
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes:
        raise WebhookRefused(
            say("service.refusal.webhook_url_refused.https_or_http")
            if allow_http
            else say("service.refusal.webhook_url_refused.https_only")
        )
    if not parts.hostname:
        raise WebhookRefused(say("service.refusal.webhook_url_refused.webhook_url_names_host"))
    if parts.username or parts.password:
        raise WebhookRefused(say("service.refusal.webhook_url_refused.webhook_url_carries_user"))
    port = port or (443 if parts.scheme == "https" else 80)
    name = dns_name(parts.hostname)
    try:
        addresses = list(resolver(name, port))
    except (OSError, UnicodeError, ValueError):
        raise WebhookRefused(
            say(
                "service.refusal.webhook_url_refused.webhook_host_does_resolve", hostname=repr(parts.hostname)
            )
        ) from None
    if not addresses:
        raise WebhookRefused(
            say(
                "service.refusal.webhook_url_refused.webhook_host_does_resolve", hostname=repr(parts.hostname)
            )
        )
    if not allow_private:
        # Every address: a name with one public and one private address is refused, since the
        # connection could go to either.
        for address in addresses:
            why = refusal(address)
            if why is not None:
                raise WebhookRefused(
                    say(
                        "service.refusal.webhook_url_refused.webhook_host_resolves_webhooks",
                        hostname=repr(parts.hostname),
                        address=str(address),
                        why=why,
                    )
                )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    # The connection goes to this checked address, never to a second lookup of the name.
    return Target(url, parts.scheme, name, port, path, addresses[0])


def check_events(events: Any, allowed: tuple[str, ...] = NOTICE_TYPES, who: str = "webhook") -> list[str]:
    """The events asked for, each once (all of ``allowed`` when None); refused if one is not allowed.
    ``who`` names the webhook in the refusal: webhook, seat_webhook or player_webhook."""
    if events is None:
        return list(allowed)
    if not isinstance(events, list) or not events or not all(isinstance(e, str) for e in events):
        raise WebhookEventsRefused(
            say("service.refusal.webhook_events_refused.not_a_list", allowed=", ".join(allowed))
        )
    asked = list(dict.fromkeys(events))
    unheard = [e for e in asked if e not in allowed]
    if unheard:
        heard = {"allowed": ", ".join(allowed), "unheard": ", ".join(unheard)}
        raise WebhookEventsRefused(
            say(f"service.refusal.webhook_events_refused.{who}", **heard)
            if allowed == NOTICE_TYPES
            else say(f"service.refusal.webhook_events_refused.{who}_not_all", **heard)
        )
    return asked


# ---- what a committed version announces ----------------------------------------------------
def notice(kind: str, data: dict[str, Any], at: float | None = None) -> dict[str, Any]:
    """A Standard Webhooks payload: ``timestamp`` is when the event occurred (to the microsecond,
    so that two notices of one second keep their order), not when it is delivered; a retry sends
    the very same body."""
    return {
        "type": kind,
        "timestamp": rfc3339(time.time() if at is None else at, microseconds=True),
        "data": data,
    }


def notices_for(
    game_id: str,
    title: str,
    version: int,
    to_act: list[int],
    human_seats: Iterable[int],
    status: str,
    events: Iterable[dict[str, Any]] = (),
    result: GameResult | None = None,
    rematch_of: str | None = None,
    at: float | None = None,
) -> list[tuple[int | None, dict[str, Any]]]:
    """The notices of one version, each with the seat it concerns (None: the whole game).

    ``events`` are the version's log events; only those in ``EVENT_TYPES`` become notices,
    with their public fields. ``result`` (a finished game's) gives the ranking only. ``at``:
    when the version was committed, every notice's ``timestamp``.
    """
    base = {"game_id": game_id, "title": title, "version": version, "to_act": list(to_act)}
    if rematch_of is not None:
        base["rematch_of"] = rematch_of
    found: list[tuple[int | None, dict[str, Any]]] = []
    for event in events:
        kind = EVENT_TYPES.get(event.get("type", ""))
        if kind is not None:
            extra = {k: event[k] for k in PUBLIC_EVENT_FIELDS if k in event}
            found.append((extra.get("seat"), notice(kind, {**base, **extra}, at)))
    if status == "finished":
        # The result's public part: who won and the ranks (scores and breakdown stay in the game).
        public: Mapping[str, object] = result or {}
        ending = {k: public[k] for k in ("ranks", "winners", "reason", "resigned") if k in public}
        found.append((None, notice("game.finished", {**base, "result": ending}, at)))
    else:
        humans = set(human_seats)
        for seat in to_act:
            if seat in humans:
                found.append((seat, notice("game.turn", {**base, "seat": seat}, at)))
    return found


def base_of(game_id: str, meta: GameMeta, version: int) -> dict[str, Any]:
    """What every notice of a version says first (the version 0 of a waiting game: none to act)."""
    base: dict[str, Any] = {"game_id": game_id, "title": meta["title"], "version": version, "to_act": []}
    if "rematch_of" in meta:
        base["rematch_of"] = meta["rematch_of"]
    return base


def delivery_id(game_id: str, version: int, kind: str, seat: int | None, endpoint: str) -> str:
    """The ``webhook-id`` of a notice to one endpoint: the same on every retry, unique otherwise."""
    who = "game" if seat is None else f"seat{seat}"
    return f"msg_{game_id}_{version}_{kind}_{who}_{endpoint}"


def player_endpoint_id(player_id: str) -> str:
    """The id of a player's endpoint among a game's webhooks."""
    return "P" + player_id


# ---- the use cases ----------------------------------------------------------------------------
MAX_ENDPOINTS = 5


class Webhooks:
    """Registration, fan-out and the deliveries' listing, over ``service.store.webhooks``."""

    def __init__(
        self, store: WebhookStore, games: Games, *, allow_http: bool = False, allow_private: bool = False
    ) -> None:
        self.store = store
        self.games = games
        self.allow_http = allow_http  # SKYLINE_WEBHOOK_ALLOW_HTTP
        self.allow_private = allow_private  # SKYLINE_WEBHOOK_ALLOW_PRIVATE

    def _endpoint(
        self, url: Any, events: Any, endpoint_id: str, secret: str, seat: int | None, language: str
    ) -> dict[str, Any]:
        """An endpoint checked: its URL, and events it will hear of (a seat's: its own notices);
        ``language``, the one its notices' ``text`` is written in."""
        if seat is None:
            wanted = check_events(events)
        else:
            wanted = check_events(events, SEAT_NOTICES, "seat_webhook")
        check_url(url, allow_http=self.allow_http, allow_private=self.allow_private)
        return {
            "id": endpoint_id,
            "url": url,
            "events": wanted,
            "secret": secret,
            "seat": seat,
            "disabled": False,
            "language": language,
        }

    def checked_at_creation(
        self, requested: list[dict[str, Any]], language: str = ENGLISH
    ) -> tuple[list[dict[str, Any]], str]:
        """The creation's endpoints, checked before the game exists, and their one secret; their
        notices speak the creation request's language."""
        if len(requested) > MAX_ENDPOINTS:
            raise WebhookRefused(
                say(
                    "service.refusal.webhook_url_refused.game_has_most_webhooks",
                    max_endpoints=str(MAX_ENDPOINTS),
                )
            )
        secret = new_secret()
        endpoints = [
            self._endpoint(hook.get("url"), hook.get("events"), f"g{index}", secret, None, language)
            for index, hook in enumerate(requested)
        ]
        return endpoints, secret

    def register_created(self, created: CreatedGame, endpoints: list[dict[str, Any]]) -> None:
        self.store.register(created["id"], endpoints, self.start_of(created))

    def start_of(self, created: CreatedGame) -> dict[str, Any]:
        """What version 0 of a game just created announces: who is to act, and when by."""
        start: dict[str, Any] = {"to_act": created["to_act"], "status": created["status"]}
        deadlines = self.games.read(
            created["id"], parse_state=False
        ).deadlines  # a game with a clock: version 0's
        if deadlines:
            start["deadlines"] = shown_deadlines(deadlines)
        return start

    def carry_over(self, game_id: str, rematch_id: str) -> None:
        """A rematch is told to the endpoints its game had (the creation's and the seats', with
        their secrets, those not disabled): an app asleep learns of the new game from its first
        notice (``rematch_of``), the only way it could, since the rematch's tokens go to the
        players who ask. Safe to call by every player who asks: the first call sets them."""
        endpoints, _, _ = self.store.read(game_id)
        live = [endpoint for endpoint in endpoints.values() if not endpoint.get("disabled")]
        if live:
            self.store.register_once(rematch_id, live, {"to_act": [], "status": "waiting"})

    def put_seat(
        self, game_id: str, token: str | None, url: Any, events: Any, language: str = ENGLISH
    ) -> dict[str, Any]:
        """A seat's own endpoint (added or replaced, with a new secret), its notices in ``language``."""
        stored = self.games.read(game_id)
        seat = self._seat(stored, token)
        secret = new_secret()
        endpoint = self._endpoint(url, events, f"s{seat}", secret, seat, language)
        self.store.put_endpoint(game_id, endpoint, stored.version)
        return {"seat": seat, "url": url, "events": endpoint["events"], "webhook_secret": secret}

    def remove_seat(self, game_id: str, token: str | None) -> None:
        stored = self.games.read(game_id)
        seat = self._seat(stored, token)
        if not self.store.remove_endpoint(game_id, f"s{seat}"):
            raise WebhookNotFound(
                say("service.refusal.webhook_not_found.seat_has_webhook_game", seat=str(seat))
            )

    @staticmethod
    def _seat(stored: Any, token: str | None) -> int:
        if token is None or stored is None:
            raise MissingToken(say("service.refusal.missing_token.seat_s_webhook_needs"))
        seat = seat_of(stored.meta["seats"], token)
        assert seat is not None
        return seat

    def deliveries(
        self, game_id: str, token: str | None, cursor: str | None = None, limit: int = DELIVERIES_PAGE
    ) -> dict[str, Any]:
        """The deliveries to the endpoints a credential registered (a seat token, its seat's; the
        creation's ``webhook_secret``, the creation's), newest first, by pages: ``next`` is the
        cursor of the page after (older deliveries), null on the last."""
        stored = self.games.read(game_id)
        if token is None:
            raise MissingToken(say("service.refusal.missing_token.deliveries_are_listed_seat"))
        endpoints, _, _ = self.store.read(game_id)
        if token.startswith(SECRET_PREFIX):
            mine = {
                e["id"]
                for e in endpoints.values()
                if e["seat"] is None and hmac.compare_digest(e["secret"], token)
            }
            if not mine:
                raise InvalidToken(say("service.refusal.invalid_token.secret_belongs_webhook_game"))
        else:
            seat = self._seat(stored, token)
            # A seat's deliveries are those of its webhook: none registered (or deleted), none to list.
            if f"s{seat}" not in endpoints:
                raise WebhookNotFound(
                    say(
                        "service.refusal.webhook_not_found.seat_has_webhook_game_2",
                        seat=str(seat),
                        route="PUT /games/{id}/webhook",
                    )
                )
            mine = {f"s{seat}"}
        after = read_cursor(cursor, "deliveries") if cursor else None
        limit = max(1, min(limit, DELIVERIES_PAGE_MAX))
        shown: list[dict[str, Any]] = []
        last: tuple[int, str] | None = None
        for record in self.store.deliveries(game_id):  # newest first: by (version, id), descending
            endpoint_id = record["endpoint"]
            if endpoint_id not in mine or (after is not None and (record["version"], record["id"]) >= after):
                continue
            if len(shown) == limit:
                assert last is not None  # limit >= 1: something was shown
                return {"deliveries": shown, "next": write_cursor(*last)}
            last = (record["version"], record["id"])
            shown.append(
                {
                    "id": record["id"],
                    "type": record["type"],
                    "version": record["version"],
                    "url": endpoints.get(endpoint_id, {}).get("url"),
                    "state": record["state"],
                    "attempts": record["attempts"],
                    "last_status": record.get("last_status"),
                    "last_error": record.get("last_error"),
                    "next_attempt": _stamp(record.get("next_attempt"))
                    if record["state"] == "pending"
                    else None,
                }
            )
        return {"deliveries": shown, "next": None}

    # ---- fan-out (the webhook workers) ----------------------------------------------------------
    def fan_out(self, game_id: str, now: float | None = None) -> int:
        """Turn the versions committed since the last fan-out into deliveries; how many."""
        endpoints, notified, start = self.store.read(game_id)
        if notified is None:
            return 0
        try:
            stored = self.games.read(game_id)  # live, or archived since its last fan-out
        except GameNotFound:  # the game expired: nothing more to announce
            self.store.forget_due(game_id)
            return 0
        if stored.version <= notified:
            self.store.fan_out(game_id, notified, notified, [])
            return 0
        meta = stored.meta
        humans = [s["seat"] for s in meta["seats"] if s["kind"] == "human"]
        entries: list[Mapping[str, Any]] = []  # version 0 from what the creation said, then the log
        if notified < 0:
            # Version 0, from what the creation said: a game created with every seat taken
            # starts there (a game with open seats starts with its last join, an entry of its own).
            began = [{"type": "game_started"}] if start.get("status") == "active" else []
            entries.append({"version": 0, "events": began, **start})
        entries += self.games.log(stored, max(notified, 0))
        result = None
        if stored.status == "finished":
            result = game_result(meta, self.games._restore(stored, stored.state))
        at = time.time() if now is None else now
        deliveries: list[tuple[str, dict[str, Any]]] = []
        live = _listening(endpoints.values(), meta)
        for entry in entries:
            if entry["version"] > stored.version:
                break
            found = notices_for(
                game_id,
                meta["title"],
                entry["version"],
                entry.get("to_act", []),
                humans,
                entry.get("status", "active"),
                entry.get("events", []),
                result,
                meta.get("rematch_of"),
                entry.get("at", meta.get("created")),  # version 0's time: the creation's
            )
            if entry["version"] == 0 and entry.get("status") == "waiting":
                # A game created with open seats: an invitation, to whoever was invited to one.
                open_seats = [s["seat"] for s in meta["seats"] if s["kind"] == "open"]
                invited = {**base_of(game_id, meta, 0), "open_seats": open_seats}
                found.append((None, notice("game.invited", invited, meta.get("created"))))
            entry_deadlines = entry.get("deadlines") or {}
            for seat, message in list(found):
                if message["type"] == "game.turn" and str(seat) in entry_deadlines:
                    message["data"]["deadline"] = entry_deadlines[str(seat)]
                    found.append((seat, _near_notice(message, meta)))
            for seat, message in found:
                for endpoint in live:
                    if not _wants(endpoint, message["type"], seat):
                        continue
                    delivery = delivery_id(game_id, entry["version"], message["type"], seat, endpoint["id"])
                    near = message["type"] == "deadline.near"
                    record = {
                        "id": delivery,
                        "type": message["type"],
                        "seat": seat,
                        "version": entry["version"],
                        "endpoint": endpoint["id"],
                        "body": _body(message, endpoint.get("language", ENGLISH)),
                        "attempts": 0,
                        "last_status": None,
                        "last_error": None,
                        "next_attempt": message["at"] if near else at,
                        "state": "pending",
                    }
                    if near:
                        # Due at its time: set aside until then (service.store.webhooks), it holds
                        # back nothing sent meanwhile.
                        record["not_before"] = message["at"]
                        record["deadline_at"] = message["deadline_at"]
                    deliveries.append((delivery, record))
        self.store.fan_out(game_id, notified, stored.version, deliveries)
        return len(deliveries)


# A deadline is near a quarter of the turn before it, an hour at most.
NEAR_SHARE, NEAR_MAX_SECONDS = 0.25, 3600.0


def _near_notice(turn: dict[str, Any], meta: GameMeta) -> dict[str, Any]:
    """The ``deadline.near`` of a ``game.turn`` with a deadline, stamped with when it is due."""
    deadline_at = datetime.fromisoformat(turn["data"]["deadline"]).timestamp()
    ahead = min(meta["clock"]["turn_seconds"] * NEAR_SHARE, NEAR_MAX_SECONDS)
    near = notice("deadline.near", dict(turn["data"]), at=deadline_at - ahead)
    return {**near, "at": deadline_at - ahead, "deadline_at": deadline_at}


def _listening(endpoints: Iterable[dict[str, Any]], meta: GameMeta) -> list[dict[str, Any]]:
    """The endpoints a fan-out notifies: those not disabled, and a player's only while the game
    binds the player, with the seats it holds now. One who left hears nothing more of the game,
    even of a version committed before its endpoint was removed; one who left one of two seats,
    nothing more of that seat's turns."""
    found = []
    for endpoint in endpoints:
        if endpoint.get("disabled"):
            continue
        player = endpoint.get("player")
        if player is not None:
            bound = [seat for seat in meta["seats"] if seat.get("player") == player]
            if not bound:
                continue
            endpoint = {**endpoint, "seats": [seat["seat"] for seat in bound if seat["kind"] != "open"]}
        found.append(endpoint)
    return found


def _wants(endpoint: dict[str, Any], kind: str, seat: int | None) -> bool:
    if kind not in endpoint["events"]:
        return False
    if "player" in endpoint:
        # A player's: its own seats' turns, deadlines and timeouts; its invitations; the game's
        # own news (a start, a join, a resignation, the end).
        if kind == "game.invited":
            return bool(endpoint["invited"])
        if kind in ("game.turn", "deadline.near", "turn.timed_out"):
            return seat in endpoint["seats"]
        return True
    if endpoint["seat"] is None:
        return True
    # A seat's own endpoint: its own turn, deadline and timeout, and the end of the game.
    return kind == "game.finished" or (kind in SEAT_NOTICES and seat == endpoint["seat"])


def _body(message: dict[str, Any], language: str) -> str:
    """The notice as sent: its data with ``text``, the sentence a person reads, in the endpoint's
    language (an endpoint registered before languages were: English)."""
    data = {**message["data"], "text": notice_text(message["type"], message["data"], language)}
    return orjson.dumps({"type": message["type"], "timestamp": message["timestamp"], "data": data}).decode()


def notice_text(kind: str, data: Mapping[str, Any], language: str) -> str:
    """A notice's sentence (``notice.<type>`` in the catalogues): what happened, to which seat,
    in which title, as a person reads it in ``language``."""
    game = GAMES.get(str(data.get("title")))
    title = game.title if game is not None else str(data.get("title"))
    params: dict[str, Any] = {"title": title}
    if "seat" in data:
        params["seat"] = data["seat"]
    return render(say(f"notice.{kind}", **params), language)


def _stamp(at: float | None) -> str | None:
    if at is None:
        return None
    return rfc3339(at)
