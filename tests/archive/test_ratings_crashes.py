"""Settlement exactly once on real processes: the settling writer killed -9 mid-settlement, and
PostgreSQL killed -9 under one and started again. Each time the game's ratings move once.

A writer is held mid-settlement without touching its code: the test locks ``ratings``, which the
settlement reaches after the game's rows (game, log, snapshots, seats) are inserted.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from openskill.models import PlackettLuce

from service.archive.ratings import all_ratings, rebuild
from service.archive.schema import migrate
from service.run.postgres import EmbeddedPostgres

from .conftest import ROOT, backend_state, new_database, wait_for


def start_rated_writer(url: str, game_id: str, application: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.archive.rated_writer", url, game_id, application],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def held_on_the_ratings(url: str, application: str) -> bool:
    state = backend_state(url, application)
    return state is not None and state[1] == "Lock" and "ratings" in state[2]


def lock_the_ratings(url: str) -> psycopg.Connection[tuple[object, ...]]:
    holder = psycopg.connect(url)
    holder.execute("LOCK TABLE ratings IN SHARE MODE")  # held until rollback
    return holder


def settled(url: str) -> tuple[int, int, dict[tuple[str, str], tuple[float, float, int]]]:
    """(archived games, history rows, ratings)."""
    with psycopg.connect(url) as connection:
        games = connection.execute("SELECT count(*) FROM ended_games").fetchone()
        rows = connection.execute("SELECT count(*) FROM rating_history").fetchone()
        assert games is not None and rows is not None
        return games[0], rows[0], all_ratings(connection)


def expected_after(games: int) -> dict[tuple[str, str], tuple[float, float, int]]:
    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()], [model.rating()]]
    for _ in range(games):
        teams = model.rate(teams, ranks=[2, 1, 3])
    return {
        (who, "property"): (team[0].mu, team[0].sigma, games)
        for who, team in zip(("p_ada", "p_bea", "bot:easy"), teams, strict=True)
    }


def run_to_the_end(url: str, game_id: str, application: str) -> str:
    return start_rated_writer(url, game_id, application).communicate(timeout=120)[0].strip()


@pytest.fixture
def durable(data_folder: Path) -> Iterator[EmbeddedPostgres]:
    server = EmbeddedPostgres(data_folder).start()
    yield server
    server.stop()


def test_a_settler_killed_mid_settlement_settles_nothing_and_a_rerun_settles_once(
    postgres: EmbeddedPostgres,
) -> None:
    url = new_database(postgres)
    migrate(url)
    holder = lock_the_ratings(url)
    writer = start_rated_writer(url, "killed", "settler-killed")
    try:
        wait_for(lambda: held_on_the_ratings(url, "settler-killed"), what="the ratings", process=writer)
        writer.send_signal(signal.SIGKILL)
        writer.communicate()
    finally:
        holder.rollback()
        holder.close()
        if writer.poll() is None:
            writer.kill()
            writer.communicate()
    wait_for(lambda: backend_state(url, "settler-killed") is None, what="the killed settler's session to end")
    assert settled(url) == (0, 0, {})
    # Two settlers at once, then a third: one writes, the others find it written.
    both = [start_rated_writer(url, "killed", f"settler-{n}") for n in range(2)]
    assert sorted(p.communicate(timeout=120)[0].strip() for p in both) == ["already", "wrote"]
    assert run_to_the_end(url, "killed", "settler-again") == "already"
    assert settled(url) == (1, 3, expected_after(1))


def test_postgresql_killed_under_a_settlement_then_started_settles_each_game_once(
    durable: EmbeddedPostgres,
) -> None:
    url = durable.url
    migrate(url)
    assert run_to_the_end(url, "before", "settler-before") == "wrote"
    holder = lock_the_ratings(url)
    writer = start_rated_writer(url, "under-the-crash", "settler-crash")
    try:
        wait_for(lambda: held_on_the_ratings(url, "settler-crash"), what="the ratings", process=writer)
        durable.halt(kill=True)  # kill -9 of the postmaster; its backends go with it
        out, _ = writer.communicate(timeout=60)
    finally:
        holder.close()
        if writer.poll() is None:
            writer.kill()
            writer.communicate()
    assert writer.returncode == 3 and "unavailable: " in out, out
    durable.start()
    assert settled(url) == (1, 3, expected_after(1))
    assert run_to_the_end(url, "under-the-crash", "settler-after") == "wrote"
    assert run_to_the_end(url, "under-the-crash", "settler-after-again") == "already"
    games, rows, ratings = settled(url)
    assert (games, rows) == (2, 6)
    for key, (mu, sigma, count) in expected_after(2).items():
        assert ratings[key][0] == pytest.approx(mu, abs=1e-9) and ratings[key][1:] == pytest.approx(
            (sigma, count)
        )
    with psycopg.connect(url) as connection:
        assert rebuild(connection) == 2
        assert all_ratings(connection) == ratings
