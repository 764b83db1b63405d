"""/play's replay control in a real browser: step back and forward, jump to a version, and back
to the game now; every past picture and status is drawn from GET /games/{id}/versions/{n}."""

from __future__ import annotations

import random

import requests

from .test_playground import VIEWPORT


def _played(live: str, moves: int) -> tuple[str, dict[int, str], int]:
    created = requests.post(
        f"{live}/games",
        json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=10,
    ).json()
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    rng = random.Random(7)
    version = 0
    for _ in range(moves):
        shown = requests.get(f"{live}/games/{created['id']}", timeout=10).json()
        seat = shown["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        listing = requests.get(f"{live}/games/{created['id']}/moves", headers=auth, timeout=10).json()
        moved = requests.post(
            f"{live}/games/{created['id']}/actions",
            json={"move": rng.choice(listing["moves"])["move"], "version": listing["version"]},
            headers=auth,
            timeout=10,
        )
        assert moved.status_code == 200
        version = moved.json()["version"]
    return created["id"], tokens, version


def test_the_replay_control_steps_through_the_versions(browser, live, artifacts):
    game_id, tokens, last = _played(live, 6)
    page = browser.new_page(viewport=VIEWPORT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/versions/" in r.url else None)
    page.goto(f"{live}/play#game={game_id}&token={tokens[0]}")
    page.wait_for_selector(f"body[data-ready=game][data-painted='{last}']")
    assert page.text_content("#replay-status") == f"Version {last}: the game now."
    assert page.is_disabled("#replay-forward") and page.is_disabled("#replay-latest")

    page.click("#replay-back")
    page.wait_for_selector(f"body[data-replay='{last - 1}']")
    status = page.text_content("#replay-status")
    assert status.startswith(f"Version {last - 1} of {last} — v{last - 1}: ")
    assert any(url.endswith(f"/versions/{last - 1}/board.svg") for url in asked)

    page.fill("#replay-version", "0")
    page.click("#replay-go")
    page.wait_for_selector("body[data-replay='0']")
    assert page.text_content("#replay-status") == f"Version 0 of {last} — the game as created"
    assert page.is_disabled("#replay-back") and page.is_disabled("#replay-first")
    # The picture on show is version 0's, drawn (decoded by the browser) from its route.
    assert any(url.endswith("/versions/0/board.svg") for url in asked)
    page.wait_for_function(
        "() => { const b = document.getElementById('board'); return b.complete && b.naturalWidth > 0; }"
    )
    assert page.get_attribute("#board", "src").startswith("blob:")
    page.screenshot(path=str(artifacts / "playground-replay.png"), full_page=True)

    page.click("#replay-forward")
    page.wait_for_selector("body[data-replay='1']")
    page.click("#replay-latest")
    page.wait_for_selector("body:not([data-replay])")
    assert page.text_content("#replay-status") == f"Version {last}: the game now."
    assert not errors, errors
    page.close()
