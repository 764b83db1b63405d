"""Ratings settled in the archive's transaction: openskill's own numbers, once, rebuilt the same."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from openskill.models import PlackettLuce

from harness.rated_games import bot, human, rated_game
from service.archive.archive import Archive
from service.archive.ratings import PROVISIONAL_SIGMA, RatingReads, all_ratings, rebuild
from service.play.results import rerank
from tests.archive.test_export import skyline


def ratings_of(url: str) -> dict[tuple[str, str], tuple[float, float, int]]:
    with psycopg.connect(url) as connection:
        return all_ratings(connection)


def history(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as connection:
        return connection.execute(
            "SELECT game_id, seat, player_id, mu_before, sigma_before, mu_after, sigma_after "
            "FROM rating_history ORDER BY position"
        ).fetchall()


def test_ratings_are_openskills_own_with_a_tie_and_a_resignation_with_a_stand_in(database_url: str) -> None:
    model = PlackettLuce()
    # Game 1: Ada, Bea and a medium bot; Bea resigned (her stand-in then won on the board), Ada and
    # the bot tied on the board: the service's ranks put Bea last whatever her stand-in did.
    seats = [
        human(0, "p_ada"),
        {**bot(1, "greedy"), "resigned": 1, "player": "p_bea", "token_hash": "y"},
        bot(2, "medium"),
    ]
    meta = {"seats": seats}
    ranks = rerank({"ranks": [2, 1, 2], "scores": [], "winners": [1], "breakdown": []}, meta)["ranks"]  # type: ignore[typeddict-item]
    assert ranks == [1, 3, 1]
    with Archive(database_url) as archive:
        assert archive.write_game(rated_game("g1", seats, ranks))
        # Game 2: Ada against Bea alone, Bea first.
        assert archive.write_game(rated_game("g2", [human(0, "p_ada"), human(1, "p_bea")], [2, 1], minutes=1))
    ada, bea, medium = model.rating(), model.rating(), model.rating()
    [[ada], [bea], [medium]] = model.rate([[ada], [bea], [medium]], ranks=[1, 3, 1])
    [[ada], [bea]] = model.rate([[ada], [bea]], ranks=[2, 1])
    got = ratings_of(database_url)
    for who, expected, games in (("p_ada", ada, 2), ("p_bea", bea, 2), ("bot:medium", medium, 1)):
        mu, sigma, counted = got[(who, "property")]
        assert mu == pytest.approx(expected.mu, abs=1e-9) and sigma == pytest.approx(expected.sigma, abs=1e-9)
        assert counted == games
    # The greedy level played no seat of its own (the seat was Bea's, played by her stand-in).
    assert ("bot:greedy", "property") not in got
    rows = history(database_url)
    assert [(game, seat, who) for game, seat, who, *_ in rows] == [
        ("g1", 0, "p_ada"), ("g1", 1, "p_bea"), ("g1", 2, "bot:medium"),
        ("g2", 0, "p_ada"), ("g2", 1, "p_bea"),
    ]  # fmt: skip
    assert rows[3][3:5] == rows[0][5:7]  # game 2 started from where game 1 left Ada


def test_unrated_aborted_and_all_bot_games_move_nothing(database_url: str) -> None:
    with Archive(database_url) as archive:
        archive.write_game(rated_game("u1", [human(0, "p_ada"), human(1, "p_bea")], [1, 2], rated=False))
        archive.write_game(rated_game("u2", [human(0, "p_ada"), human(1, "p_bea")], [1, 2], status="aborted"))
        archive.write_game(rated_game("u3", [bot(0, "easy"), bot(1, "hard")], [1, 2]))
    assert ratings_of(database_url) == {} and history(database_url) == []


def test_a_game_written_twice_at_once_settles_once_and_a_rebuild_gives_the_same_bits(
    database_url: str,
) -> None:
    games = [
        rated_game(
            f"g{n}",
            [human(0, f"p_{n % 3}"), human(1, f"p_{(n + 1) % 3}"), bot(2, "easy")],
            [1 + n % 2, 2 - n % 2, 3],
            minutes=n,
        )
        for n in range(12)
    ]
    written: list[bool] = []

    def write_all(archive: Archive) -> None:
        for game in games:
            written.append(archive.write_game(game))

    with Archive(database_url) as one, Archive(database_url) as two:
        writers = [threading.Thread(target=write_all, args=(a,)) for a in (one, two)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
    assert written.count(True) == 12
    rows = history(database_url)
    assert len(rows) == 12 * 3 and len({(game, seat) for game, seat, *_ in rows}) == 36
    settled = ratings_of(database_url)
    assert settled[("p_0", "property")][2] == 8 and settled[("bot:easy", "property")][2] == 12
    with psycopg.connect(database_url) as connection:
        assert rebuild(connection) == 12
    assert ratings_of(database_url) == settled  # float equality: to the last bit
    assert history(database_url)[0][3:] == rows[0][3:]


def test_the_leaderboard_leaves_provisional_ratings_out_and_pages(database_url: str) -> None:
    seats = [human(0, "p_a"), human(1, "p_b"), human(2, "p_c")]
    with Archive(database_url) as archive:
        for n in range(40):
            archive.write_game(rated_game(f"g{n}", seats, [1, 2, 3] if n % 5 else [2, 1, 3], minutes=n))
        archive.write_game(rated_game("new", [human(0, "p_new"), human(1, "p_a")], [1, 2], minutes=30))
        reads = RatingReads(archive)
        board = reads.board("property", None, 10)
        assert [entry.player for entry in board] == ["p_a", "p_b", "p_c"]
        assert all(entry.rating.sigma <= PROVISIONAL_SIGMA for entry in board)
        first = reads.board("property", None, 1)
        rest = reads.board("property", (first[0].rating.conservative, first[0].player), 10)
        assert [e.player for e in first + rest] == ["p_a", "p_b", "p_c"]
        assert reads.player("p_new")["property"].provisional
        assert reads.game("new") is not None and reads.game("nothing") is None


def test_skyline_ratings_rebuild_restores_every_rating_from_the_games_alone(database_url: str) -> None:
    with Archive(database_url) as archive:
        for n in range(6):
            seats = [human(0, "p_a"), human(1, "p_b"), bot(2, "hard")]
            archive.write_game(rated_game(f"g{n}", seats, [1, 2, 2] if n % 2 else [3, 1, 2], minutes=n))
    settled, rows = ratings_of(database_url), history(database_url)
    with psycopg.connect(database_url) as connection:
        connection.execute("UPDATE ratings SET mu = 0, games = 99")
        connection.execute("DELETE FROM rating_history WHERE game_id = 'g3'")
    done = skyline("ratings", "rebuild", url=database_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == "6 rated games replayed; 3 ratings; 3 differed from before\n"
    assert ratings_of(database_url) == settled
    assert [row[:7] for row in history(database_url)] == [row[:7] for row in rows]
    again = skyline("ratings", "rebuild", url=database_url)
    assert again.stdout.decode().endswith("; 0 differed from before\n")
