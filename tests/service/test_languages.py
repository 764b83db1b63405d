"""The reader's language over HTTP (service/http/language.py): negotiation, and what each reply says.

Two games of one title from one seed are played side by side, one read in French and one in
English: the same moves and codes in the same order, the labels and refusals in each language.
"""

from __future__ import annotations

import random
import re

import pytest

from service.http.language import negotiate

SEED = 11
ENGLISH_WORDS = re.compile(r"\b(Play|claim|column|Buy|Pass|card|your)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def app(module_app):
    return module_app


@pytest.mark.parametrize(
    ("header", "asked", "language"),
    [
        ("fr", None, "fr"),
        ("fr-FR", None, "fr"),
        ("fr-CA;q=0.9, en;q=0.8", None, "fr"),
        ("en;q=0.8, fr-CA;q=0.9", None, "fr"),
        ("de", None, "en"),
        ("*", None, "en"),
        (None, None, "en"),
        ("", None, "en"),
        ("de, fr;q=0.5", None, "fr"),
        ("fr;q=0, en;q=0.1", None, "en"),
        ("fr;q=bad", None, "en"),  # a malformed range is ignored
        (None, "fr", "fr"),
        ("en", "fr", "fr"),
        ("fr", "de", "fr"),
    ],
)
def test_negotiation(header, asked, language):
    assert negotiate(header, asked) == language


def _create(client, title="property", seats=2):
    body = {"title": title, "seed": SEED, "seats": [{"kind": "human"}] * seats}
    created = client.post("/games", json=body).get_json()
    return created["id"], {s["seat"]: s["token"] for s in created["human_seats"]}


def _moves(client, game_id, token, **headers):
    return client.get(f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}", **headers})


@pytest.mark.parametrize("how", ["header", "query"])
def test_moves_speak_the_readers_language_and_say_so(client, how):
    game_id, tokens = _create(client)
    seat = client.get(f"/games/{game_id}/moves").get_json()["to_act"][0]
    french = (
        _moves(client, game_id, tokens[seat], **{"Accept-Language": "fr-CA;q=0.9, en;q=0.8"})
        if how == "header"
        else client.get(
            f"/games/{game_id}/moves?lang=fr", headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
    )
    english = _moves(client, game_id, tokens[seat])
    assert french.headers["Content-Language"] == "fr" and english.headers["Content-Language"] == "en"
    for reply in (french, english):
        assert "Accept-Language" in reply.headers["Vary"] and "Authorization" in reply.headers["Vary"]
    assert french.headers["ETag"] != english.headers["ETag"]
    fr, en = french.get_json(), english.get_json()
    assert [m["move"] for m in fr["moves"]] == [m["move"] for m in en["moves"]]
    for f, e in zip(fr["moves"], en["moves"], strict=True):
        assert f["label"] != e["label"] and not ENGLISH_WORDS.search(f["label"])
    # The conditional GET stays true per language: each copy revalidates, the other's tag does not.
    again = _moves(
        client, game_id, tokens[seat], **{"Accept-Language": "fr", "If-None-Match": french.headers["ETag"]}
    )
    assert again.status_code == 304 and "Accept-Language" in again.headers["Vary"]
    other = _moves(client, game_id, tokens[seat], **{"If-None-Match": french.headers["ETag"]})
    assert other.status_code == 200 and other.get_json() == en


def test_a_refusal_is_in_the_readers_language_with_the_same_code(client):
    game_id, tokens = _create(client)
    seat = client.get(f"/games/{game_id}/moves").get_json()["to_act"][0]
    pass_move = {"move": {"type": "pass"}}
    replies = {
        lang: client.post(
            f"/games/{game_id}/actions",
            json=pass_move,
            headers={"Authorization": f"Bearer {tokens[seat]}", "Accept-Language": lang},
        )
        for lang in ("fr", "en")
    }
    fr, en = replies["fr"].get_json(), replies["en"].get_json()
    assert replies["fr"].status_code == replies["en"].status_code == 422
    assert fr["code"] == en["code"] == "must_play"
    assert fr["detail"] != en["detail"] and "vous devez" in fr["detail"]
    assert (
        replies["fr"].headers["Content-Language"] == "fr"
        and "Accept-Language" in replies["fr"].headers["Vary"]
    )
    assert not ENGLISH_WORDS.search(fr["detail"])


def test_games_played_side_by_side_in_french_and_english(client):
    """Same seed, same moves: the same listings and refusal codes in the same order, every text
    in its language."""
    rng = random.Random(SEED)
    games = {lang: _create(client) for lang in ("fr", "en")}
    for _ in range(40):
        listed = {}
        for lang, (game_id, tokens) in games.items():
            seat = client.get(f"/games/{game_id}/moves").get_json()["to_act"]
            if not seat:
                return
            listed[lang] = (
                seat[0],
                _moves(client, game_id, tokens[seat[0]], **{"Accept-Language": lang}).get_json(),
            )
        (seat_fr, fr), (seat_en, en) = listed["fr"], listed["en"]
        assert seat_fr == seat_en and [m["move"] for m in fr["moves"]] == [m["move"] for m in en["moves"]]
        for f, e in zip(fr["moves"], en["moves"], strict=True):
            assert f["label"] != e["label"] and not ENGLISH_WORDS.search(f["label"])
        chosen = rng.choice(en["moves"])["move"]
        refused = {}
        for lang, (game_id, tokens) in games.items():
            headers = {"Authorization": f"Bearer {tokens[seat_en]}", "Accept-Language": lang}
            waiting = {"Authorization": f"Bearer {tokens[1 - seat_en]}", "Accept-Language": lang}
            bad = client.post(f"/games/{game_id}/actions", json={"move": chosen}, headers=waiting)
            refused[lang] = bad.get_json()
            done = client.post(f"/games/{game_id}/actions", json={"move": chosen}, headers=headers)
            assert done.status_code == 200, done.get_json()
        assert refused["fr"]["code"] == refused["en"]["code"] == "not_your_turn"
        assert refused["fr"]["detail"] != refused["en"]["detail"]


def test_lang_in_the_query_on_a_dry_run_and_on_a_refused_creation(client):
    game_id, tokens = _create(client)
    waiting = 1 - client.get(f"/games/{game_id}/moves").get_json()["to_act"][0]
    refused = client.post(
        f"/games/{game_id}/actions?dry_run=true&lang=fr",
        json={"move": {"type": "pass"}},
        headers={"Authorization": f"Bearer {tokens[waiting]}"},
    )
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_your_turn"
    assert refused.headers["Content-Language"] == "fr" and "siège" in refused.get_json()["detail"]
    body = {"title": "property", "seats": [{"kind": "human"}] * 2, "options": {"bankruptcies_to_end": 2}}
    created = {lang: client.post(f"/games?lang={lang}", json=body) for lang in ("fr", "en")}
    fr, en = created["fr"].get_json(), created["en"].get_json()
    assert created["fr"].status_code == created["en"].status_code == 422
    assert fr["code"] == en["code"] == "option_needs_more_seats"
    assert fr["detail"] == "À 2 joueurs, la partie peut aller jusqu'à 1 faillite au plus."
    assert en["detail"] == "With 2 players the game can run to at most 1 bankruptcy."


def test_the_catalog_in_french_and_english(client):
    replies = {lang: client.get("/catalog", headers={"Accept-Language": lang}) for lang in ("fr", "en")}
    by_query = client.get("/catalog?lang=fr")
    fr, en = replies["fr"].get_json(), replies["en"].get_json()
    assert by_query.get_json() == fr and by_query.headers["Content-Language"] == "fr"
    assert replies["fr"].headers["ETag"] != replies["en"].headers["ETag"]
    assert "Accept-Language" in replies["fr"].headers["Vary"]
    assert [t["title"] for t in fr["titles"]] == [t["title"] for t in en["titles"]]
    for f, e in zip(fr["titles"], en["titles"], strict=True):
        assert f["summary"] != e["summary"]
        assert f["options"]["properties"].keys() == e["options"]["properties"].keys()
        for name, option in f["options"]["properties"].items():
            english = e["options"]["properties"][name]
            assert option["description"] != english["description"]
            assert {k: v for k, v in option.items() if k != "description"} == {
                k: v for k, v in english.items() if k != "description"
            }
        assert [lvl["level"] for lvl in f["levels"]] == [lvl["level"] for lvl in e["levels"]]
        assert all(
            a["description"] != b["description"] for a, b in zip(f["levels"], e["levels"], strict=True)
        )
    again = client.get(
        "/catalog", headers={"Accept-Language": "fr", "If-None-Match": replies["fr"].headers["ETag"]}
    )
    assert again.status_code == 304


def test_the_services_own_refusals_and_every_title_speak_the_readers_language(client):
    """A use case's refusal (a missing game), an HTTP one (an unknown address) and a rules one:
    title and detail in French for a French reader, the English unchanged for the others."""
    game_id, tokens = _create(client)
    for path, code in (("/games/nope", "game_not_found"), ("/nowhere", "not_found")):
        replies = {lang: client.get(path, headers={"Accept-Language": lang}) for lang in ("fr", "en")}
        fr, en = replies["fr"].get_json(), replies["en"].get_json()
        assert fr["code"] == en["code"] == code and fr["status"] == en["status"] == 404
        assert en["title"] == code.replace("_", " ").capitalize()
        assert fr["title"] != en["title"] and fr["detail"] != en["detail"]
        assert replies["fr"].headers["Content-Language"] == "fr"
        assert "Accept-Language" in replies["fr"].headers["Vary"]
    assert (
        client.get("/games/nope", headers={"Accept-Language": "fr"}).get_json()["title"]
        == "Partie introuvable"
    )
    waiting = 1 - client.get(f"/games/{game_id}/moves").get_json()["to_act"][0]
    refused = client.post(
        f"/games/{game_id}/actions?lang=fr",
        json={"move": {"type": "pass"}},
        headers={"Authorization": f"Bearer {tokens[waiting]}"},
    ).get_json()
    assert refused["title"] == "Pas votre tour"
    stale = client.post(
        f"/games/{game_id}/actions",
        json={"move": {"type": "pass"}, "version": 999},
        headers={"Authorization": f"Bearer {tokens[1 - waiting]}", "Accept-Language": "fr-CA"},
    ).get_json()
    assert stale["code"] == "stale_version" and stale["title"] == "Version dépassée"
    assert "999" in stale["detail"] and "relisez" in stale["detail"]
