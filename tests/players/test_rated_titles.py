"""A rated game of every title played to its end over HTTP by player keys, in-process: the app on a
Redis of the module's own, bot turns played by the worker's own job function, the game archived by
the archiver into a real PostgreSQL. Every rated participant's new rating is openskill's
PlackettLuce applied to the game's ranks, computed here with openskill itself; a resignation with a
stand-in ranks last, a tie rates as a tie, and the bot levels' ratings move too.
"""

# ruff: noqa: F811  (the fixtures imported from test_rated are arguments of the tests)
from __future__ import annotations

import random
import secrets
from types import SimpleNamespace
from typing import Any

import pytest
from openskill.models import PlackettLuce

from engines import registry
from service.play import games as games_module
from service.store.keys import ARCHIVE_DUE, index_keys
from skyline.compose import BOT_WORKER, build_services
from worker.jobs import play_bot_turn

from .conftest import bearer
from .test_rated import archive_all, database_url, postgres, rated_client, redis_server  # noqa: F401

MODEL = PlackettLuce()
MOVES_AT_MOST = 6000


@pytest.fixture
def bots(settings, redis_client):
    """The bot worker's services, as `skyline worker` composes them: its job plays the bot seats."""
    return build_services(settings, BOT_WORKER, redis_client=redis_client)


def new_player(client) -> dict[str, Any]:
    reply = client.post("/players")
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def rated_game(
    client, title: str, creator: dict[str, Any], invited: list[dict[str, Any]], bots: int = 0
) -> dict[str, Any]:
    """The creator's rated game (seat 0), each invited player's open seat after it, then ``bots``
    seats of the random level; every invitation joined. Returns the game and a token per seat."""
    seats = [
        {"kind": "human", "player": "me"},
        *({"kind": "open", "player": player["id"]} for player in invited),
        *({"kind": "bot", "level": "random"} for _ in range(bots)),
    ]
    body = {"title": title, "rated": True, "seats": seats, "stand_in": "random"}
    created = client.post("/games", json=body, headers=bearer(creator["key"]))
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    tokens = {0: game["human_seats"][0]["token"]}
    for seat, player in enumerate(invited, start=1):
        joined = client.post(f"/games/{game['id']}/join", json={"seat": seat}, headers=bearer(player["key"]))
        assert joined.status_code in (200, 201), joined.get_json()
        tokens[seat] = joined.get_json()["token"]
    return {"id": game["id"], "tokens": tokens}


def play_to_the_end(
    client, bots, game: dict, rng: random.Random, resign: tuple[int, int] | None = None
) -> dict[str, Any]:
    """Play the game out: each human seat to act picks one of its listed moves with ``rng``, the bot
    seats are played by the worker's job. ``resign``: (seat, after that many moves) resigns it."""
    game_id, tokens = game["id"], dict(game["tokens"])
    for moves in range(MOVES_AT_MOST):
        view = client.get(f"/games/{game_id}").get_json()
        if view["status"] != "active":
            return view
        if resign is not None and moves == resign[1]:
            reply = client.post(f"/games/{game_id}/resign", headers=bearer(tokens.pop(resign[0])))
            assert reply.status_code == 200, reply.get_json()
            continue
        humans = [seat for seat in view["to_act"] if seat in tokens]
        if not humans:
            outcome = play_bot_turn(game_id, view["version"], services=bots, waited=0.0)
            assert outcome["outcome"] in ("played", "stale"), outcome
            continue
        headers = bearer(tokens[humans[0]])
        listing = client.get(f"/games/{game_id}/moves", headers=headers).get_json()
        move = rng.choice(listing["moves"])["move"]
        reply = client.post(
            f"/games/{game_id}/actions", json={"move": move, "version": listing["version"]}, headers=headers
        )
        assert reply.status_code == 200, reply.get_json()
    raise AssertionError(f"the game did not end in {MOVES_AT_MOST} moves")


def expected_ratings(participants: list[str], ranks: list[int], before: dict[str, Any]) -> dict[str, Any]:
    """openskill's own new ratings for one game: each seat a team of one, from ``before``."""
    teams = [[before.get(who) or MODEL.rating()] for who in participants]
    rated = MODEL.rate(teams, ranks=ranks)
    return {who: team[0] for who, team in zip(participants, rated, strict=True)}


def assert_rated_as(client, title: str, expected: dict[str, Any], games: dict[str, int]) -> None:
    for who, rating in expected.items():
        shown = client.get(f"/players/{who}").get_json()["ratings"][title]
        assert shown["mu"] == pytest.approx(rating.mu, abs=1e-9), who
        assert shown["sigma"] == pytest.approx(rating.sigma, abs=1e-9), who
        assert shown["rating"] == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-9), who
        assert shown["games"] == games[who], who


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_a_rated_game_of_every_title_moves_its_players_and_its_bot_level(
    rated_client, redis_client, database_url, bots, title: str
) -> None:
    """Ada and Bea (invited) against a bot of the random level, three seats, played to the end."""
    client = rated_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada, bea = new_player(client), new_player(client)
    game = rated_game(client, title, ada, [bea], bots=1)
    ended = play_to_the_end(client, bots, game, random.Random(title))
    assert ended["status"] == "finished" and ended["rated"] is True
    ranks = ended["result"]["ranks"]
    assert archive_all(redis_client, database_url) == 1
    participants = [ada["id"], bea["id"], "bot:random"]
    expected = expected_ratings(participants, ranks, {})
    assert_rated_as(client, title, expected, dict.fromkeys(participants, 1))
    shown = client.get(f"/games/{game['id']}").get_json()["ratings"]
    assert [(change["seat"], change["player"]) for change in shown] == list(enumerate(participants))


# A game of Fresh Fish for three that ends in a tie: its setup's seed (the server draws it: the
# test fixes the draw) and the seed of the moves the players pick (as the engine's own list them).
TIED_FRESH_FISH = 1


def test_a_tie_rates_as_a_tie_and_a_resignation_with_a_stand_in_ranks_last(
    rated_client, redis_client, database_url, bots, monkeypatch
) -> None:
    """Fresh Fish: Ada, Bea and Cy tie two of them; then Ada, Bea and a bot, Bea resigning early
    (her stand-in plays her seat to the end): each game rated from where the one before left them."""
    client = rated_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada, bea, cy = new_player(client), new_player(client), new_player(client)
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(randbits=lambda bits: TIED_FRESH_FISH))
    tied = rated_game(client, "fresh-fish", ada, [bea, cy])
    monkeypatch.setattr(games_module, "secrets", secrets)
    ended = play_to_the_end(client, bots, tied, random.Random(TIED_FRESH_FISH))
    ranks = ended["result"]["ranks"]
    assert len(set(ranks)) < len(ranks), f"no tie: {ranks}"
    assert archive_all(redis_client, database_url) == 1
    people = [ada["id"], bea["id"], cy["id"]]
    first = expected_ratings(people, ranks, {})
    assert_rated_as(client, "fresh-fish", first, dict.fromkeys(people, 1))
    tied_pair = [who for who, rank in zip(people, ranks, strict=True) if ranks.count(rank) > 1]
    assert first[tied_pair[0]].mu == pytest.approx(first[tied_pair[1]].mu, abs=1e-12)

    resigning = rated_game(client, "fresh-fish", ada, [bea], bots=1)
    ended = play_to_the_end(client, bots, resigning, random.Random(2), resign=(1, 6))
    result = ended["result"]
    assert result["resigned"] == [False, True, False] and result["ranks"][1] == 3, result
    seats = client.get(f"/games/{resigning['id']}").get_json()["seats"]
    assert seats[1]["kind"] == "bot"  # the stand-in played Bea's seat to the end
    assert archive_all(redis_client, database_url) == 1
    participants = [ada["id"], bea["id"], "bot:random"]
    second = expected_ratings(participants, result["ranks"], first)
    assert_rated_as(client, "fresh-fish", second, {ada["id"]: 2, bea["id"]: 2, "bot:random": 1})
    assert_rated_as(client, "fresh-fish", {cy["id"]: first[cy["id"]]}, {cy["id"]: 1})
    # The stand-in's level is not rated: Bea's seat is Bea's.
    assert client.get("/players/bot:random").get_json()["ratings"]["fresh-fish"]["games"] == 1
    # Her history says which game moved her rating, and from what to what.
    shown = client.get(f"/players/{bea['id']}/ratings/fresh-fish/history").get_json()["entries"]
    assert [(entry["game"], entry["seat"]) for entry in shown] == [(resigning["id"], 1), (tied["id"], 1)]
    for entry, old, new in ((shown[0], first, second), (shown[1], {}, first)):
        was = old.get(bea["id"]) or MODEL.rating()
        assert (entry["before"]["mu"], entry["before"]["sigma"]) == pytest.approx(
            (was.mu, was.sigma), abs=1e-9
        )
        now = new[bea["id"]]
        assert (entry["after"]["mu"], entry["after"]["sigma"]) == pytest.approx((now.mu, now.sigma), abs=1e-9)
