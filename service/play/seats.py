"""Seats before the game is under way: open seats, joining, leaving, aborting, and the lobby.

A seat created ``{"kind": "open"}`` has no token until someone joins it; while any seat is open
the game is ``waiting`` (no seat to act, no moves) and it starts the moment the last one is
taken. Every change of seats is a new version with a log entry of service events and no move
(``seat_joined``, ``seat_left``, ``game_started``, ``game_aborted``), committed by one
compare-and-set script (``service.store.seats``): of two racing joins of one seat exactly one
lands, the other is judged again on the game as it then is.
"""

from __future__ import annotations

import copy
import secrets
import time
from typing import TYPE_CHECKING, Any

from engines import registry
from engines.core import Message, say

from ..store.games import GameMissing, GameMovedOn, PlayerOverCap, StoredGame, new_game_id
from ..store.lobby import LobbyIndex
from ..store.records import GameMeta, LogEntry, SeatRecord
from ..store.seats import RematchStore, SeatStore
from . import auth
from .cursors import read_cursor, write_cursor
from .deadlines import next_deadlines
from .deadlines import shown as shown_deadlines
from .errors import (
    AbortRefused,
    AlreadySeated,
    GameNotActive,
    GameNotFound,
    GameNotOver,
    GameNotWaiting,
    MissingToken,
    NoSuchSeat,
    RatedSeatNeedsPlayer,
    SeatInvited,
    SeatResigned,
    SeatTaken,
    TooManyLiveGames,
    TooMuchContention,
)
from .games import Games, bot_seats_to_act, public_seat, stand_in_of, to_act
from .results import resignation_result, resigned_order
from .times import rfc3339
from .webhooks import player_endpoint_id

if TYPE_CHECKING:
    from .webhooks import Webhooks

# A join meets other joins landing first at most once per seat; a few rounds more for leaves.
_ATTEMPTS = 64
LOBBY_PAGE = 20
LOBBY_PAGE_MAX = 100


class Seats:
    """Join, leave, abort, and the lobby, over the games' store and the lobby's index."""

    def __init__(
        self,
        games: Games,
        seat_store: SeatStore,
        lobby: LobbyIndex,
        rematches: RematchStore | None = None,
        webhooks: Webhooks | None = None,
    ) -> None:
        self.games = games
        self.seat_store = seat_store
        self.lobby = lobby
        self.rematches = rematches or RematchStore(seat_store.redis)
        self.webhooks = webhooks  # a rematch keeps its game's endpoints

    # ---- the commit of a seat change -------------------------------------------------------
    def _read_as_seat(self, game_id: str, token: str | None, refusal: Message) -> tuple[StoredGame, int]:
        """The game and the caller's seat; ``refusal`` says why a seat token is needed."""
        stored = self.games.read(game_id)
        seat = auth.seat_of(stored.meta["seats"], token)
        if seat is None:
            raise MissingToken(refusal)
        return stored, seat

    def _commit(
        self,
        stored: StoredGame,
        meta: GameMeta,
        status: str,
        seat: int | None,
        events: list[dict[str, Any]],
        *,
        lobby: str = "",
        state: Any = None,
        player: str | None = None,
    ) -> int:
        now = time.time()
        # ``state`` is given when the seats to act change hands (a start, a resignation).
        turns_changed = state is not None
        if state is None and status == "active":
            # A change that hands no turn on (a rematch's token issued again) still says who is
            # to act: the webhooks' notices of the version read it from the entry.
            state = self.games._restore(stored, stored.state)
        acting = [] if state is None else to_act(status, state)
        entry: LogEntry = {
            "version": stored.version + 1,
            "seat": seat,
            "events": events,
            "at": now,
            "status": status,  # read by the webhooks' fan-out, as a move's (service.play.webhooks)
            "to_act": acting,
        }
        deadlines = None
        if "clock" in meta and (turns_changed or status != "active"):
            # Seats to act changed hands or the game ended: new deadlines.
            deadlines = next_deadlines(meta, status, acting, stored.deadlines, None, now)
            if deadlines:
                entry["deadlines"] = shown_deadlines(deadlines)
        store = self.games.store
        if status == "waiting":  # a waiting game expires a lobby's lifetime after its creation
            expiry: dict[str, Any] = {"expire_at": meta["created"] + store.lobby_ttl}
        else:
            expiry = {"ttl": store._ttl_for(status)}
        try:
            return self.seat_store.commit(
                stored.id,
                stored.version,
                meta,
                status,
                entry,
                lobby=lobby if meta.get("listed") else "",
                lobby_score=meta["created"],
                deadlines=deadlines,
                player=player,
                live_games_cap=self.games.live_games_per_player,
                **expiry,
            )
        except GameMissing:
            raise GameNotFound(stored.id) from None
        except PlayerOverCap:
            raise TooManyLiveGames(self.games.live_games_per_player) from None

    # ---- join and leave ----------------------------------------------------------------------
    def join(
        self,
        game_id: str,
        seat: int | None = None,
        name: str | None = None,
        *,
        holder: str | None = None,
        player: str | None = None,
    ) -> dict[str, Any]:
        """Take an open seat (the first one when ``seat`` is None); the token is shown once.

        ``holder`` (a rematch): the digest of the token of the finished game, for which the seat
        is reserved; its holder may take the seat again (a new token: a lost one is replaced).
        ``player`` (a join with a player key): the seat is bound to it, in the commit's script; a
        seat bound to a player at creation (an invitation) is that player's alone."""
        for _ in range(_ATTEMPTS):
            stored = self.games.read(game_id)
            again = (
                holder is not None
                and seat is not None
                and 0 <= seat < len(stored.meta["seats"])
                and stored.meta["seats"][seat]["kind"] == "human"
                and stored.meta["seats"][seat].get("reserved_for") == holder
            )
            if again and seat is not None:  # ``again`` tested it: for the type checker
                try:
                    return self._issue_again(stored, seat)
                except GameMovedOn:
                    continue
            if stored.status != "waiting":
                raise GameNotWaiting(
                    say("service.refusal.game_not_waiting.game_has_started_seats")
                    if stored.status == "active"
                    else say(
                        "service.refusal.game_not_waiting.game_seat_can_joined", status=str(stored.status)
                    )
                )
            seats = stored.meta["seats"]
            if seat is None:
                free = [
                    s["seat"]
                    for s in seats
                    if s["kind"] == "open" and "reserved_for" not in s and s.get("player", player) == player
                ]
                if not free:
                    raise SeatTaken(say("service.refusal.seat_taken.every_open_seat_reserved"))
                # An invitation to the joining player first: it is the seat meant for it.
                chosen = min(free, key=lambda s: (seats[s].get("player") is None, s))
            elif not 0 <= seat < len(seats):
                raise NoSuchSeat(
                    say("service.refusal.no_such_seat", last=str(len(seats) - 1), seat=str(seat))
                )
            elif seats[seat]["kind"] != "open":
                raise SeatTaken(say("service.refusal.seat_taken.seat_longer_open_join", seat=str(seat)))
            elif seats[seat].get("reserved_for", holder) != holder:
                raise SeatTaken(say("service.refusal.seat_taken.seat_reserved_player_last", seat=str(seat)))
            elif seats[seat].get("player", player) != player:
                raise SeatInvited(
                    say("service.refusal.seat_invited.seat_invitation_another_player", seat=str(seat))
                )
            else:
                chosen = seat
            if stored.meta.get("rated"):
                _check_rated_join(seats, chosen, player)
            meta = copy.deepcopy(stored.meta)
            invited = seats[chosen].get("name")
            token = auth.new_token()
            taken: SeatRecord = {"seat": chosen, "kind": "human"}
            shown_name = name or invited
            if shown_name:
                taken["name"] = shown_name
            if invited:
                taken["invited"] = invited
            if "reserved_for" in seats[chosen]:
                taken["reserved_for"] = seats[chosen]["reserved_for"]
            taken["token_hash"] = auth.token_hash(token)
            if player is not None:
                taken["player"] = player
            meta["seats"][chosen] = taken
            started = not any(s["kind"] == "open" for s in meta["seats"])
            joined: dict[str, Any] = {"type": "seat_joined", "seat": chosen}
            if "name" in taken:
                joined["name"] = taken["name"]
            events: list[dict[str, Any]] = [joined]
            status = "waiting"
            state = None
            if started:
                events.append({"type": "game_started"})
                state = self.games._restore(stored, stored.state)
                status = "finished" if state.is_over() else "active"
                if bot_seats_to_act(meta, state):
                    self.games.store.mark_bot_due(game_id)  # before the commit, as a move does
            try:
                version = self._commit(
                    stored,
                    meta,
                    status,
                    chosen,
                    events,
                    lobby="remove" if started else "",
                    state=state,
                    player=player,
                )
            except GameMovedOn:
                continue
            if started and state is not None:
                self.games._wake_bots(game_id, version, meta, state)
            return {"id": game_id, "seat": chosen, "token": token, "status": status, "version": version}
        raise TooMuchContention(say("service.refusal.too_much_contention.game_s_seats_changed"))

    def _issue_again(self, stored: StoredGame, seat: int) -> dict[str, Any]:
        """A new token for a rematch's seat whose player asks again (the old one stops working)."""
        meta = copy.deepcopy(stored.meta)
        token = auth.new_token()
        meta["seats"][seat]["token_hash"] = auth.token_hash(token)
        event = {"type": "seat_joined", "seat": seat, "again": True}
        version = self._commit(stored, meta, stored.status, seat, [event])
        return {"id": stored.id, "seat": seat, "token": token, "status": stored.status, "version": version}

    # ---- rematch -------------------------------------------------------------------------------
    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The one rematch of a finished game: same title, options, clock and bots, a new seed;
        each human seat reserved for its player, who takes it by asking (again: a new token)."""
        stored, seat = self._read_as_seat(game_id, token, say("service.refusal.missing_token.rematch"))
        if stored.status != "finished":
            raise GameNotOver(say("service.refusal.game_not_over.rematch_offered_once_game"))
        old = stored.meta
        game = registry.get(old["title"])
        seats: list[SeatRecord] = []
        for former in old["seats"]:
            # Keys in the order they always had: the meta's JSON is unchanged.
            next_seat: SeatRecord = {"seat": former["seat"], "kind": "open"}
            if former.get("name"):
                next_seat["name"] = former["name"]
            if former.get("token_hash"):  # a human seat (resigned or not): reserved for its player
                next_seat["reserved_for"] = former["token_hash"]
            else:
                next_seat["kind"] = "bot"
                next_seat["bot"] = former["bot"]
                next_seat["level"] = former["level"]
            seats.append(next_seat)
        seed = secrets.randbits(63)
        meta: GameMeta = {
            "title": game.id,
            "rules_version": game.rules_version,
            "seats": seats,
            "options": old["options"],
            "seed": seed,
            "created": time.time(),
            "stand_in": stand_in_of(old),
            "rematch_of": game_id,
        }
        if "clock" in old:
            meta["clock"] = old["clock"]
        state = game.setup(len(seats), old["options"], seed)
        new_id = self._rematch_once(game_id, meta, state.to_dict())
        if self.webhooks is not None:  # before the join: its seat.joined is the first notice
            self.webhooks.carry_over(game_id, new_id)
        # The digest the seat is reserved for: the seat's own, whichever credential found the seat.
        joined = self.join(new_id, seat, holder=old["seats"][seat].get("token_hash"))
        return {"id": new_id, "seat": seat, "token": joined["token"], "status": joined["status"]}

    def _rematch_once(self, game_id: str, meta: GameMeta, state: dict[str, Any]) -> str:
        """The finished game's one rematch, made now or found: in the game's hash while Redis has
        it (and copied to the archive once it is archived), else in the archive's row."""
        lifetime = self.games.store.lobby_ttl
        made = self.rematches.create_once(
            game_id, new_game_id(beside=game_id), meta, state, "waiting", lifetime
        )
        repository = self.games.repository
        if made is not None:
            new_id, in_archive = made
            if in_archive:
                repository.claim_rematch(game_id, new_id)  # the archiver has released the game already
            return new_id
        if not repository.has_archive:
            raise GameNotFound(game_id)
        # Only the archive holds the game: the new game first, then the archive's claim; the first
        # claim wins and a loser's game goes (it was never shown to anyone).
        new_id = new_game_id()
        self.rematches.create_alone(new_id, meta, state, "waiting", lifetime)
        try:
            winner = repository.claim_rematch(game_id, new_id)
        except Exception:
            self.rematches.discard(new_id)
            raise
        if winner != new_id:
            self.rematches.discard(new_id)
        if winner is None:
            raise GameNotFound(game_id)
        return winner

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Give a seat back before the start: it is open again, and its token stops working."""
        for _ in range(_ATTEMPTS):
            stored, seat = self._read_as_seat(game_id, token, say("service.refusal.missing_token.leave"))
            if stored.status != "waiting":
                raise GameNotWaiting(say("service.refusal.game_not_waiting.game_has_started_resign"))
            meta = copy.deepcopy(stored.meta)
            given_back = meta["seats"][seat]
            invited = given_back.get("invited")
            reopened: SeatRecord = {"seat": seat, "kind": "open"}
            if invited:
                reopened["name"] = invited
            meta["seats"][seat] = reopened
            if "reserved_for" in given_back:  # a rematch's seat stays its player's
                meta["seats"][seat]["reserved_for"] = given_back["reserved_for"]
            try:
                version = self._commit(stored, meta, "waiting", seat, [{"type": "seat_left", "seat": seat}])
            except GameMovedOn:
                continue
            player = given_back.get("player")
            if player is not None and not any(s.get("player") == player for s in meta["seats"]):
                self._unsubscribe(game_id, player)
            return {"id": game_id, "seat": seat, "status": "waiting", "version": version}
        raise TooMuchContention(say("service.refusal.too_much_contention.game_s_seats_changed_2"))

    def _unsubscribe(self, game_id: str, player_id: str) -> None:
        """A player who left its last seat of a game hears no more of it: its endpoint goes from
        the game's webhooks, the game from its index ("my games", its webhook's deliveries). The
        webhooks' fan-out also skips a player the game no longer binds (service.play.webhooks),
        so a version committed before this step is not told to it either."""
        if self.webhooks is not None:
            self.webhooks.store.remove_endpoint(game_id, player_endpoint_id(player_id))
        self.seat_store.players.forget_game(player_id, game_id)

    # ---- resign ------------------------------------------------------------------------------
    def resign(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Give the game up. Two seats: it ends at once, the other seat wins. More: a stand-in bot
        (the game's ``stand_in`` level) plays the seat to the end, ranked last among those who
        stayed; once no human seat is left unresigned, the bots play it out at their fastest."""
        for _ in range(_ATTEMPTS):
            stored, seat = self._read_as_seat(game_id, token, say("service.refusal.missing_token.resign"))
            try:
                return self.resign_seat(stored, seat)
            except GameMovedOn:
                continue
        raise TooMuchContention(say("service.refusal.too_much_contention.game_changed_too_often_2"))

    def resign_seat(
        self, stored: StoredGame, seat: int, leading_events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """Resign ``seat`` of the game as read (a compare-and-set on its version: GameMovedOn
        if it moved on). ``leading_events`` come first in the entry (a timeout's)."""
        game_id = stored.id
        if stored.meta["seats"][seat]["kind"] != "human":
            raise SeatResigned(say("service.refusal.seat_resigned.you_have_already_resigned"))
        if stored.status != "active":
            raise GameNotActive(
                say("service.refusal.game_not_active.game_has_started_leave")
                if stored.status == "waiting"
                else say(
                    "service.refusal.game_not_active.game_there_nothing_resign", status=str(stored.status)
                )
            )
        meta = copy.deepcopy(stored.meta)
        order = 1 + len(resigned_order(meta))
        resigned: dict[str, Any] = {"type": "seat_resigned", "seat": seat}
        state = None
        if len(meta["seats"]) == 2:
            meta["seats"][seat]["resigned"] = order
            meta["ended"] = resignation_result(meta, 1 - seat)
            status = "finished"
        else:
            stand_in = stand_in_of(meta)
            old = meta["seats"][seat]
            # The token stays: its player still sees the game as that seat, and may not move.
            played_by_bot: SeatRecord = {"seat": seat, "kind": "bot"}
            if "name" in old:
                played_by_bot["name"] = old["name"]
            played_by_bot["bot"] = stand_in["bot"]
            played_by_bot["level"] = stand_in["level"]
            played_by_bot["resigned"] = order
            played_by_bot["token_hash"] = old["token_hash"]
            # What the seat was before stays its own: the name it was invited under (a version
            # before the join shows it, and a past version must read the same forever), and the
            # player it is bound to (the game stays in its "my games", readable by its key).
            if "invited" in old:
                played_by_bot["invited"] = old["invited"]
            if "player" in old:
                played_by_bot["player"] = old["player"]
            meta["seats"][seat] = played_by_bot
            resigned["stand_in"] = stand_in["level"]
            if not any(s["kind"] == "human" for s in meta["seats"]):
                meta["played_out"] = True  # no one is left to wait for: bots at their fastest
            status = "active"
            state = self.games._restore(stored, stored.state)
            if bot_seats_to_act(meta, state):
                self.games.store.mark_bot_due(game_id)  # before the commit, as a move does
        events = [*(leading_events or []), resigned]
        version = self._commit(stored, meta, status, seat, events, state=state)
        if state is not None:
            self.games._wake_bots(game_id, version, meta, state)
        return {"id": game_id, "seat": seat, "status": status, "version": version}

    # ---- abort --------------------------------------------------------------------------------
    def abort(self, game_id: str, token: str | None) -> dict[str, Any]:
        """End the game with no result: while it waits, or while a human seat has not moved yet."""
        for _ in range(_ATTEMPTS):
            stored, seat = self._read_as_seat(game_id, token, say("service.refusal.missing_token.abort"))
            if stored.meta["seats"][seat]["kind"] != "human":
                raise SeatResigned(say("service.refusal.seat_resigned.you_resigned_game_longer"))
            if stored.status == "active":
                moved = {e["seat"] for e in self.games.store.log(game_id) if "move" in e}
                humans = {s["seat"] for s in stored.meta["seats"] if s["kind"] == "human"}
                if humans <= moved:
                    raise AbortRefused(say("service.refusal.abort_refused.every_player_has_moved"))
            elif stored.status != "waiting":
                raise AbortRefused(
                    say("service.refusal.abort_refused.game_can_longer_aborted", status=str(stored.status))
                )
            try:
                version = self._commit(
                    stored,
                    stored.meta,
                    "aborted",
                    seat,
                    [{"type": "game_aborted", "seat": seat}],
                    lobby="remove",
                )
            except GameMovedOn:
                continue
            return {"id": game_id, "status": "aborted", "version": version}
        raise TooMuchContention(say("service.refusal.too_much_contention.game_changed_too_often_3"))

    # ---- idle games ---------------------------------------------------------------------------
    def idle_until(self, stored: StoredGame) -> float:
        """When a live game will have been idle too long: a waiting game its lobby's lifetime after
        its creation, an active one the game TTL after its last commit (sk:idle's score)."""
        store = self.games.store
        if stored.status == "waiting":
            return float(stored.meta["created"]) + store.lobby_ttl
        return stored.updated + store._ttl_for(stored.status)

    def expire_idle(self, game_id: str, now: float | None = None) -> str:
        """End a game left idle too long as ``expired`` (what the workers' sweeper calls for a game
        of sk:idle): logged like an abort, no result, no more moves, and due to be archived in the
        same commit. A compare-and-set on the version read: a move that lands first keeps the game
        alive. What happened: expired, not_idle (it moved meanwhile), ended (already), gone."""
        now = time.time() if now is None else now
        try:
            stored = self.games.store.load(game_id, parse_state=False)
        except GameMissing:
            return "gone"
        if stored.status not in ("waiting", "active"):
            return "ended"
        idle_since = stored.updated if stored.status == "active" else float(stored.meta["created"])
        if self.idle_until(stored) > now:
            return "not_idle"
        event = {"type": "game_expired", "idle_since": rfc3339(idle_since)}
        try:
            self._commit(stored, stored.meta, "expired", None, [event], lobby="remove")
        except GameMovedOn:
            return "not_idle"
        except GameMissing:
            return "gone"
        return "expired"

    # ---- the lobby ----------------------------------------------------------------------------
    def lobby_page(
        self,
        title: str | None = None,
        seats: int | None = None,
        cursor: str | None = None,
        limit: int = LOBBY_PAGE,
    ) -> dict[str, Any]:
        """Listed games waiting for players, newest first; ``next`` is the cursor of the next page."""
        limit = max(1, min(limit, LOBBY_PAGE_MAX))
        before, after_id = read_cursor(cursor, "lobby") if cursor else (None, None)
        found: list[dict[str, Any]] = []
        last: tuple[float, str] | None = None
        more = True
        while len(found) < limit and more:
            batch = 2 * limit + 8
            rows = self.lobby.page(before, batch)
            more = len(rows) == batch
            # Ties on the creation time (Redis orders them by member, descending): skip those
            # already listed.
            if after_id is not None:
                rows = [(g, s) for g, s in rows if not (s == before and g >= after_id)]
            if not rows:
                break
            for (game_id, score), read in zip(rows, self.lobby.games([g for g, _ in rows]), strict=True):
                last = (score, game_id)
                if read is None or read[0] != "waiting":
                    self.lobby.forget(game_id)  # expired, started or aborted
                    continue
                meta = read[1]
                if (title is not None and meta["title"] != title) or (
                    seats is not None and len(meta["seats"]) != seats
                ):
                    continue
                found.append(_lobby_entry(game_id, meta))
                if len(found) == limit:
                    break
            before, after_id = last if last is not None else (before, after_id)
        next_cursor = None
        if len(found) == limit and last is not None:
            next_cursor = write_cursor(*last)
        return {"games": found, "next": next_cursor}


def _check_rated_join(seats: list[SeatRecord], chosen: int, player: str | None) -> None:
    """A rated game's open seat is taken with a player key, by a player who holds none of its
    seats: every seat that plays is then someone's rating, and nobody plays two (docs/ratings.md)."""
    if player is None:
        raise RatedSeatNeedsPlayer(say("service.refusal.rated_seat_needs_player", seat=chosen))
    if any(seat.get("player") == player for seat in seats if seat["seat"] != chosen):
        raise AlreadySeated(say("service.refusal.already_seated"))


def _lobby_entry(game_id: str, meta: GameMeta) -> dict[str, Any]:
    seats = [public_seat(s) for s in meta["seats"]]
    return {
        "id": game_id,
        "title": meta["title"],
        "options": meta["options"],
        "seats": seats,
        "open_seats": [s["seat"] for s in seats if s["kind"] == "open"],
        "created": rfc3339(meta["created"]),
        "rated": bool(meta.get("rated")),
    }
