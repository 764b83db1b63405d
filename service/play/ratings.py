"""The ratings as the API shows them: a player's (or a bot level's), a title's leaderboard, and the
changes a rated game made (docs/ratings.md). Settlement itself is the archive's
(service.archive.ratings.settle, in the transaction that archives the game).

Everything here is public and names nothing but ids, titles and numbers: no key, no token, no
seat's hidden cards. A game's own changes: service.play.rated_games.
"""

from __future__ import annotations

import re
from typing import Any

from engines import registry
from engines.bots import LEVELS
from engines.core import say

from ..archive.archive import ArchiveUnavailable
from ..archive.ratings import BOT_PREFIX, HistoryEntry, Rating, RatingReads
from ..store.players import PlayerStore
from .cursors import read_cursor, write_cursor
from .errors import ArchiveUnreachable, BadCursor, RatedPlayerNotFound, TitleNotFound
from .games import PLAYER_ID_PATTERN
from .repository import GameRepository
from .times import rfc3339

LEADERBOARD_PAGE = 50
LEADERBOARD_PAGE_MAX = 200
HISTORY_PAGE = 50
HISTORY_PAGE_MAX = 200
# A rated player's id: a player's, or a bot level's (``bot:<level>``); never ``me``.
RATED_ID_PATTERN = rf"(?:{PLAYER_ID_PATTERN}|{BOT_PREFIX}(?:{'|'.join(map(re.escape, LEVELS))}))"
_RATED_ID = re.compile(RATED_ID_PATTERN)


def shown_change(entry: HistoryEntry) -> dict[str, Any]:
    """One line of a rating's history: the game that moved it, and by how much."""
    return {
        "game": entry.game_id,
        "seat": entry.seat,
        "ended": rfc3339(entry.ended_at.timestamp()),
        "before": _point(entry.before),
        "after": _point(entry.after),
        "change": entry.after.conservative - entry.before.conservative,
    }


def _point(rating: Rating) -> dict[str, float]:
    return {"rating": rating.conservative, "mu": rating.mu, "sigma": rating.sigma}


def shown_rating(rating: Rating) -> dict[str, Any]:
    return {
        "rating": rating.conservative,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "provisional": rating.provisional,
    }


class Ratings:
    def __init__(self, repository: GameRepository, player_store: PlayerStore) -> None:
        self.repository = repository
        self.player_store = player_store

    def _reads(self) -> RatingReads | None:
        """None on a server without an archive: no rated game ever settles there, so it has no
        rating to show (every read is empty)."""
        if not self.repository.has_archive:
            return None
        return RatingReads(self.repository.archive)

    def _known(self, player_id: str) -> None:
        """Refuse an id no player nor bot level could have (the route's pattern says the same)."""
        if _RATED_ID.fullmatch(player_id) is None:
            raise RatedPlayerNotFound(
                say("service.refusal.player_not_found.player_bot_level", player_id=repr(player_id))
            )

    def player(self, player_id: str) -> dict[str, Any]:
        """``{"id", "ratings": {title: ...}}``: public, nothing else of the player."""
        self._known(player_id)
        try:
            reads = self._reads()
            ratings = {} if reads is None else reads.player(player_id)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(
                say("service.refusal.archive_unavailable.ratings_archive_cannot_reached")
            ) from None
        if not ratings and not player_id.startswith(BOT_PREFIX) and not self.player_store.exists(player_id):
            raise RatedPlayerNotFound(
                say("service.refusal.player_not_found.player", player_id=repr(player_id))
            )
        return {"id": player_id, "ratings": {title: shown_rating(r) for title, r in ratings.items()}}

    def leaderboard(self, title: str, cursor: str | None, limit: int) -> dict[str, Any]:
        if title not in registry.GAMES:
            raise TitleNotFound(
                say("service.refusal.title_not_found.title_see_get_catalog", title=repr(title))
            )
        after = None if cursor is None else read_cursor(cursor, "leaderboard")
        try:
            reads = self._reads()
            entries = [] if reads is None else reads.board(title, after, limit + 1)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(
                say("service.refusal.archive_unavailable.ratings_archive_cannot_reached")
            ) from None
        page, more = entries[:limit], len(entries) > limit
        return {
            "title": title,
            "entries": [{"player": entry.player, **shown_rating(entry.rating)} for entry in page],
            "next": write_cursor(page[-1].rating.conservative, page[-1].player) if more else None,
        }

    def history(self, player_id: str, title: str, cursor: str | None, limit: int) -> dict[str, Any]:
        """``{"id", "title", "entries", "next"}``: which rated games moved the player's rating in
        ``title``, and by how much, the latest first, by pages."""
        self._known(player_id)
        if title not in registry.GAMES:
            raise TitleNotFound(
                say("service.refusal.title_not_found.title_see_get_catalog", title=repr(title))
            )
        before = None if cursor is None else _position(read_cursor(cursor, "history"))
        try:
            reads = self._reads()
            entries = [] if reads is None else reads.history(player_id, title, before, limit + 1)
        except ArchiveUnavailable:
            raise ArchiveUnreachable(
                say("service.refusal.archive_unavailable.ratings_archive_cannot_reached")
            ) from None
        if (
            not entries
            and cursor is None
            and not player_id.startswith(BOT_PREFIX)
            and not self.player_store.exists(player_id)
        ):
            raise RatedPlayerNotFound(
                say("service.refusal.player_not_found.player", player_id=repr(player_id))
            )
        page, more = entries[:limit], len(entries) > limit
        return {
            "id": player_id,
            "title": title,
            "entries": [shown_change(entry) for entry in page],
            "next": write_cursor(page[-1].position, page[-1].game_id) if more else None,
        }


def _position(read: tuple[float, str]) -> int:
    """A history's cursor holds the position of the last entry listed: a whole number."""
    number, _ = read
    if not number.is_integer() or not 0 < number < 2**63:
        raise BadCursor(
            say("service.refusal.bad_cursor.cursor_was_written_start", listing=say("service.listing.history"))
        )
    return int(number)
