"""Ratings: settled in the transaction that archives a rated game, read back for players and boards.

A rated game (``"rated": true`` in its meta) that finished moves the ratings of its rated seats
once, by openskill's PlackettLuce with its default parameters applied to the game's ranks (the
archived seats' ranks: resigned seats already ranked below every seat that stayed, the earlier
resigner the lower; ties as ties). ``settle`` runs inside ``Archive``'s write of the game, after
the game's row was inserted: a second writer of the same game finds the row and settles nothing,
a writer killed before its commit settles nothing. docs/ratings.md says the rest.

Who a seat is, for its rating (``rated_participant``): the player it is bound to (a resigned seat
keeps it, whatever its stand-in bot then did), else a bot seat's level (``bot:<level>``), else
nobody (an open seat never taken, a human seat without a player: left out).

Order: the rows of a game's participants are locked in one sorted order (no deadlock between two
settlers), so two games with a participant in common settle one after the other, and the later
one's archive ``position`` (taken just before its commit) is the larger. ``rebuild`` replays the
games by position and so computes every rating from the same inputs in the same order: the same
floats to the last bit.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import psycopg
from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from .archive import Archive

# A rating is provisional while its sigma is above this (25/3 at first): about 13 two-seat or 20
# three-seat games against equals take it under (docs/ratings.md).
PROVISIONAL_SIGMA = 6.0
BOT_PREFIX = "bot:"

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


INITIAL = Rating(MODEL.mu, MODEL.sigma, 0)


@dataclass(frozen=True)
class RatingChange:
    seat: int
    player: str
    before: Rating
    after: Rating


def rated_participant(seat: Mapping[str, Any]) -> str | None:
    """The rated identity of one seat of a game's meta (see the module's docstring)."""
    player = seat.get("player")
    if isinstance(player, str) and player:
        return player
    if seat.get("kind") == "bot" and not seat.get("resigned") and isinstance(seat.get("level"), str):
        return f"{BOT_PREFIX}{seat['level']}"
    return None


def rated_seats(
    meta: Mapping[str, Any], status: str, ranks: Mapping[int, int | None]
) -> list[tuple[int, str, int]]:
    """(seat, participant, rank) of the seats a game rates; empty when the game rates nobody: not
    rated, not finished, a seat without a rank, all bots, or one participant only."""
    if not meta.get("rated") or status != "finished":
        return []
    seats: list[tuple[int, str, int]] = []
    for seat in meta.get("seats", ()):
        who = rated_participant(seat)
        rank = ranks.get(seat["seat"])
        if who is None:
            continue
        if rank is None:
            return []
        seats.append((seat["seat"], who, rank))
    if all(who.startswith(BOT_PREFIX) for _, who, _ in seats) or len({who for _, who, _ in seats}) < 2:
        return []
    return seats


def new_ratings(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """openskill's PlackettLuce applied to one game: each seat a team of one, its rank (ties equal)."""
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma, old.games + 1) for team, old in zip(rated, before, strict=True)]


def settle(
    connection: psycopg.Connection[Any],
    game_id: str,
    meta: bytes,
    status: str,
    ranks: Mapping[int, int | None],
    ended_at: datetime.datetime,
) -> list[RatingChange]:
    """Move the ratings of a rated game's seats, in the caller's transaction (the archive's)."""
    parsed = orjson.loads(meta)
    seats = rated_seats(parsed, status, ranks)
    if not seats:
        return []
    title = parsed["title"]
    participants = sorted({who for _, who, _ in seats})
    with connection.cursor() as cursor:
        # New rows and then the locks, both in one sorted order: two settlers never deadlock.
        cursor.executemany(
            "INSERT INTO ratings (player_id, title, mu, sigma, games, updated_at) "
            "VALUES (%s, %s, %s, %s, 0, %s) ON CONFLICT (player_id, title) DO NOTHING",
            [(who, title, INITIAL.mu, INITIAL.sigma, ended_at) for who in participants],
        )
    rows = connection.execute(
        "SELECT player_id, mu, sigma, games FROM ratings WHERE title = %s AND player_id = ANY(%s) "
        "ORDER BY player_id FOR UPDATE",
        (title, participants),
    ).fetchall()
    current = {who: Rating(mu, sigma, games) for who, mu, sigma, games in rows}
    # A participant in several seats of one game (a bot level twice) is rated as each seat, from
    # the same rating before; its last seat's rating is kept.
    before = [current[who] for _, who, _ in seats]
    after = new_ratings(before, [rank for _, _, rank in seats])
    changes = [
        RatingChange(seat, who, old, new)
        for (seat, who, _), old, new in zip(seats, before, after, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.executemany(
            "UPDATE ratings SET mu = %s, sigma = %s, games = games + 1, updated_at = %s "
            "WHERE player_id = %s AND title = %s",
            [(c.after.mu, c.after.sigma, ended_at, c.player, title) for c in _last_per_player(changes)],
        )
        cursor.executemany(
            "INSERT INTO rating_history (game_id, seat, player_id, title, mu_before, sigma_before, "
            "mu_after, sigma_after, ended_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    game_id,
                    c.seat,
                    c.player,
                    title,
                    c.before.mu,
                    c.before.sigma,
                    c.after.mu,
                    c.after.sigma,
                    ended_at,
                )
                for c in changes
            ],
        )
    return changes


def _last_per_player(changes: Iterable[RatingChange]) -> list[RatingChange]:
    last = {change.player: change for change in changes}
    return [last[who] for who in sorted(last)]


# ---- reading ------------------------------------------------------------------------------------
def player_ratings(connection: psycopg.Connection[Any], player_id: str) -> dict[str, Rating]:
    rows = connection.execute(
        "SELECT title, mu, sigma, games FROM ratings WHERE player_id = %s ORDER BY title", (player_id,)
    ).fetchall()
    return {title: Rating(mu, sigma, games) for title, mu, sigma, games in rows}


@dataclass(frozen=True)
class BoardEntry:
    player: str
    rating: Rating


def leaderboard(
    connection: psycopg.Connection[Any], title: str, after: tuple[float, str] | None, limit: int
) -> list[BoardEntry]:
    """A title's settled ratings, best conservative rating first (ties by id), provisional ones
    left out, after ``after`` (the (rating, player) last listed)."""
    params: list[object] = [title, PROVISIONAL_SIGMA]
    after_clause = ""
    if after is not None:
        after_clause = "AND ((mu - 3 * sigma) < %s OR ((mu - 3 * sigma) = %s AND player_id > %s))"
        params += [after[0], after[0], after[1]]
    rows = connection.execute(
        f"SELECT player_id, mu, sigma, games FROM ratings WHERE title = %s AND sigma <= %s {after_clause} "
        "ORDER BY (mu - 3 * sigma) DESC, player_id LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [BoardEntry(who, Rating(mu, sigma, games)) for who, mu, sigma, games in rows]


def game_changes(connection: psycopg.Connection[Any], game_id: str) -> list[RatingChange] | None:
    """A game's rating changes by seat; None if the game moved no rating."""
    rows = connection.execute(
        "SELECT seat, player_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_history "
        "WHERE game_id = %s ORDER BY seat",
        (game_id,),
    ).fetchall()
    if not rows:
        return None
    return [
        RatingChange(seat, who, Rating(mu0, sigma0), Rating(mu1, sigma1))
        for seat, who, mu0, sigma0, mu1, sigma1 in rows
    ]


@dataclass(frozen=True)
class HistoryEntry:
    """One game's move of one rating: which game (and seat), when it ended, before and after."""

    game_id: str
    seat: int
    ended_at: datetime.datetime
    before: Rating
    after: Rating
    position: int


def rating_history(
    connection: psycopg.Connection[Any], player_id: str, title: str, before_position: int | None, limit: int
) -> list[HistoryEntry]:
    """A player's (or bot level's) history in one title, the latest settlement first, before
    ``before_position`` (the position last listed). One entry per rated seat: a bot level that held
    two seats of one game has two."""
    page_clause = "" if before_position is None else "AND position < %s"
    params: list[object] = [player_id, title, *(() if before_position is None else (before_position,))]
    rows = connection.execute(
        "SELECT game_id, seat, ended_at, mu_before, sigma_before, mu_after, sigma_after, position "
        f"FROM rating_history WHERE player_id = %s AND title = %s {page_clause} "
        "ORDER BY position DESC LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [
        HistoryEntry(game_id, seat, ended_at, Rating(mu0, sigma0), Rating(mu1, sigma1), position)
        for game_id, seat, ended_at, mu0, sigma0, mu1, sigma1, position in rows
    ]


# ---- rebuilding ---------------------------------------------------------------------------------
def _settled_games(
    connection: psycopg.Connection[Any],
) -> Iterator[tuple[str, bytes, str, dict[int, int | None], datetime.datetime]]:
    """Every archived game that may be rated, in the order of archiving (positions), with ranks."""
    rows = connection.execute(
        "SELECT g.id, g.meta::text, g.status, g.ended_at, array_agg(s.seat ORDER BY s.seat), "
        "array_agg(s.rank ORDER BY s.seat) FROM ended_games g JOIN ended_seats s ON s.game_id = g.id "
        "WHERE g.status = 'finished' AND (g.meta::jsonb ->> 'rated') = 'true' "
        "GROUP BY g.id, g.ended_at ORDER BY g.position"
    ).fetchall()
    for game_id, meta, status, ended_at, seats, ranks in rows:
        yield game_id, meta.encode(), status, dict(zip(seats, ranks, strict=True)), ended_at


def rebuild(connection: psycopg.Connection[Any]) -> int:
    """Recompute every rating and the whole history from the archived games alone, in the caller's
    transaction (the tables are locked meanwhile: no settlement runs between). How many games."""
    connection.execute("LOCK TABLE ratings, rating_history IN EXCLUSIVE MODE")
    connection.execute("DELETE FROM rating_history")
    connection.execute("DELETE FROM ratings")
    count = 0
    for game_id, meta, status, ranks, ended_at in _settled_games(connection):
        if settle(connection, game_id, meta, status, ranks, ended_at):
            count += 1
    return count


def all_ratings(connection: psycopg.Connection[Any]) -> dict[tuple[str, str], tuple[float, float, int]]:
    """Every rating, exactly: what a rebuild is compared with."""
    rows = connection.execute("SELECT player_id, title, mu, sigma, games FROM ratings").fetchall()
    return {(who, title): (mu, sigma, games) for who, title, mu, sigma, games in rows}


class RatingReads:
    """The ratings' reads through an ``Archive``'s connections (failing fast as its reads do)."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    def player(self, player_id: str) -> dict[str, Rating]:
        with self.archive.connection() as connection:
            return player_ratings(connection, player_id)

    def board(self, title: str, after: tuple[float, str] | None, limit: int) -> list[BoardEntry]:
        with self.archive.connection() as connection:
            return leaderboard(connection, title, after, limit)

    def game(self, game_id: str) -> list[RatingChange] | None:
        with self.archive.connection() as connection:
            return game_changes(connection, game_id)

    def history(
        self, player_id: str, title: str, before_position: int | None, limit: int
    ) -> list[HistoryEntry]:
        with self.archive.connection() as connection:
            return rating_history(connection, player_id, title, before_position, limit)
