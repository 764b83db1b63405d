"""Seeks: a player asks for a game, and the server makes it once enough compatible seeks exist.

A seek names a title, a seat count, rated or not, options, a clock and a window of ratings the
seeker accepts. Seeks are compatible when all of these but the window are the same (options and
clock as the title normalizes them) and each seeker's rating lies in every other's window. The
matching is one Redis script per title (service/store/seeks.py): the new seek takes the earliest
compatible waiting seeks of other players, or waits. A match becomes a game through
``Games.create`` (the use case of POST /games, the seats bound to the seekers, in an order drawn
by the server), then the seekers' player webhooks are given the game (``Players.attach``, as POST
/games does): each hears ``game.started``, and the game is in each one's "my games".

Defaults (docs/ratings.md): a seek waits ``SEEK_SECONDS``; a player holds ``SEEKS_PER_PLAYER``
waiting seeks per title at most. No bot is offered after a wait: a seeker who wants a bot creates
the game itself, and a bot's seat never takes a person's place in a seek's game by surprise.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

import orjson

from engines import registry
from engines.core import say

from ..archive.archive import ArchiveUnavailable
from ..archive.ratings import INITIAL, RatingReads
from ..store.seeks import SeekStore
from .errors import ArchiveUnreachable, PlayError, SeekNotFound, SeekNotWaiting, TooManySeeks
from .games import Games
from .players import Players
from .repository import GameRepository

SEEK_SECONDS = 600
SEEKS_PER_PLAYER = 3
# A window left open: every rating fits.
OPEN_WINDOW = (-1e9, 1e9)
_SEEK_ID_PREFIX = "seek-"


def _seek_id(title: str) -> str:
    return f"{_SEEK_ID_PREFIX}{title}-{secrets.token_hex(8)}"


def _title_of(seek_id: str) -> str:
    if not seek_id.startswith(_SEEK_ID_PREFIX) or "-" not in seek_id[len(_SEEK_ID_PREFIX) :]:
        raise SeekNotFound(say("service.refusal.seek_not_found.seek", seek_id=repr(seek_id)))
    title = seek_id[len(_SEEK_ID_PREFIX) :].rsplit("-", 1)[0]
    if title not in registry.GAMES:
        raise SeekNotFound(say("service.refusal.seek_not_found.seek", seek_id=repr(seek_id)))
    return title


def shown_seek(seek: dict[str, Any], now: float) -> dict[str, Any]:
    spec = orjson.loads(seek["spec"])
    status = seek["status"]
    if status in ("waiting", "matching") and seek["expires"] <= now:
        status = "expired"
    elif status == "matching":
        status = "waiting"  # its game is being made
    return {
        "id": seek["id"],
        "status": status,
        "game": seek.get("game"),
        "title": spec["title"],
        "seats": spec["seats"],
        "rated": spec["rated"],
        "options": spec["options"],
        "clock": spec["clock"],
        "rating_window": [seek["low"], seek["high"]],
        "expires": seek["expires"],
    }


class Seeks:
    def __init__(
        self,
        store: SeekStore,
        games: Games,
        players: Players,
        repository: GameRepository,
        *,
        seconds: float = SEEK_SECONDS,
        per_player: int = SEEKS_PER_PLAYER,
    ) -> None:
        self.store = store
        self.games = games
        self.players = players
        self.repository = repository
        self.seconds = seconds
        self.per_player = per_player

    def _rating(self, player_id: str, title: str) -> float:
        """The seeker's conservative rating in ``title`` (a newcomer's when it has none yet)."""
        if not self.repository.has_archive:
            return INITIAL.conservative
        try:
            rating = RatingReads(self.repository.archive).player(player_id).get(title, INITIAL)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(
                say("service.refusal.archive_unavailable.ratings_archive_cannot_reached_2")
            ) from None
        return rating.conservative

    def seek(self, player_id: str, body: dict[str, Any], now: float | None = None) -> dict[str, Any]:
        at = time.time() if now is None else now
        game = registry.get(body["title"])
        seats = body["seats"]
        options = game.normalize_options(seats, body.get("options") or {})
        low, high = body.get("rating_window") or OPEN_WINDOW
        if low > high:
            raise PlayError(say("service.refusal.refused.rating_window_low_high"))
        spec = {
            "title": game.id,
            "seats": seats,
            "rated": bool(body.get("rated")),
            "options": options,
            "clock": body.get("clock"),
        }
        spec_json = orjson.dumps(spec, option=orjson.OPT_SORT_KEYS).decode()
        kind = hashlib.sha256(spec_json.encode()).hexdigest()[:16]
        seek_id = _seek_id(game.id)
        seek: dict[str, Any] = {
            "id": seek_id,
            "player": player_id,
            "kind": kind,
            "spec": spec_json,
            "rating": self._rating(player_id, game.id),
            "low": float(low),
            "high": float(high),
            "created": at,
            "expires": at + self.seconds,
        }
        others = self.store.seek(game.id, kind, seek, at, self.per_player, seats - 1)
        if others is None:
            raise TooManySeeks(
                say(
                    "service.refusal.too_many_seeks.player_holds_waiting_seeks",
                    per_player=str(self.per_player),
                ),
            )
        if others:
            self._start(game.id, kind, spec, [seek_id, *others])
        return self.read(player_id, seek_id, at)

    def _start(self, title: str, kind: str, spec: dict[str, Any], seek_ids: list[str]) -> None:
        seekers = [seek["player"] for seek in self.store.read(title, seek_ids) if seek is not None]
        order = list(seekers)
        secrets.SystemRandom().shuffle(order)  # the seat order, drawn by the server
        request: dict[str, Any] = {
            "title": title,
            "seats": [{"kind": "human", "player": player} for player in order],
            "options": spec["options"],
            "rated": spec["rated"],
        }
        if spec["clock"] is not None:
            request["clock"] = spec["clock"]
        try:
            created = self.games.create(request, seated=frozenset(order))
        except Exception:
            self.store.settle(title, kind, seek_ids, None)  # back to waiting, in their pools
            raise
        self.store.settle(title, kind, seek_ids, created["id"])
        self.players.attach(created["id"], -1, created=created)

    def read(self, player_id: str, seek_id: str, now: float | None = None) -> dict[str, Any]:
        title = _title_of(seek_id)
        [seek] = self.store.read(title, [seek_id])
        if seek is None or seek["player"] != player_id:
            raise SeekNotFound(say("service.refusal.seek_not_found.seek_yours", seek_id=repr(seek_id)))
        return shown_seek(seek, time.time() if now is None else now)

    def mine(self, player_id: str) -> dict[str, Any]:
        now = time.time()
        found = [
            shown_seek(seek, now)
            for title in registry.GAMES
            for seek in self.store.of_player(title, player_id)
        ]
        return {"seeks": sorted(found, key=lambda seek: (seek["expires"], seek["id"]))}

    def cancel(self, player_id: str, seek_id: str) -> None:
        title = _title_of(seek_id)
        [seek] = self.store.read(title, [seek_id])
        if seek is None or seek["player"] != player_id:
            raise SeekNotFound(say("service.refusal.seek_not_found.seek_yours", seek_id=repr(seek_id)))
        outcome = self.store.cancel(title, seek["kind"], seek_id, player_id, time.time())
        if outcome == "missing":
            raise SeekNotFound(say("service.refusal.seek_not_found.seek_yours", seek_id=repr(seek_id)))
        if outcome != "done":
            raise SeekNotWaiting(
                say("service.refusal.seek_not_waiting.seek_only_waiting_seek", outcome=str(outcome))
            )
