"""Players: one key for all of a person's seats, and "my games".

Skyline keeps no people (no names, e-mails, passwords): a player is an id and the digest of its
key, an identity an app holds for a person. The key (``sk_player_...``) is shown once, at
creation and at each rotation. Wherever a seat token works, the key works for the seats bound to
its player (``service.play.auth.PlayerCredential``); a seat is bound at creation (``"player":
"me"``, or an invitation ``"player": "<id>"`` on an open seat) or when the player joins it.

"My games" reads the player's index, then ONE pipeline of the games' hashes and last log entries
(and, for games without a log entry yet, one more of their states): a bounded number of round
trips, whatever the number of games. What it shows of a game is public (seats as every reader
sees them, who is to act, the deadlines, the result once over) or the player's own (its seats).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import orjson

from engines import registry
from engines.core import say
from engines.core.messages import ENGLISH

from ..store.players import PlayerStore
from ..store.records import GameMeta, GameResult, LogEntry, SeatRecord
from . import auth
from .cursors import read_cursor, write_cursor
from .errors import BadCursor, GameNotFound, InvalidPlayerKey, PlayerKeyRequired, WebhookNotFound
from .games import public_seat
from .replies import CreatedGame
from .repository import GameRepository
from .results import game_result
from .times import rfc3339
from .webhooks import (
    DELIVERIES_PAGE,
    PLAYER_NOTICES,
    Webhooks,
    check_events,
    check_url,
    new_secret,
    player_endpoint_id,
)

MY_GAMES_PAGE = 50
MY_GAMES_PAGE_MAX = 200
LIVE = ("waiting", "active")

# The order of "my games", most urgent first: my turn with a deadline (the nearest first), my turn
# (the longest waiting first), the games waiting for others (the latest change first), then the
# invitations (the newest first).
MY_TURN_WITH_DEADLINE, MY_TURN, OTHERS, INVITATION, ENDED = range(5)


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(12)


def player_endpoint(player_id: str, webhook: dict[str, Any], meta: GameMeta) -> dict[str, Any]:
    """A player's webhook as one game's endpoint: which seats are its, which it is invited to."""
    return {
        "id": player_endpoint_id(player_id),
        "url": webhook["url"],
        "events": webhook["events"],
        "secret": webhook["secret"],
        "seat": None,
        "player": player_id,
        "seats": auth.seats_of_player(meta["seats"], player_id),
        "invited": invited_seats(meta["seats"], player_id),
        "disabled": False,
        "language": webhook.get("language", ENGLISH),
    }


def invited_seats(seats: Sequence[SeatRecord], player_id: str) -> list[int]:
    """The open seats bound to a player: invitations it has not taken yet."""
    return [seat["seat"] for seat in seats if seat.get("player") == player_id and seat["kind"] == "open"]


class Players:
    """Create, authenticate, rotate and delete players; list a player's games."""

    def __init__(
        self,
        store: PlayerStore,
        repository: GameRepository | None = None,
        webhooks: Webhooks | None = None,
    ) -> None:
        self.store = store
        self.repository = repository  # finished games Redis has let go (DATABASE_URL)
        self.webhooks = webhooks  # a player's webhook rides on each of its games' (play.webhooks)

    # ---- keys ----------------------------------------------------------------------------------
    def create(self) -> dict[str, str]:
        """A new player and its key (shown this once: only its digest is kept)."""
        player_id, key = new_player_id(), auth.new_player_key()
        self.store.create(player_id, auth.token_hash(key))
        return {"id": player_id, "key": key}

    def credential(self, key: str, seat: int | None = None) -> auth.PlayerCredential:
        """The player a key names now (one read); InvalidPlayerKey for a key rotated away or unknown."""
        digest = auth.token_hash(key)
        player_id = self.store.player_of(digest)
        if player_id is None:
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_key_names_player"))
        return auth.PlayerCredential(player_id, seat, digest)

    def still_current(self, credential: auth.PlayerCredential) -> bool:
        """Whether the key a credential was made from still names its player (one read): what an
        open stream asks when told of a rotation or a deletion."""
        return (
            credential.key_hash is not None
            and self.store.player_of(credential.key_hash) == credential.player_id
        )

    @staticmethod
    def player_of(token: str | None) -> str:
        """The player of a request's credential; PlayerKeyRequired for a seat token or none."""
        if not isinstance(token, auth.PlayerCredential):
            raise PlayerKeyRequired(say("service.refusal.player_key_required.asks_player_key_authorization"))
        return token.player_id

    def rotate(self, token: str | None) -> dict[str, str]:
        """A new key for the player; the old one is refused from the next request on, everywhere,
        and the streams opened with it end (``revoked``). A compare-and-set: the key rotated must
        still be the player's, so a second rotation with the same key is refused (401)."""
        player_id = self.player_of(token)
        assert isinstance(token, auth.PlayerCredential)  # player_of said so
        key = auth.new_player_key()
        if token.key_hash is None or not self.store.rotate(player_id, auth.token_hash(key), token.key_hash):
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_key_names_player"))
        return {"id": player_id, "key": key}

    def delete(self, token: str | None) -> None:
        """Forget the player: its key stops working (and the streams opened with it end); its seats
        keep their own tokens. One step whatever PostgreSQL does: the deletion in Redis enters the
        player among those the archive is to forget, in the same script; its id then leaves the
        archive's seats now, or, the archive away, when a worker's archiver finds it back
        (worker.archiver). Never a player deleted whose id the archive keeps for good, and no
        refusal after Redis has changed."""
        player_id = self.player_of(token)
        self._detach_all(player_id)
        if not self.store.delete(player_id):
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_longer_exists"))
        if self.repository is None or self.repository.forget_player(player_id):
            self.store.forgotten(player_id)

    # ---- the player's webhook -------------------------------------------------------------------
    # One endpoint per game bound to the player (``P<player id>``), in the game's own webhooks: the
    # game's fan-out, the outbox, the worker's signing and delivery are the seat webhooks' own.
    def put_webhook(
        self, token: str | None, url: Any, events: Any, language: str = ENGLISH
    ) -> dict[str, Any]:
        """The player's webhook (added or replaced, with a new secret), on every game of its; its
        notices speak the player's stored language, else ``language`` (the request's)."""
        player_id = self.player_of(token)
        notify = self._notify()
        wanted = check_events(events, PLAYER_NOTICES, "player_webhook")
        check_url(url, allow_http=notify.allow_http, allow_private=notify.allow_private)
        spoken = self.store.language(player_id) or language
        webhook = {"url": url, "events": wanted, "secret": new_secret(), "language": spoken}
        if not self.store.set_webhook(player_id, webhook):
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_longer_exists"))
        self._attach_everywhere(player_id, webhook)
        return {"url": url, "events": wanted, "webhook_secret": webhook["secret"]}

    def _attach_everywhere(self, player_id: str, webhook: dict[str, Any]) -> None:
        notify = self._notify()
        for game_id, read in self._live_games(player_id):
            notify.store.attach(game_id, player_endpoint(player_id, webhook, read["meta"]), read["version"])

    # ---- the player's settings ----------------------------------------------------------------
    def settings(self, token: str | None) -> dict[str, Any]:
        """What the player has set: its language (None: each request's own)."""
        player_id = self.player_of(token)
        if not self.store.exists(player_id):
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_longer_exists"))
        return {"id": player_id, "language": self.store.language(player_id)}

    def put_settings(self, token: str | None, language: str) -> dict[str, Any]:
        """Store the player's language; its webhook's notices speak it from the next one on, in
        every game of its (the endpoint is attached again, its secret kept)."""
        player_id = self.player_of(token)
        if not self.store.set_language(player_id, language):
            raise InvalidPlayerKey(say("service.refusal.invalid_player_key.player_longer_exists"))
        webhook = self.store.webhooks([player_id])[0]
        if webhook is not None and self.webhooks is not None:
            webhook = {**webhook, "language": language}
            self.store.set_webhook(player_id, webhook)
            self._attach_everywhere(player_id, webhook)
        return {"id": player_id, "language": language}

    def webhook(self, token: str | None, limit: int = DELIVERIES_PAGE) -> dict[str, Any]:
        """The player's webhook (its secret was shown once) and its latest deliveries, all games."""
        player_id = self.player_of(token)
        webhook = self.store.webhooks([player_id])[0]
        if webhook is None:
            raise WebhookNotFound(say("service.refusal.webhook_not_found.player_has_webhook_put"))
        endpoint = player_endpoint_id(player_id)
        found = []
        for game_id, _ in self._held_games(player_id, LIVE + ("finished", "aborted")):
            for record in self._notify().store.deliveries(game_id):
                if record["endpoint"] == endpoint:
                    found.append((orjson.loads(record["body"])["timestamp"], game_id, record))
        found.sort(key=lambda item: (item[0], item[2]["id"]), reverse=True)
        return {
            "url": webhook["url"],
            "events": webhook["events"],
            "deliveries": [
                {
                    "id": record["id"],
                    "game_id": game_id,
                    "type": record["type"],
                    "version": record["version"],
                    "state": record["state"],
                    "attempts": record["attempts"],
                    "last_status": record.get("last_status"),
                }
                for _, game_id, record in found[:limit]
            ],
        }

    def delete_webhook(self, token: str | None) -> None:
        player_id = self.player_of(token)
        if not self.store.set_webhook(player_id, None):
            raise WebhookNotFound(say("service.refusal.webhook_not_found.player_has_webhook"))
        self._detach_all(player_id)

    def attach(
        self,
        game_id: str,
        after_version: int,
        players: list[str] | None = None,
        created: CreatedGame | None = None,
    ) -> None:
        """Give the game the webhooks of the players bound to it (``players``: only those): after a
        join, or after the creation (``created``, its reply: version 0 is announced too)."""
        if self.webhooks is None:
            return
        try:
            stored = self.webhooks.games.read(game_id, parse_state=False)
        except GameNotFound:
            return
        bound = sorted({seat["player"] for seat in stored.meta["seats"] if "player" in seat})
        if players is not None:
            bound = [player for player in bound if player in players]
        endpoints = [
            player_endpoint(player_id, webhook, stored.meta)
            for player_id, webhook in zip(bound, self.store.webhooks(bound), strict=True)
            if webhook is not None
        ]
        if created is not None:
            # All at once: a fan-out between two players' registrations would announce version 0
            # to the first only (a seek's game binds every seat to a player at its creation).
            if endpoints:
                self.webhooks.store.register_once(game_id, endpoints, self.webhooks.start_of(created))
            return
        for endpoint in endpoints:
            self.webhooks.store.attach(game_id, endpoint, after_version)

    def _notify(self) -> Webhooks:
        if self.webhooks is None:  # pragma: no cover - the app always gives one
            raise WebhookNotFound(say("service.refusal.webhook_not_found.webhooks_are_served_here"))
        return self.webhooks

    def _live_games(self, player_id: str) -> list[tuple[str, dict[str, Any]]]:
        return self._held_games(player_id, LIVE)

    def _held_games(self, player_id: str, statuses: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
        """The player's games Redis holds, of these statuses, each as ``PlayerStore.read_games`` reads it."""
        ids = [game_id for game_id, _ in self.store.game_ids(player_id)]
        # Only those whose seats still bind the player: an entry of its index left by a binding
        # cut short, or by a leave before its index was told, is not its game.
        return [
            (game_id, read)
            for game_id, read in zip(ids, self.store.read_games(ids), strict=True)
            if read is not None
            and read["status"] in statuses
            and any(seat.get("player") == player_id for seat in read["meta"]["seats"])
        ]

    def _detach_all(self, player_id: str) -> None:
        if self.webhooks is None:
            return
        for game_id, _ in self._live_games(player_id):
            self.webhooks.store.remove_endpoint(game_id, player_endpoint_id(player_id))

    # ---- my games ------------------------------------------------------------------------------
    def my_games(
        self,
        token: str | None,
        status: str | None = None,
        title: str | None = None,
        cursor: str | None = None,
        limit: int = MY_GAMES_PAGE,
    ) -> dict[str, Any]:
        """The player's games, most urgent first, by pages; ``counts`` over all its live games."""
        player_id = self.player_of(token)
        limit = max(1, min(limit, MY_GAMES_PAGE_MAX))
        after = _read_position(cursor) if cursor else None
        ids = [game_id for game_id, _ in self.store.game_ids(player_id)]
        reads = self.store.read_games(ids)
        # Who acts is the last entry's, or at version 0 the creation's; a game without either (a
        # join made it: its entry says), or a finished one (its result), needs its state: those
        # in one more pipeline.
        wanted = [
            game_id
            for game_id, read in zip(ids, reads, strict=True)
            if read is not None
            and (
                read["status"] == "finished"
                or (read["status"] == "active" and read["last"] is None and read["first_to_act"] is None)
            )
        ]
        states = dict(zip(wanted, self.store.read_states(wanted), strict=True))
        entries: list[tuple[tuple[int, float, str], dict[str, Any]]] = []
        counts = {"my_turn": 0, "active": 0, "invitations": 0}
        for game_id, read in zip(ids, reads, strict=True):
            if read is None:
                continue
            entry = _entry(game_id, read, player_id, states.get(game_id))
            if entry is None:
                continue
            position, shown = entry
            if shown["status"] == "active":
                counts["active"] += 1
                counts["my_turn"] += shown["my_turn"]
            if shown["invitation"]:
                counts["invitations"] += 1
            if title is not None and shown["title"] != title:
                continue
            if status is None and shown["status"] not in LIVE:
                continue
            if status is not None and shown["status"] != status:
                continue
            entries.append((position, shown))
        if status == "finished" and self.repository is not None:
            held = {game_id for game_id, read in zip(ids, reads, strict=True) if read is not None}
            entries += self._archived(player_id, title, after, limit, held)
        entries.sort(key=lambda item: item[0])
        if after is not None:
            entries = [item for item in entries if item[0] > after]
        page = entries[:limit]
        more = len(entries) > limit
        return {
            "games": [shown for _, shown in page],
            "counts": counts,
            "next": _write_position(page[-1][0]) if more else None,
        }

    def _archived(
        self,
        player_id: str,
        title: str | None,
        after: tuple[int, float, str] | None,
        limit: int,
        in_redis: set[str],
    ) -> list[tuple[tuple[int, float, str], dict[str, Any]]]:
        """The player's finished games from the archive after ``after``, at most a page more than
        it needs (those Redis still holds are listed from Redis)."""
        start = None if after is None or after[0] != ENDED else (-after[1], after[2])
        found = (
            [] if self.repository is None else self.repository.finished_games_of(player_id, start, limit + 1)
        )
        listed = []
        for game in found:
            meta: GameMeta = orjson.loads(game.meta)
            if game.game_id in in_redis or (title is not None and meta["title"] != title):
                continue
            result: GameResult | None = orjson.loads(game.result) if game.result else None
            ranks = [rank for rank in game.ranks if rank is not None]
            ended = game.ended_at.timestamp()
            shown: dict[str, Any] = {
                "id": game.game_id,
                "title": meta["title"],
                "status": "finished",
                "version": game.version,
                "my_turn": False,
                "my_seats": game.seats,
                "invitation": False,
                "to_act": [],
                "seats": [public_seat(seat) for seat in meta["seats"]],
                "my_deadline": None,
                "last_move_at": None,
                "updated": rfc3339(ended),
                "result": result,
                "my_rank": min(ranks) if ranks else None,
                "rated": bool(meta.get("rated")),
            }
            listed.append(((ENDED, -ended, game.game_id), shown))
        return listed


def _entry(
    game_id: str, read: dict[str, Any], player_id: str, raw_state: bytes | None
) -> tuple[tuple[int, float, str], dict[str, Any]] | None:
    """One game as its player sees it in "my games", and its place in the order; None when the
    player holds no seat of it any more (it left)."""
    meta: GameMeta = read["meta"]
    mine = auth.seats_of_player(meta["seats"], player_id)
    invited = invited_seats(meta["seats"], player_id)
    if not mine and not invited:
        return None
    status: str = read["status"]
    last: LogEntry | None = read["last"]
    state = None
    if raw_state is not None:
        state = registry.get(meta["title"], meta["rules_version"]).restore(orjson.loads(raw_state))
    if status != "active":
        to_act: list[int] = []
    elif last is not None and "to_act" in last:
        to_act = list(last["to_act"])
    elif last is None and read["first_to_act"] is not None:
        to_act = list(read["first_to_act"])
    else:
        to_act = state.to_act() if state is not None else []
    # A seat the player resigned stays its own (its rank, its reads), but a stand-in bot acts there.
    playing = [seat for seat in mine if meta["seats"][seat]["kind"] == "human"]
    my_turn = any(seat in to_act for seat in playing)
    deadlines: dict[str, float] = read["deadlines"]
    mine_due = [deadlines[str(seat)] for seat in playing if str(seat) in deadlines and seat in to_act]
    my_deadline = min(mine_due) if mine_due else None
    last_move = last["at"] if last is not None and "move" in last else None
    shown: dict[str, Any] = {
        "id": game_id,
        "title": meta["title"],
        "status": status,
        "version": read["version"],
        "my_turn": my_turn,
        "my_seats": mine,
        "invitation": bool(invited) and not mine,
        "rated": bool(meta.get("rated")),
        "to_act": to_act,
        "seats": [public_seat(seat) for seat in meta["seats"]],
        "my_deadline": None if my_deadline is None else rfc3339(my_deadline, round_up=True),
        "last_move_at": None if last_move is None else rfc3339(last_move),
        "updated": rfc3339(read["updated"]),
    }
    if invited and not mine:
        shown["invited_seats"] = invited
    if status == "finished":
        result: GameResult | None = game_result(meta, state) if state is not None else None
        shown["result"] = result
        shown["my_rank"] = min(result["ranks"][seat] for seat in mine) if result and mine else None
        return (ENDED, -read["updated"], game_id), shown
    if my_turn and my_deadline is not None:
        return (MY_TURN_WITH_DEADLINE, my_deadline, game_id), shown
    if my_turn:
        return (MY_TURN, read["updated"], game_id), shown
    if mine:
        return (OTHERS, -read["updated"], game_id), shown
    return (INVITATION, -meta["created"], game_id), shown


def _write_position(position: tuple[int, float, str]) -> str:
    tier, number, game_id = position
    return write_cursor(number, f"{tier}:{game_id}")


def _read_position(cursor: str) -> tuple[int, float, str]:
    number, key = read_cursor(cursor, "my_games")
    tier, _, game_id = key.partition(":")
    if not tier.isdigit() or not game_id:
        raise BadCursor(say("service.refusal.bad_cursor.cursor_was_written_my"))
    return int(tier), number, game_id
