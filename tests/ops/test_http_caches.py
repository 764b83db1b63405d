"""A revalidating HTTP cache in front of a live API (gunicorn, its workers, Redis): what every
HTTP cache and every mobile HTTP library that keeps ETags does. It keeps each reply, keys it by
URL (the Authorization header left out of the key, as requests-cache does by default, since a
key holding secrets is a leak of its own) and by what ``Vary`` names, and revalidates it with
If-None-Match before each use (``no-cache``). Through it a player sees a rematch appear in a
finished game, whose version does not change, and two seats never get each other's view.
"""

from __future__ import annotations

import requests
import requests_cache

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


def cache() -> requests_cache.CachedSession:
    return requests_cache.CachedSession(backend="memory", cache_control=True, expire_after=-1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _created(live: str) -> dict:
    reply = requests.post(f"{live}/games", json={"title": "property", "seed": 4, "seats": HUMANS}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def test_a_revalidating_cache_shows_the_rematch_once_asked(live):
    created = _created(live)
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    resigned = requests.post(f"{live}/games/{game_id}/resign", headers=bearer(tokens[1]), timeout=10)
    assert resigned.status_code == 200, resigned.text
    client = cache()
    url = f"{live}/games/{game_id}"
    first = client.get(url, headers=bearer(tokens[0]), timeout=10)
    assert first.status_code == 200 and not first.from_cache and "rematch" not in first.json()
    again = client.get(url, headers=bearer(tokens[0]), timeout=10)
    assert again.from_cache and again.json() == first.json(), "revalidated: 304, the kept copy"
    # The other player asks for the rematch: no new version, a new reply.
    asked = requests.post(f"{live}/games/{game_id}/rematch", headers=bearer(tokens[1]), timeout=10)
    assert asked.status_code == 201, asked.text
    after = client.get(url, headers=bearer(tokens[0]), timeout=10)
    assert after.json()["version"] == first.json()["version"]
    assert after.json().get("rematch") == asked.json()["id"], "the cache kept the game without its rematch"


def test_a_revalidating_cache_never_hands_one_seat_another_seats_view(live):
    created = _created(live)
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    client = cache()
    for tail in ("", "/moves", "/events", "/board.svg", "/board.txt"):
        url = f"{live}/games/{game_id}{tail}"
        truth = {seat: requests.get(url, headers=bearer(token), timeout=10) for seat, token in tokens.items()}
        truth[None] = requests.get(url, timeout=10)
        for _ in range(2):  # the second round is answered from what the cache kept, revalidated
            for seat in (0, 1, None, 1, 0):
                headers = bearer(tokens[seat]) if seat is not None else {}
                seen = client.get(url, headers=headers, timeout=10)
                assert seen.status_code == 200, (tail, seat, seen.status_code)
                assert seen.content == truth[seat].content, f"{tail or '/'}: seat {seat} got another's copy"
        if tail in ("", "/moves"):
            assert (
                client.get(url, headers=bearer(tokens[0]), timeout=10).json()["you" if tail == "" else "seat"]
                == 0
            )


def test_a_revalidating_cache_never_hands_a_reader_a_picture_in_another_language(live):
    """A reader switching languages through one cache gets each picture in its own language, and a
    repeated read in the same language from the cache (304). Two things keep the copies apart: the
    picture's Vary names Accept-Language, and its ETag differs per language, so a copy kept for
    one language never revalidates for another (requests-cache keeps one copy per URL and treats a
    Vary mismatch as a miss; a cache that ignored Vary would still be told 200 with the other bytes)."""
    created = _created(live)
    game_id = created["id"]
    token = created["human_seats"][0]["token"]
    client = cache()
    readers = {
        "fr": {**bearer(token), "Accept-Language": "fr-CA;q=0.9, en;q=0.8"},
        "en": {**bearer(token), "Accept-Language": "en"},
        None: bearer(token),
    }
    for tail in ("/board.svg", "/board.txt"):
        url = f"{live}/games/{game_id}{tail}"
        truth = {
            reader: requests.get(url, headers=headers, timeout=10) for reader, headers in readers.items()
        }
        assert truth["fr"].content != truth["en"].content == truth[None].content
        previous = "none yet"
        for reader in ("fr", "fr", "en", "en", "fr", None, "fr", "fr"):
            seen = client.get(url, headers=readers[reader], timeout=10)
            assert seen.status_code == 200 and seen.content == truth[reader].content, (tail, reader)
            assert seen.headers["Content-Language"] == (reader or "en")
            if reader == previous:
                assert seen.from_cache, f"{tail}: {reader}'s copy was not kept"
            previous = reader
