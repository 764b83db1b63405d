"""What the use cases refuse: one exception per reason, each with a stable ``code`` and a sentence.

``service.play`` raises these, and lets the engines' own refusals through as they are
(``engines.core.RulesError``: an illegal move, not your turn, game over, an unknown title or
option). Neither knows HTTP: ``service.http.problems`` maps every class of both to a status in
one table each, and ``service.http.errors`` writes them out as problem+json. The mapping is
looked up only when an error is raised, so it costs the success path nothing.

The sentences are the ones clients read (``detail``): each a ``Message`` (``service.refusal.…``
ids in engines/locales/<language>.po) that the HTTP layer renders in the reader's language;
``extra`` holds the facts a client may act on (the game's current version), written beside them.
"""

from __future__ import annotations

from engines.core import Message, say


class PlayError(Exception):
    """A request the use cases refuse: a stable machine ``code`` and a message (``said``; its English
    is ``message``)."""

    code = "refused"
    # Seconds after which the same request may be admitted, when waiting helps (else None).
    retry_after: int | None = None

    def __init__(self, message: str | Message, **extra: object) -> None:
        super().__init__(str(message))
        self.said = message
        self.message = str(message)
        self.extra = extra


class GameNotFound(PlayError):
    """No game under that id: never created, or expired."""

    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(say("service.refusal.game_not_found", game_id=repr(game_id)))
        self.game_id = game_id


class ArchiveUnreachable(PlayError):
    """A game Redis has let go is asked for while PostgreSQL cannot be reached: it may well be in
    the archive, so not a 404 (a client would give the game up), a 503 to retry. Given a message
    instead of a game's id, the archive was wanted for something else (the ratings)."""

    code = "archive_unavailable"
    retry_after = 5

    def __init__(self, game_id: str | Message) -> None:
        if isinstance(game_id, Message):
            super().__init__(game_id)
        else:
            super().__init__(say("service.refusal.archive_unavailable", game_id=repr(game_id)))


class MissingToken(PlayError):
    """A request that acts as a seat (a move, a leave, a resignation, a rematch, a seat's
    webhook) sent without the seat token that says whose it is: one code on every route."""

    code = "missing_token"


class InvalidToken(PlayError):
    """A seat token that belongs to no seat of the game."""

    code = "invalid_token"


class StaleVersion(PlayError):
    """The move was chosen at a version the game has moved on from."""

    code = "stale_version"

    def __init__(self, message: str | Message, current_version: int | None) -> None:
        super().__init__(message, current_version=current_version)

    @property
    def current_version(self) -> int | None:
        """The game's version as the refusal found it (None when unknown)."""
        return self.extra["current_version"]  # type: ignore[return-value]


class TooMuchContention(PlayError):
    """A move sent without a version kept meeting other moves landing first."""

    code = "too_much_contention"


class IdempotencyKeyReused(PlayError):
    """An idempotency key first used for another request of the seat."""

    code = "idempotency_key_reused"


class GameNotOver(PlayError):
    """The record of a game still running (it would reveal every hidden card)."""

    code = "game_not_over"


class LevelNotForBot(PlayError):
    """A bot seat asking for a level another bot plays."""

    code = "level_not_for_bot"


class TooManyBotGames(PlayError):
    """The address already runs its quota of games of bots only."""

    code = "too_many_bot_games"
    retry_after = 30

    def __init__(self, cap: int) -> None:
        super().__init__(say("service.refusal.too_many_bot_games", cap=str(cap)))
        self.cap = cap


# ---- seats: joining, leaving, aborting (service.play.seats) --------------------------------
class GameNotActive(PlayError):
    """A move in a game that is not being played: waiting for players, or aborted."""

    code = "game_not_active"


class SeatTaken(PlayError):
    """A join asking for a seat that is no longer open."""

    code = "seat_taken"


class SeedWithOpenSeats(PlayError):
    """A seed asked for a game with open seats: the engines are public, so it would tell its
    creator the hands the joiners are dealt."""

    code = "seed_with_open_seats"

    def __init__(self, message: str | Message | None = None) -> None:
        super().__init__(message or say("service.refusal.seed_with_open_seats"))


class GameNotWaiting(PlayError):
    """A join (or a leave) once the game has started, or after it ended."""

    code = "game_not_waiting"


class NoSuchSeat(PlayError):
    """A join naming a seat number the game does not have."""

    code = "no_such_seat"


class AbortRefused(PlayError):
    """An abort once every human seat has moved, or after the game ended."""

    code = "abort_refused"


class BadCursor(PlayError):
    """A page cursor (the lobby's, the deliveries') that this service did not write."""

    code = "bad_cursor"


class SeatResigned(PlayError):
    """A move, or a seat change, from a seat whose player resigned (a bot plays it now)."""

    code = "seat_resigned"


class WebhookRefused(PlayError):
    """A webhook URL that may not receive notices (scheme, host, address), or too many of them."""

    code = "webhook_url_refused"


class WebhookEventsRefused(PlayError):
    """Webhook events that are no list of notice types, or that the webhook would never hear
    (a seat's own webhook hears of its turn, its deadline, its timeout and the end only)."""

    code = "webhook_events_refused"


class WebhookNotFound(PlayError):
    """No webhook registered for that credential (a seat's, or the creation's)."""

    code = "webhook_not_found"


class VersionNotFound(PlayError):
    """A version the game has not reached."""

    code = "version_not_found"

    def __init__(self, game_id: str, version: int, current_version: int) -> None:
        super().__init__(
            say(
                "service.refusal.version_not_found",
                game_id=repr(game_id),
                current=str(current_version),
                version=str(version),
            ),
            current_version=current_version,
        )


class SeatViewWhileRunning(PlayError):
    """A seat's view asked for by seat number (``?seat=``) before the game is over: until its
    record is public, a seat's hidden facts are its token holder's alone."""

    code = "seat_view_while_running"


# ---- players (service.play.players) -----------------------------------------------------------
class InvalidPlayerKey(InvalidToken):
    """A player key that names no player: never issued, rotated away, or its player deleted."""

    code = "invalid_player_key"


class PlayerKeyRequired(PlayError):
    """A request that acts as a player (its games, its keys, a seat bound to "me") without a
    player key in ``Authorization``."""

    code = "player_key_required"


class NotYourGame(PlayError):
    """A player key used on a game where its player holds no seat."""

    code = "player_not_seated"


class NotYourSeat(PlayError):
    """A player key naming (``?seat=``) a seat its player does not hold."""

    code = "seat_not_yours"


class SeatAmbiguous(PlayError):
    """A player key on a game where its player holds two seats or more, without ``?seat=``."""

    code = "seat_ambiguous"


class SeatInvited(PlayError):
    """A join of a seat the creator bound to another player (an invitation)."""

    code = "seat_invited"


class BadPlayerBinding(PlayError):
    """A seat bound to a player the way no seat can be: a bot's, an open seat for "me", a human
    seat for another player, or a player that does not exist."""

    code = "bad_player_binding"


class RatedSeatNeedsPlayer(PlayError):
    """A join, without a player key, of an open seat of a rated game: its result would rate nobody."""

    code = "rated_seat_needs_player"


class AlreadySeated(PlayError):
    """A join of a rated game's open seat by a player who already holds one of its seats."""

    code = "already_seated"


class UnratableGame(PlayError):
    """``"rated": true`` asked for a game that cannot be rated: a human or open seat not bound to a
    player (its result would rate nobody, or anybody), or no player at all (docs/ratings.md)."""

    code = "unratable_game"


class RatedPlayerNotFound(PlayError):
    """No player, nor bot level, under that id (GET /players/{id})."""

    code = "player_not_found"


class TitleNotFound(PlayError):
    """No title under that id (GET /leaderboards/{title})."""

    code = "title_not_found"


class SeekNotFound(PlayError):
    """No seek under that id of the caller's (another player's seek is not found either)."""

    code = "seek_not_found"


class TooManySeeks(PlayError):
    """A player at its cap of waiting seeks per title (service.play.seeks.SEEKS_PER_PLAYER)."""

    code = "too_many_seeks"


class SeekNotWaiting(PlayError):
    """A seek cancelled once matched, cancelled or expired."""

    code = "seek_not_waiting"


class TooManyLiveGames(PlayError):
    """A player at its cap of live games (``SKYLINE_LIVE_GAMES_PER_PLAYER``) binding one more."""

    code = "too_many_live_games"
    retry_after = 60

    def __init__(self, cap: int) -> None:
        super().__init__(say("service.refusal.too_many_live_games", cap=str(cap)), cap=cap)
