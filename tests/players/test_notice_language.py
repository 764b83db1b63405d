"""Issue 64: a webhook notice's ``text`` is written in its reader's language: the player's stored
one (``PUT /players/me``), else the language of the request that registered the endpoint (a seat's
webhook, a game's at its creation, a player's). In-process: the deliveries are read as the fan-out
wrote them."""

from __future__ import annotations

import orjson
import pytest

from engines.core.messages import catalogue, languages, render, say
from service.http.services import services
from service.play.webhooks import PLAYER_NOTICES

from .conftest import bearer
from .test_webhook import URL, app, fan_out  # noqa: F401  (app: the fixture, webhooks on loopback)

GAME = {"title": "property", "seed": 1, "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
ENGLISH_WORDS = ("game", "Seat", "play", "turn", "over", "begun")


def texts(app, game_id: str, endpoint: str) -> dict[str, str]:  # noqa: F811  (app: the fixture)
    """Each delivery's type -> its text, for one endpoint of one game."""
    found = {}
    for record in services(app).webhooks.store.deliveries(game_id):
        if record["endpoint"] == endpoint:
            payload = orjson.loads(record["body"])
            found[payload["type"]] = payload["data"]["text"]
    return found


def test_every_notice_type_has_a_sentence_in_every_language():
    for language in languages():
        for kind in PLAYER_NOTICES:
            assert f"notice.{kind}" in catalogue(language).sentences, (language, kind)
            text = render(say(f"notice.{kind}", title="Property", seat=1), language)
            assert "{" not in text and "notice." not in text and "Property" in text
    assert render(say("notice.game.turn", title="Property", seat=1), "fr") != render(
        say("notice.game.turn", title="Property", seat=1), "en"
    )


def test_a_players_stored_language_writes_its_notices(app, client, new_player):  # noqa: F811
    ada = new_player()
    assert client.get("/players/me", headers=bearer(ada["key"])).get_json() == {
        "id": ada["id"],
        "language": None,
    }
    # Registered from an English request, before any language was set: English.
    client.put("/players/me/webhook", json={"url": URL}, headers=bearer(ada["key"]))
    first = client.post("/games", json=GAME, headers=bearer(ada["key"])).get_json()
    fan_out(app, first["id"])
    english = texts(app, first["id"], "P" + ada["id"])
    assert english["game.turn"] == "Seat 0 is to play in the game of Property."
    # The player now reads French: its next notices, in this game and in a new one, are French.
    put = client.put("/players/me", json={"language": "fr"}, headers=bearer(ada["key"]))
    assert put.status_code == 200 and put.get_json() == {"id": ada["id"], "language": "fr"}
    assert client.get("/players/me", headers=bearer(ada["key"])).get_json()["language"] == "fr"
    other = first["human_seats"][1]["token"]
    assert client.post(f"/games/{first['id']}/resign", headers=bearer(other)).status_code == 200
    fan_out(app, first["id"])
    french = texts(app, first["id"], "P" + ada["id"])
    assert french["game.finished"] == "La partie de Property est terminée."
    assert english["game.turn"] == french["game.turn"]  # what was sent before stays as it was sent
    second = client.post("/games", json=GAME, headers=bearer(ada["key"])).get_json()
    fan_out(app, second["id"])
    assert (
        texts(app, second["id"], "P" + ada["id"])["game.turn"]
        == "Au siège 0 de jouer dans la partie de Property."
    )
    # A webhook registered again from an English request keeps the player's language.
    client.put(
        "/players/me/webhook", json={"url": URL}, headers={**bearer(ada["key"]), "Accept-Language": "en"}
    )
    third = client.post("/games", json=GAME, headers=bearer(ada["key"])).get_json()
    fan_out(app, third["id"])
    assert texts(app, third["id"], "P" + ada["id"])["game.started"] == "La partie de Property a commencé."


def test_without_a_stored_language_the_registering_requests_language_is_used(app, client, new_player):  # noqa: F811
    ada = new_player()
    client.put(
        "/players/me/webhook", json={"url": URL}, headers={**bearer(ada["key"]), "Accept-Language": "fr-CA"}
    )
    game = client.post(
        "/games?lang=fr",
        json={**GAME, "webhooks": [{"url": URL}]},
        headers=bearer(ada["key"]),
    ).get_json()
    seat_token = game["human_seats"][1]["token"]
    seat_hook = client.put(
        f"/games/{game['id']}/webhook",
        json={"url": URL},
        headers={**bearer(seat_token), "Accept-Language": "en"},
    )
    assert seat_hook.status_code == 200, seat_hook.get_json()
    move = client.get(
        f"/games/{game['id']}/moves", headers=bearer(game["human_seats"][0]["token"])
    ).get_json()
    played = client.post(
        f"/games/{game['id']}/actions",
        json={"move": move["moves"][0]["move"], "version": move["version"]},
        headers=bearer(game["human_seats"][0]["token"]),
    )
    assert played.status_code == 200, played.get_json()
    fan_out(app, game["id"])
    player, created, seat = (texts(app, game["id"], e) for e in ("P" + ada["id"], "g0", "s1"))
    assert player["game.started"] == created["game.started"] == "La partie de Property a commencé."
    assert seat["game.turn"] == "Seat 1 is to play in the game of Property."
    for text in (*player.values(), *created.values()):
        assert not any(word in text.split() for word in ENGLISH_WORDS), text


@pytest.mark.parametrize(
    "body", [{}, {"language": "de"}, {"language": 3}, {"language": None}, {"language": "fr", "x": 1}, []]
)
def test_a_bad_language_is_refused_and_nothing_changes(client, new_player, body):
    ada = new_player()
    client.put("/players/me", json={"language": "fr"}, headers=bearer(ada["key"]))
    refused = client.put("/players/me", json=body, headers=bearer(ada["key"]))
    assert refused.status_code == 422, refused.get_json()
    assert client.get("/players/me", headers=bearer(ada["key"])).get_json()["language"] == "fr"


def test_settings_need_the_players_key(client, new_player):
    ada = new_player()
    game = client.post("/games", json=GAME, headers=bearer(ada["key"])).get_json()
    seat_token = game["human_seats"][1]["token"]
    for headers in ({}, bearer(seat_token), bearer("sk_player_nothing")):
        assert client.get("/players/me", headers=headers).status_code == 401
        assert client.put("/players/me", json={"language": "fr"}, headers=headers).status_code == 401
    client.delete("/players/me", headers=bearer(ada["key"]))
    assert client.get("/players/me", headers=bearer(ada["key"])).status_code == 401
