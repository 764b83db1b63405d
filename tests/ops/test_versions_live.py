"""Versions on real processes: gunicorn and an RQ worker (its bot plays) on a real Redis.

Every reader (each human seat's token, the spectator) reads the game as it goes, whatever version
it finds (the bot moves in the worker, between reads); once the game is over, each of those reads
is asked for again at its version and must come back the same, and ``?seat=`` (refused while the
game ran) gives the seat's reads to anyone.
"""

from __future__ import annotations

import random
import time

import requests


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def test_a_live_game_read_back_at_every_version_it_was_read(live):
    session = requests.Session()
    rng = random.Random(54)
    created = session.post(
        f"{live}/games",
        json={
            "title": "property",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}, {"kind": "open"}],
        },
        timeout=10,
    ).json()
    game_id = created["id"]
    tokens: dict[int | None, str | None] = {None: None, 0: created["human_seats"][0]["token"]}
    seen: dict[tuple[int, int | None], dict] = {}

    def read_all() -> dict:
        shown: dict = {}
        for seat, token in tokens.items():
            shown = session.get(f"{live}/games/{game_id}", headers=_auth(token), timeout=10).json()
            seen[(shown["version"], seat)] = shown
        return shown

    read_all()
    joined = session.post(f"{live}/games/{game_id}/join", json={}, timeout=10).json()
    tokens[joined["seat"]] = joined["token"]
    deadline = time.monotonic() + 240
    refused_while_running = False
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        shown = read_all()
        if shown["status"] == "finished":
            break
        if not refused_while_running:
            refused = session.get(f"{live}/games/{game_id}/versions/0?seat=0", timeout=10)
            assert refused.status_code == 409 and refused.json()["code"] == "seat_view_while_running"
            refused_while_running = True
        moved = False
        for seat, token in tokens.items():
            if seat is None:
                continue
            listing = session.get(f"{live}/games/{game_id}/moves", headers=_auth(token), timeout=10).json()
            if listing["moves"]:
                session.post(
                    f"{live}/games/{game_id}/actions",
                    json={"move": rng.choice(listing["moves"])["move"], "version": listing["version"]},
                    headers=_auth(token),
                    timeout=30,
                )
                moved = True
        if not moved:
            time.sleep(0.02)
    assert refused_while_running and len({version for version, _ in seen}) > 10
    for (version, seat), shown in sorted(
        seen.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1])
    ):
        got = session.get(
            f"{live}/games/{game_id}/versions/{version}", headers=_auth(tokens[seat]), timeout=10
        )
        assert got.status_code == 200, got.text
        body = got.json()
        body.pop("entry")
        assert body == {k: v for k, v in shown.items() if k != "rematch"}, (version, seat)
        assert got.headers["Cache-Control"].endswith("max-age=31536000, immutable")
        if seat is not None:
            public = session.get(f"{live}/games/{game_id}/versions/{version}?seat={seat}", timeout=10)
            assert public.status_code == 200 and public.headers["Cache-Control"].startswith("public")
            assert {k: v for k, v in public.json().items() if k != "entry"} == body
