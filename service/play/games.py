"""What the API does, without Flask: create games, show them, list and apply moves.

Every route is a few lines around one of these methods; the worker calls ``act`` for bot
seats exactly as a client would, so both paths share one set of rules and one commit.
A refusal is an exception of ``service.play.errors`` (or the engines' ``RulesError``), never
an HTTP status: ``service.http`` answers each with its problem+json.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, cast

import orjson

from engines import registry
from engines.bots import LEVELS, STRATEGIES, level_for
from engines.core import Game, GameOver, RulesError, State, redact_all, render, say
from engines.core.messages import ENGLISH

from ..store.botgames import BotGameQuota
from ..store.games import (
    DuplicateRequest,
    GameMissing,
    GameMovedOn,
    GameStore,
    LiveRead,
    PlayerOverCap,
    StoredGame,
    new_game_id,
)
from ..store.lobby import LobbyIndex
from ..store.players import PlayerStore
from ..store.records import GameMeta, GameResult, LogEntry, PublicSeat, SeatRecord, StandIn
from ..store.roundtrip import Command
from ..watch import metrics
from . import auth
from .deadlines import clock_of, next_deadlines
from .deadlines import shown as shown_deadlines
from .errors import (
    BadPlayerBinding,
    GameNotActive,
    GameNotFound,
    GameNotOver,
    IdempotencyKeyReused,
    InvalidToken,
    LevelNotForBot,
    MissingToken,
    NotYourGame,
    NotYourSeat,
    PlayerKeyRequired,
    SeatResigned,
    SeedWithOpenSeats,
    StaleVersion,
    TooManyBotGames,
    TooManyLiveGames,
    TooMuchContention,
    UnratableGame,
)
from .rated_games import rated_fields
from .replay import engine_of
from .replies import (
    AppliedMove,
    CheckedMove,
    CreatedGame,
    EventsPage,
    GameRecord,
    ShownEntry,
    ShownGame,
)
from .repository import GameRepository
from .results import game_result

# What the API lets a game be made of (http/schemas.py validates requests with these; an imported
# game is held to them too, play/replays.py): a game the API could not have made is one its
# readers were never written for.
MAX_SEATS = 12
MAX_SEED = 2**63 - 1
MAX_NAME_LENGTH = 40
# No control characters (C0, DEL, C1): a name is shown in pictures and logs, and XML 1.0
# (board.svg's) cannot hold most of them.
NAME_PATTERN = rf"[^\x00-\x1f\x7f-\x9f]{{1,{MAX_NAME_LENGTH}}}"
PLAYER_ID_PATTERN = r"p_[A-Za-z0-9_-]{1,64}"
_NAME = re.compile(NAME_PATTERN)
_PLAYER_ID = re.compile(PLAYER_ID_PATTERN)


def is_seat_name(text: object) -> bool:
    return isinstance(text, str) and _NAME.fullmatch(text) is not None


def is_player_id(text: object) -> bool:
    return isinstance(text, str) and _PLAYER_ID.fullmatch(text) is not None


# Moves submitted without a version are judged against the current state; when another
# move lands in between, the move is judged again on the new state, a few times at most.
_UNVERSIONED_ATTEMPTS = 8

BotEnqueuer = Callable[..., object]  # (game_id, version, *, humans) -> enqueued
# The level of the bot that stands in for a seat whose player resigned, unless the game names one.
STAND_IN_LEVEL = "greedy"


def stand_in_of(meta: GameMeta) -> StandIn:
    """The bot that plays a seat whose player resigned or ran out of time: the game's (set at
    creation), or the default level for a game kept from before there was a choice."""
    if "stand_in" in meta:
        return meta["stand_in"]
    plan = level_for(None, STAND_IN_LEVEL)
    return {"bot": plan.bot, "level": plan.name}


def bound_players(seats: list[SeatRecord]) -> list[tuple[str, bool]]:
    """Each player bound to a seat, once, and whether its cap of live games applies: to a seat it
    takes, not to an invitation it may never take."""
    capped: dict[str, bool] = {}
    for seat in seats:
        if "player" in seat:
            player = seat["player"]
            capped[player] = capped.get(player, False) or seat["kind"] != "open"
    return list(capped.items())


def _check_ratable(seats: list[SeatRecord]) -> None:
    """A rated game's every human seat is bound to a player, and a player holds one seat of it; an
    open seat is an invitation, or a seat only a player key can take (service.play.seats), so
    every seat that plays is a bot or a player (docs/ratings.md)."""
    unbound = [seat["seat"] for seat in seats if seat["kind"] == "human" and "player" not in seat]
    if unbound:
        raise UnratableGame(
            say("service.refusal.unratable_game.rated_game_binds_every", unbound=str(unbound))
        )
    players = [seat["player"] for seat in seats if "player" in seat]
    if len(players) != len(set(players)):
        raise UnratableGame(say("service.refusal.unratable_game.one_seat_per_player"))
    if all(seat["kind"] == "bot" for seat in seats):
        raise UnratableGame(say("service.refusal.unratable_game.game_bots_only_rated"))


def _status(state: State) -> str:
    return "finished" if state.is_over() else "active"


def public_seat(seat: SeatRecord) -> PublicSeat:
    """A seat as every reader sees it (a game, its record, the lobby): its token's digest, the
    invited name and a rematch's reservation stay secret, and a resigned seat says only that it
    resigned (``"resigned": true``), not when (its place in the order is the result's)."""
    public: PublicSeat = {"seat": seat["seat"], "kind": seat["kind"]}
    for key in ("name", "bot", "level"):
        if key in seat:
            public[key] = seat[key]
    if seat.get("resigned"):
        public["resigned"] = True
    return public


def public_seats(meta: GameMeta) -> list[PublicSeat]:
    return [public_seat(seat) for seat in meta["seats"]]


def game_record(
    game_id: str, meta: GameMeta, entries: list[LogEntry], result: GameResult | None
) -> GameRecord:
    """GET /games/{id}/record's shape, and an export's: the setup and the moves that replay to the
    result. The moves only: the log's seat changes (joins, resignations) are not the rules'."""
    return {
        "id": game_id,
        "title": meta["title"],
        "rules_version": meta["rules_version"],
        "seats": public_seats(meta),
        "options": meta["options"],
        "seed": meta["seed"],
        "moves": [{"seat": entry["seat"], "move": entry["move"]} for entry in entries if "move" in entry],
        "result": result,
    }


def request_fingerprint(move: Any, version: int | None) -> str:
    """What an Idempotency-Key's first request asked, to tell a true retry from a reuse."""
    # The standard json module: a client may send integers beyond 64 bits.
    return hashlib.sha256(json.dumps({"move": move, "version": version}, sort_keys=True).encode()).hexdigest()


def has_humans(meta: Mapping[str, Any]) -> bool:
    # An open seat is a human's to come.
    return any(seat["kind"] != "bot" for seat in meta["seats"])


def viewing_seat(status: str, seat: int | None) -> int | None:
    """Whose eyes a reader of the game sees with: a spectator's while it waits for players, else
    the reader's seat. Before the start the hidden things of a seat (the hand dealt at creation)
    belong to whoever holds the seat when the game starts, not to a reader who may still leave
    and let another take it (the rule of waiting games, e.g. P-WAIT in docs/rules/property.md)."""
    return None if status == "waiting" else seat


def to_act(status: str, state: State) -> list[int]:
    """The seats to act: none while the game waits for players, or once it was aborted."""
    return state.to_act() if status == "active" else []


def bot_seats_to_act(meta: GameMeta, state: State) -> list[int]:
    kinds = {seat["seat"]: seat["kind"] for seat in meta["seats"]}
    return [seat for seat in state.to_act() if kinds.get(seat) == "bot"]


def _remember(
    entries: OrderedDict[Any, Any], lock: threading.Lock, capacity: int, key: Any, value: Any
) -> None:
    """Put ``value`` under ``key`` as the newest entry, dropping the oldest beyond ``capacity``."""
    if capacity <= 0:
        return
    with lock:
        entries[key] = value
        entries.move_to_end(key)
        while len(entries) > capacity:
            entries.popitem(last=False)


class RecentStates:
    """The games this process committed last, each at the version its commit made.

    A move sent with that version is then judged on the kept state instead of a fresh read:
    the commit's compare-and-set on the version still decides, and a move the kept state
    refuses, or whose commit finds the game moved on, is judged again on the game read, so
    the answer is always the one a read would have given. An entry is taken out while a
    request uses it (no copy, and no two requests on one state) and put back by a successful
    commit; least recently committed games are dropped first.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, tuple[StoredGame, State]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: str, version: int) -> tuple[StoredGame, State] | None:
        with self._lock:
            entry = self._entries.pop(game_id, None)
        if entry is not None and entry[0].version != version:
            return None  # the client is at another version: read the game
        return entry

    def holds(self, game_id: str, version: int) -> bool:
        """Whether a move at ``version`` would now be judged on a kept state (not read)."""
        with self._lock:
            entry = self._entries.get(game_id)
        return entry is not None and entry[0].version == version

    def keep(self, stored: StoredGame, state: State) -> None:
        _remember(self._entries, self._lock, self.capacity, stored.id, (stored, state))


class Listings:
    """The moves replies this process wrote last, per game and seat, each with the version it lists.

    A listing depends only on the game's state at one version and on the seat, and the state at
    a version never changes (every commit is a compare-and-set that makes a new version), so a
    listing written once answers every later request for that game, seat and version: a client
    polling its moves, a page reloaded, a bot's every retry. The version is read from Redis on
    every request all the same, so a game that moved, on any process, is listed anew.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[str, int | None, str], tuple[int, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, seat: int | None, version: int, language: str = ENGLISH) -> bytes | None:
        with self._lock:
            entry = self._entries.get((game_id, seat, language))
        return entry[1] if entry is not None and entry[0] == version else None

    def put(
        self, game_id: str, seat: int | None, version: int, listing: bytes, language: str = ENGLISH
    ) -> None:
        _remember(self._entries, self._lock, self.capacity, (game_id, seat, language), (version, listing))


def catalog_entry(game: Game[State], language: str) -> dict[str, Any]:
    """A title's catalog entry with its words in ``language``."""
    entry = game.catalog_entry()
    options = dict(entry["options"])
    options["properties"] = {
        name: {**option, "description": render(say(f"catalog.{game.id}.option.{name}"), language)}
        for name, option in options.get("properties", {}).items()
    }
    return {**entry, "summary": render(say(f"catalog.{game.id}.summary"), language), "options": options}


class Games:
    """The use-cases of the HTTP API over a GameStore."""

    def __init__(
        self,
        store: GameStore,
        enqueue_bot_turn: BotEnqueuer | None = None,
        *,
        stall_seconds: float = 30.0,
        recent_games: int = 256,
        bot_games: BotGameQuota | None = None,
        lobby: LobbyIndex | None = None,
        repository: GameRepository | None = None,
        player_store: PlayerStore | None = None,
        live_games_per_player: int = 0,
    ) -> None:
        self.store = store
        self.player_store = player_store  # invitations name players that exist
        self.live_games_per_player = live_games_per_player  # SKYLINE_LIVE_GAMES_PER_PLAYER
        # Every read of a game, live or archived (DATABASE_URL), goes through it.
        self.repository = repository if repository is not None else GameRepository(store)
        self.lobby = lobby  # the index of listed games waiting for players
        self.enqueue_bot_turn = enqueue_bot_turn
        self.bot_games = bot_games  # SKYLINE_BOT_GAMES_PER_ADDRESS
        self.stall_seconds = stall_seconds  # SKYLINE_BOT_STALL_SECONDS
        self.recent = RecentStates(recent_games)  # SKYLINE_RECENT_GAMES
        # A listing per seat, up to four seats a game on average.
        self.listings = Listings(4 * recent_games)

    # ---- catalog and creation -------------------------------------------------------
    def catalog(self, language: str = ENGLISH) -> dict[str, Any]:
        """GET /catalog in ``language``: the summaries, options' and levels' descriptions are the
        catalogue's ``catalog.…`` messages (their English is the engines' own text)."""
        return {
            "titles": [
                {
                    **catalog_entry(game, language),
                    "rules_versions": list(registry.versions(game.id)),
                    "bots": sorted(STRATEGIES),
                    "levels": [
                        {**shown, "description": render(say(f"catalog.level.{shown['level']}"), language)}
                        for level in LEVELS.values()
                        for shown in [level.for_game(game).to_dict()]
                    ],
                    # Every title ranks every seat at its end (ties as ties): all are rated.
                    "rated": True,
                }
                for game in registry.GAMES.values()
            ]
        }

    def create(
        self,
        request: dict[str, Any],
        *,
        address: str | None = None,
        player: str | None = None,
        seated: frozenset[str] = frozenset(),
    ) -> CreatedGame:
        """Create a game; a game of bots only counts against the quota of the client ``address``.
        ``player``: the creator's, when it sent a player key (a seat ``"player": "me"`` is bound to it).
        ``seated``: players whose human seats the server itself binds (a seek's match, never a
        request's body): a human seat ``"player": "<id>"`` of theirs is bound to them."""
        quota = self.bot_games if address is not None and not has_humans(request) else None
        if quota is not None and address is not None and not quota.admit(address):
            raise TooManyBotGames(quota.per_address)
        game = registry.get(request["title"])
        seats_in = request["seats"]
        options = game.normalize_options(len(seats_in), request.get("options") or {})
        seed = request.get("seed")
        if seed is not None and any(seat["kind"] == "open" for seat in seats_in):
            raise SeedWithOpenSeats()
        if seed is None:
            seed = secrets.randbits(63)
        seats: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for index, seat in enumerate(seats_in):
            entry: SeatRecord = {"seat": index, "kind": seat["kind"]}
            if seat.get("name"):
                entry["name"] = seat["name"]
            if seat["kind"] == "open":
                pass  # no token until someone joins (service.play.seats)
            elif seat["kind"] == "bot":
                plan = level_for(seat.get("bot"), seat.get("level"))
                if seat.get("bot") not in (None, plan.bot):
                    raise LevelNotForBot(
                        say(
                            "service.refusal.level_not_for_bot",
                            level=repr(plan.name),
                            bot=plan.bot,
                            asked=seat["bot"],
                        )
                    )
                entry["bot"], entry["level"] = plan.bot, plan.name
            else:
                tokens[index] = auth.new_token()
                entry["token_hash"] = auth.token_hash(tokens[index])
            if seat.get("player") is not None:
                entry["player"] = self._bound_player(seat["kind"], seat["player"], player, seated)
            seats.append(entry)
        if request.get("rated"):
            _check_ratable(seats)
        stand_in = level_for(None, request.get("stand_in") or STAND_IN_LEVEL)
        state = game.setup(len(seats), options, seed)
        game_id = new_game_id()
        meta: GameMeta = {
            "title": game.id,
            "rules_version": game.rules_version,
            "seats": seats,
            "options": options,
            "seed": seed,
            "created": time.time(),
            # The bot that plays a seat whose player resigned (service.play.seats).
            "stand_in": {"bot": stand_in.bot, "level": stand_in.name},
        }
        clock = clock_of(request.get("clock"))
        if clock is not None:
            meta["clock"] = clock
        waiting = any(seat["kind"] == "open" for seat in seats)
        if request.get("listed"):
            meta["listed"] = True
        if request.get("rated"):
            meta["rated"] = True
        status = "waiting" if waiting else _status(state)
        if not waiting and bot_seats_to_act(meta, state):
            self.store.mark_bot_due(game_id)
        deadlines = next_deadlines(meta, status, state.to_act(), None, None, meta["created"])
        try:
            self.store.create(
                game_id,
                meta,
                state.to_dict(),
                status,
                deadlines,
                players=bound_players(seats),
                live_games_cap=self.live_games_per_player,
                to_act=to_act(status, state),
            )
        except PlayerOverCap:
            raise TooManyLiveGames(self.live_games_per_player) from None
        if waiting:
            if meta.get("listed") and self.lobby is not None:
                self.lobby.add(game_id, meta["created"])
        else:
            self._wake_bots(game_id, 0, meta, state)
        if quota is not None and address is not None:
            quota.record(address, game_id)
        public = public_seats(meta)
        for shown in public:
            if shown["seat"] in tokens:
                shown["token"] = tokens[shown["seat"]]
        return {
            "id": game_id,
            "title": game.id,
            "version": 0,
            "status": status,
            "to_act": to_act(status, state),
            "options": options,
            "seats": public,
            # The human seats and their tokens, first human first: what a client (or an OpenAPI
            # link) needs to play, whichever seat numbers the bots took.
            "human_seats": [{"seat": seat, "token": token} for seat, token in sorted(tokens.items())],
        }

    def _bound_player(self, kind: str, wanted: str, creator: str | None, seated: frozenset[str]) -> str:
        """The player a requested seat is bound to: the creator's own human seat ("me"), an open
        seat for another player (an invitation only that player may take), or a seeker's seat."""
        if kind == "human" and wanted in seated:
            return wanted
        if kind == "human":
            if wanted != "me":
                raise BadPlayerBinding(say("service.refusal.bad_player_binding.human_seat_bound_creator"))
            if creator is None:
                raise PlayerKeyRequired(say("service.refusal.player_key_required.seat_player_me_needs"))
            return creator
        if kind != "open" or wanted == "me":
            raise BadPlayerBinding(
                say(
                    "service.refusal.bad_player_binding.only_open_seat_invites",
                    mine='{"kind": "human", "player": "me"}',
                )
            )
        if self.player_store is None or not self.player_store.exists(wanted):
            raise BadPlayerBinding(
                say("service.refusal.bad_player_binding.player_exists_invite", wanted=repr(wanted))
            )
        return wanted

    # ---- reading ---------------------------------------------------------------------
    def read(self, game_id: str, *, parse_state: bool = True, live: LiveRead | None = None) -> StoredGame:
        """The game as stored, live or archived; GameNotFound when there is none (never was, or
        expired). ``live``: Redis's answer to ``read_ahead``'s command, sent ahead."""
        return self.repository.read(game_id, parse_state=parse_state, live=live)

    def read_ahead(self, game_id: str) -> Command[LiveRead]:
        """The read ``moves_json`` and ``act`` start with, as a command the request's edge may send
        in its own round trip (the rate limit's check); its answer goes to them as ``live``."""
        return self.repository.read_ahead(game_id)

    def reads_to_act(self, game_id: str, version: int | None) -> bool:
        """Whether ``act`` would read the game (no state kept at the version sent): whether a
        read sent ahead would be used."""
        return version is None or not self.recent.holds(game_id, version)

    def log(self, stored: StoredGame, after: int = 0) -> list[LogEntry]:
        """The log entries after version ``after``, up to the version ``stored`` was read at."""
        return self.repository.log(stored, after)

    @staticmethod
    def _restore(stored: StoredGame, state: dict[str, Any]) -> State:
        return engine_of(stored.meta).restore(state)

    def _load(self, game_id: str, live: LiveRead | None = None) -> tuple[StoredGame, State]:
        stored = self.read(game_id, live=live)
        return stored, self._restore(stored, stored.state)

    def show(self, game_id: str, token: str | None) -> ShownGame:
        stored, state = self._load(game_id)
        seat = auth.seat_of(stored.meta["seats"], token)
        self._heal_stalled_bots(stored, state)
        result = game_result(stored.meta, state)
        shown: ShownGame = {
            "id": game_id,
            "title": stored.meta["title"],
            "rules_version": stored.meta["rules_version"],
            "version": stored.version,
            "status": stored.status,
            "to_act": to_act(stored.status, state),
            "you": seat,
            "options": stored.meta["options"],
            "seats": public_seats(stored.meta),
            "view": state.view(viewing_seat(stored.status, seat)),
            "result": result,
        }
        if "clock" in stored.meta:
            shown["clock"] = stored.meta["clock"]
            shown["deadlines"] = shown_deadlines(stored.deadlines)
        if stored.rematch:
            shown["rematch"] = stored.rematch
        shown.update(rated_fields(self.repository, game_id, stored.meta, stored.status))  # type: ignore[typeddict-item]  # its keys are ShownGame's
        return shown

    def moves(self, game_id: str, token: str | None) -> dict[str, Any]:
        listing: dict[str, Any] = orjson.loads(self.moves_json(game_id, token))
        return listing

    def moves_json(
        self, game_id: str, token: str | None, live: LiveRead | None = None, language: str = ENGLISH
    ) -> bytes:
        """The caller's legal moves as the API sends them (JSON), labelled in ``language``: from
        a listing kept for the game's current version, else listed on the state read (parsed only
        then). ``live``: the game as a read sent ahead found it (``read_ahead``)."""
        stored = self.read(game_id, parse_state=False, live=live)
        seat = auth.seat_of(stored.meta["seats"], token)
        listing = self.listings.get(game_id, seat, stored.version, language)
        if listing is None:
            state = self._restore(stored, orjson.loads(stored.raw_state))
            active = stored.status == "active"  # finished: the engine lists nothing anyway
            listed = [] if seat is None or not active else state.legal_moves(seat)
            listing = orjson.dumps(
                {
                    "title": stored.meta["title"],
                    "version": stored.version,
                    "seat": seat,
                    "to_act": state.to_act() if active else [],
                    "moves": [
                        {"move": move, "label": render(state.label(move), language)} for move in listed
                    ],
                    **({"deadlines": shown_deadlines(stored.deadlines)} if "clock" in stored.meta else {}),
                }
            )
            self.listings.put(game_id, seat, stored.version, listing, language)
        return listing

    def events(self, game_id: str, token: str | None, since: int = 0) -> EventsPage:
        stored = self.read(game_id, parse_state=False)  # the log says it all
        seat = auth.seat_of(stored.meta["seats"], token)
        entries = self.log(stored, since)
        return {
            "title": stored.meta["title"],
            "version": stored.version,
            "status": stored.status,
            "events": [self.redact_entry(e, seat, stored.status) for e in entries],
        }

    def seat_of_token(self, game_id: str, token: str) -> int | None:
        """The seat ``token`` holds now; None once it holds none (its seat was left, or a new
        token replaced it) or the game is gone. A token never holds a seat again once it lost it."""
        try:
            return auth.seat_of(self.read(game_id, parse_state=False).meta["seats"], token)
        except (GameNotFound, InvalidToken, NotYourGame, NotYourSeat):  # a player key's seat left
            return None

    @staticmethod
    def redact_entry(entry: LogEntry, seat: int | None, status: str) -> ShownEntry:
        """A log entry as ``seat`` may see it: its own moves, everyone's redacted events (a
        spectator's redaction while the game waits, as ``viewing_seat`` says)."""
        seat = viewing_seat(status, seat)
        over = status == "finished"
        shown: ShownEntry = {
            "version": entry["version"],
            "seat": entry["seat"],
            "events": redact_all(entry["events"], seat, reveal_all=over),
        }
        if "move" in entry and (over or entry["seat"] == seat):  # seat changes have no move
            shown["move"] = entry["move"]
        if "deadlines" in entry:  # games with a clock: each human seat to act, when its time runs out
            shown["deadlines"] = entry["deadlines"]
        return shown

    def record(self, game_id: str) -> GameRecord:
        stored, state = self._load(game_id)
        if stored.status != "finished":
            raise GameNotOver(say("service.refusal.game_not_over.record_reveals_every_hidden"))
        record = game_record(game_id, stored.meta, self.log(stored), game_result(stored.meta, state))
        record.update(rated_fields(self.repository, game_id, stored.meta, stored.status))  # type: ignore[typeddict-item]  # its keys are GameRecord's
        return record

    # ---- acting ------------------------------------------------------------------------
    def act(
        self,
        game_id: str,
        token: str | None,
        move: Any,
        version: int | None = None,
        *,
        idempotency_key: str | None = None,
        dry_run: bool = False,
        bot_seat: int | None = None,
        wake_bots: bool = True,
        leading_events: list[dict[str, Any]] | None = None,
        live: LiveRead | None = None,
    ) -> AppliedMove | CheckedMove:
        """Apply one move of the caller's seat and return the events and the new view. ``live``:
        the game as a read sent ahead found it (``read_ahead``), judged on first unless a state
        is kept; a second judgement reads again."""
        for _ in range(_UNVERSIONED_ATTEMPTS):
            recent = None
            # A dry run reads: "valid" must mean valid in the game as it is now.
            if version is not None and not dry_run:
                recent = self.recent.take(game_id, version)
            stored, state = recent if recent is not None else self._load(game_id, live)
            live = None
            if bot_seat is None:
                seat = auth.seat_of(stored.meta["seats"], token)
                if seat is None:
                    raise MissingToken(say("service.refusal.missing_token.moves_need_seat_token"))
                if stored.meta["seats"][seat]["kind"] != "human":
                    raise SeatResigned(say("service.refusal.seat_resigned.you_resigned_bot_plays"))
            else:
                seat = bot_seat
            idem = fingerprint = None
            if idempotency_key is not None and not dry_run:
                idem = hashlib.sha256(f"{seat}:{idempotency_key}".encode()).hexdigest()
                fingerprint = request_fingerprint(move, version)
                earlier = self.store.idempotent_reply(game_id, idem)
                if earlier is not None:
                    if earlier["fingerprint"] != fingerprint:
                        raise IdempotencyKeyReused(
                            say("service.refusal.idempotency_key_reused.idempotency_key_was_used")
                        )
                    # The reply kept with the key when its first request committed.
                    return cast(AppliedMove, {**earlier["reply"], "replayed": True})
            if stored.status != "active":
                if stored.status == "finished":  # by the rules, or at once by a resignation
                    raise GameOver("game_over", "The game is over; no more moves are accepted.")
                raise GameNotActive(
                    say("service.refusal.game_not_active.game_waiting_players_join")
                    if stored.status == "waiting"
                    else say("service.refusal.game_not_active.game_was_aborted")
                    if stored.status == "aborted"
                    else say("service.refusal.game_not_active.game_expired_was_left")
                )
            if version is not None and version != stored.version:
                raise StaleVersion(
                    say(
                        "service.refusal.stale_version.game_version_fetch_choose",
                        current=str(stored.version),
                        version=str(version),
                    ),
                    current_version=stored.version,
                )
            try:
                # The move as applied: the listed move the one sent stands for (engines
                # accept a rules-equivalent move, e.g. Property's 10 beside its 9).
                applied = state.resolve(seat, move)
                events = state.apply_listed(seat, applied)
                if leading_events:  # the service's own, first (a timeout's, service.play.clocks)
                    events = [*leading_events, *events]
            except RulesError:
                if recent is not None:
                    continue  # judged on a kept state: read the game and judge again, as without one
                raise
            if dry_run:
                checked: CheckedMove = {
                    "title": stored.meta["title"],
                    "valid": True,
                    "version": stored.version,
                    "seat": seat,
                    "move": applied,
                }
                return checked
            status = _status(state)
            acting = state.to_act()
            now = time.time()
            entry: LogEntry = {
                "version": stored.version + 1,
                "seat": seat,
                "move": applied,
                # The rules' events are not kept: the replay of the move makes them again
                # (service.store.logform); the service's own that came first are.
                "leading_events": list(leading_events or []),
                "at": now,
                # Who acts next, and the status: what the version announces to webhooks
                # (service.play.webhooks), read from the log without the state.
                "to_act": acting,
                "status": status,
            }
            # None for a game without a clock: nothing is written.
            deadlines = next_deadlines(stored.meta, status, acting, stored.deadlines, seat, now)
            if deadlines is not None:
                entry["deadlines"] = shown_deadlines(deadlines)
            result = game_result(stored.meta, state)
            reply: AppliedMove = {
                "title": stored.meta["title"],
                "version": stored.version + 1,
                "seat": seat,
                "move": applied,
                "status": status,
                "to_act": acting,
                "events": redact_all(events, seat, reveal_all=status == "finished"),
                "view": state.view(seat),
                "result": result,
            }
            if bot_seats_to_act(stored.meta, state):
                # Before the commit: a commit that makes a bot due is never without its mark.
                self.store.mark_bot_due(game_id)
            try:
                new_version = self.store.commit(
                    game_id,
                    stored.version,
                    state.to_dict(copy=False),  # serialized by the store at once
                    status,
                    entry,
                    idempotency=None
                    if idem is None
                    else (idem, {"fingerprint": fingerprint, "reply": reply}),
                    deadlines=deadlines,
                )
            except GameMovedOn as moved:
                if recent is not None:
                    continue  # the kept state was behind: read the game, whose version answers
                if version is not None:
                    raise StaleVersion(
                        say("service.refusal.stale_version.another_move_landed_first"),
                        current_version=moved.current,
                    ) from None
                continue
            except DuplicateRequest:
                continue
            except GameMissing:
                raise GameNotFound(game_id) from None
            metrics.move_applied(stored.meta["title"], "human" if bot_seat is None else "bot")
            if wake_bots:
                self._wake_bots(game_id, new_version, stored.meta, state)
            if self.recent.capacity > 0:
                reply = self._keep(game_id, new_version, status, stored.meta, state, reply, deadlines)
            return reply
        raise TooMuchContention(say("service.refusal.too_much_contention.game_changed_too_often"))

    def _keep(
        self,
        game_id: str,
        version: int,
        status: str,
        meta: GameMeta,
        state: State,
        reply: AppliedMove,
        deadlines: dict[str, float] | None = None,
    ) -> AppliedMove:
        """Keep the committed state for the game's next move; return the reply, detached from it.

        The reply is sent after ``act`` returns, while the kept state may already be taken and
        changed by the next move: the reply must share nothing with it (views and events may
        hold the state's own lists), so it is copied first.
        """
        try:
            # Written as JSON now (a fifth of a deep copy's cost), to be sent as written; the
            # seats to act stay a list (of ints), as the worker reads them.
            detached = {
                key: list(cast(list[int], value))
                if key == "to_act"
                else orjson.Fragment(orjson.dumps(value))
                if isinstance(value, dict | list)
                else value
                for key, value in reply.items()
            }
        except orjson.JSONEncodeError:  # not plain JSON values: keep nothing rather than share
            return reply
        kept = StoredGame(game_id, version, status, meta, {}, time.time(), deadlines=deadlines or {})
        self.recent.keep(kept, state)
        # The same reply, its views and events as JSON fragments orjson writes as they are.
        return cast(AppliedMove, detached)

    # ---- bots ----------------------------------------------------------------------------
    def _wake_bots(self, game_id: str, version: int, meta: GameMeta, state: State) -> None:
        if self.enqueue_bot_turn is not None and bot_seats_to_act(meta, state):
            self.enqueue_bot_turn(game_id, version, humans=has_humans(meta))

    def _heal_stalled_bots(self, stored: StoredGame, state: State) -> None:
        """A bot seat that has waited too long gets its job enqueued again (duplicates are ignored)."""
        if stored.status == "active" and time.time() - stored.updated > self.stall_seconds:
            self._wake_bots(stored.id, stored.version, stored.meta, state)
