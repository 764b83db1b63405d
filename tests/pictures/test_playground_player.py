"""The playground's player (issue 55): a key kept in the browser, "my games" and its badge.

In headless Chromium against the live gunicorn and RQ worker: a person becomes a player, creates
two games against bots, sees both in My games with the badge of the games where it is their turn,
opens one from there and moves, reloads (the key is remembered), then forgets the key. The key
travels only in the Authorization header: no request's URL holds it.
"""

from __future__ import annotations

import random
import time

import requests

from tests.pictures.test_playground import Page

KEY_STORE = "skyline.player-key"


def _stored_key(tab: Page) -> str | None:
    key: str | None = tab.page.evaluate(f"localStorage.getItem('{KEY_STORE}')")
    return key


def _my_games(live: str, key: str) -> dict:
    reply = requests.get(f"{live}/players/me/games", headers={"Authorization": f"Bearer {key}"}, timeout=10)
    reply.raise_for_status()
    body: dict = reply.json()
    return body


def _wait_for_badge(tab: Page, live: str, key: str, wanted: int, seconds: float = 20) -> None:
    """Refreshes My games until the badge counts `wanted` games (the bots are playing meanwhile)."""
    deadline = time.monotonic() + seconds
    while True:
        tab.page.click("#my-games-refresh")
        badge = tab.page.locator("#my-turn-badge")
        shown = badge.get_attribute("data-count")
        if shown == str(wanted) and _my_games(live, key)["counts"]["my_turn"] == wanted:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the badge shows {shown}, not {wanted}")
        time.sleep(0.3)


def test_a_player_keeps_a_key_sees_my_games_plays_one_and_forgets_the_key(live, browser, artifacts):
    tab = Page(browser, live)
    urls: list[str] = []
    tab.page.on("request", lambda request: urls.append(request.url))
    try:
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=none]")
        assert _stored_key(tab) is None
        tab.page.click("#become-player")
        tab.page.wait_for_selector("#player-new:not([hidden])")
        key = tab.page.locator("#new-key").text_content()
        assert key and key.startswith("sk_player_")
        assert "shown this once" in tab.page.locator("#player-new").text_content()
        assert _stored_key(tab) == key
        tab.page.wait_for_selector("#my-games-empty:not([hidden])")

        games = []
        for _ in range(2):
            tab.create("property", ["human", "bot:random"], {})
            games.append(tab.page.locator("#created").get_attribute("data-game"))
        assert len(set(games)) == 2

        # The home page again: both games listed, each with its turn; both are my turn once the
        # bot has answered (or before it has moved at all), and the badge says 2.
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=known]")
        assert tab.page.locator("#player-new").is_hidden()  # the key is shown once only
        _wait_for_badge(tab, live, key, 2)
        rows = tab.page.locator("#my-games li.my-game")
        assert sorted(rows.evaluate_all("items => items.map(i => i.dataset.game)")) == sorted(games)
        assert rows.evaluate_all("items => items.map(i => i.dataset.myTurn)") == ["true", "true"]

        # Open the first from My games: the page plays it with the key, as a seat.
        first = games[0]
        tab.page.click(f"li.my-game[data-game='{first}'] a.my-game-link")
        tab.page.wait_for_selector("body[data-ready=game]")
        assert tab.page.url.endswith(f"#game={first}&player")
        assert "You are seat 0" in tab.page.locator("#game-status").text_content()
        before = requests.get(f"{live}/games/{first}", timeout=10).json()["version"]
        rng = random.Random(55)
        deadline = time.monotonic() + 15
        while not tab.click_a_move(rng):
            assert time.monotonic() < deadline, "no move offered to the player's seat"
            time.sleep(0.1)
        deadline = time.monotonic() + 10
        since = f"{live}/games/{first}/events?since={before}"
        while not (log := requests.get(since, timeout=10).json())["events"]:
            assert time.monotonic() < deadline, "the click sent no move"
            time.sleep(0.1)
        assert log["events"][0]["seat"] == 0  # the move the page sent, for the player's seat
        assert tab.page.locator("#refusal").is_hidden()

        # A reload: the key comes from local storage, the seat's view and moves again.
        tab.page.reload()
        tab.page.wait_for_selector("body[data-ready=game]")
        assert "You are seat 0" in tab.page.locator("#game-status").text_content()
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=known]")
        tab.page.wait_for_selector("#my-games li.my-game >> nth=1")
        tab.page.screenshot(path=str(artifacts / "play-player.png"), full_page=True)

        tab.page.click("#forget-key")
        tab.page.wait_for_selector("body[data-player=none]")
        assert _stored_key(tab) is None
        assert tab.page.locator("#my-games").is_hidden()
        assert tab.page.locator("#become-player").is_visible()
        tab.page.reload()
        tab.page.wait_for_selector("body[data-ready=setup][data-player=none]")

        assert not [url for url in urls if key in url], "the key went into a URL"
        assert tab.errors == [], tab.errors + tab.refused
    finally:
        tab.page.close()


def _create(live: str, seats: list[dict], key: str | None = None) -> str:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    created = requests.post(
        f"{live}/games", json={"title": "property", "seats": seats}, headers=headers, timeout=10
    )
    assert created.status_code == 201, created.text
    game: str = created.json()["id"]
    return game


def test_a_pasted_key_takes_its_invitation_and_plays_either_of_two_seats(live, browser):
    """A key made elsewhere is pasted (a wrong one first: refused, not kept). Its player is invited
    to one game, and takes the invitation from My games (the join sends the key: the seat is bound
    to the player); it holds both seats of another game, and My games links each."""
    made = requests.post(f"{live}/players", timeout=10).json()
    key, player = made["key"], made["id"]
    invited = _create(live, [{"kind": "open", "player": player}, {"kind": "bot", "level": "random"}])
    both = _create(live, [{"kind": "human", "player": "me"}, {"kind": "open", "player": player}], key)
    headers = {"Authorization": f"Bearer {key}"}
    joined = requests.post(f"{live}/games/{both}/join", json={"seat": 1}, headers=headers, timeout=10)
    assert joined.status_code == 201, joined.text

    tab = Page(browser, live)
    urls: list[str] = []
    tab.page.on("request", lambda request: urls.append(request.url))
    try:
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=none]")
        tab.page.fill("#key-input", "sk_player_not-a-key")
        tab.page.click("#use-key")
        tab.page.wait_for_selector("#player-refusal:not([hidden]) code")
        assert tab.page.locator("#player-refusal code").text_content() == "invalid_player_key"
        assert _stored_key(tab) is None

        tab.page.fill("#key-input", key)
        tab.page.click("#use-key")
        invited_row = tab.page.locator(f"li.my-game[data-game='{invited}']")
        both_row = tab.page.locator(f"li.my-game[data-game='{both}']")
        invited_row.wait_for()
        assert _stored_key(tab) == key
        assert tab.page.locator("#player-new").is_hidden()  # a pasted key is not shown back
        assert invited_row.locator("a.my-game-link").all_inner_texts() == ["Take the invitation"]
        links = both_row.locator("a.my-game-link")
        assert links.all_inner_texts() == ["Play seat 0", "Play seat 1"]
        # One of its two seats is to act in `both`; `invited` waits for the player.
        assert tab.page.locator("#my-turn-badge").get_attribute("data-count") == "1"

        invited_row.locator("a", has_text="Take the invitation").click()
        tab.page.wait_for_selector("body[data-ready=join]")
        tab.page.click("button.take-seat[data-seat='0']")
        tab.page.wait_for_selector("body[data-ready=game]")
        assert "You are seat 0" in tab.page.locator("#game-status").text_content()
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=known]")
        assert invited_row.locator("a.my-game-link").all_inner_texts() == ["Open"]  # bound to me

        to_act = requests.get(f"{live}/games/{both}", timeout=10).json()["to_act"]
        both_row.locator("a[href$='&seat=1']").click()
        tab.page.wait_for_selector("body[data-ready=game]")
        assert "You are seat 1" in tab.page.locator("#game-status").text_content()
        tab.page.wait_for_selector("#moves[data-version]", state="attached")
        offered = tab.page.locator("#moves button.move").count()
        assert (offered > 0) == (1 in to_act)
        assert not [url for url in urls if key in url], "the key went into a URL"
        unexpected = [e for e in tab.errors if "401" not in e]  # the wrong key's refusal
        assert unexpected == [], tab.errors + tab.refused
    finally:
        tab.page.close()


def test_a_player_reads_its_ratings_and_seeks_a_game_from_the_page(live, browser):
    """The page shows the player's own ratings (none yet: the live server rates nothing without an
    archive, and a bot level's the same way), and seeks a game: another player's seek meets it, and
    the page's seek then links the game, which opens with the key."""
    tab = Page(browser, live)
    urls: list[str] = []
    tab.page.on("request", lambda request: urls.append(request.url))
    other = requests.post(f"{live}/players", timeout=10).json()
    other_headers = {"Authorization": f"Bearer {other['key']}"}
    try:
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup][data-player=none]")
        tab.page.click("#become-player")
        tab.page.wait_for_selector("#player-new:not([hidden])")
        key = tab.page.locator("#new-key").text_content()
        me = tab.page.evaluate("localStorage.getItem('skyline.player-id')")
        assert me and me.startswith("p_") and tab.page.input_value("#ratings-id") == me
        tab.page.wait_for_selector("#ratings-empty:not([hidden])")
        assert tab.page.locator("#ratings").get_attribute("data-player") == me
        tab.page.fill("#ratings-id", "bot:nolevel")
        tab.page.click("#ratings-show")
        tab.page.wait_for_selector("#ratings-refusal:not([hidden]) code")

        tab.page.select_option("#seek-title", "fifth-avenue")
        tab.page.select_option("#seek-seats", "2")
        tab.page.click("#seek")
        mine = tab.page.locator("#seeks li.seek")
        mine.first.wait_for()
        if mine.first.get_attribute("data-status") == "waiting":  # else a seek left by a past run met it
            met = requests.post(
                f"{live}/seeks", json={"title": "fifth-avenue", "seats": 2}, headers=other_headers, timeout=10
            ).json()
            assert met["status"] == "matched", met
            tab.page.click("#seeks-refresh")
        tab.page.wait_for_selector("#seeks li.seek[data-status=matched] a.seek-game")
        headers = {"Authorization": f"Bearer {key}"}
        [made] = requests.get(f"{live}/players/me/games", headers=headers, timeout=10).json()["games"]
        tab.page.wait_for_selector(f"#my-games li.my-game[data-game='{made['id']}']")
        tab.page.click("#seeks li.seek a.seek-game")
        tab.page.wait_for_selector(f"body[data-ready=game][data-game='{made['id']}']")
        assert "You are seat" in tab.page.locator("#game-status").text_content()
        assert not [url for url in urls if key in url], "the key went into a URL"
        unexpected = [e for e in tab.errors if "404" not in e]  # bot:nolevel's refusal
        assert unexpected == [], tab.errors + tab.refused
    finally:
        tab.page.close()
        for seek in requests.get(f"{live}/seeks", headers=other_headers, timeout=10).json()["seeks"]:
            if seek["status"] == "waiting":
                requests.delete(f"{live}/seeks/{seek['id']}", headers=other_headers, timeout=10)
