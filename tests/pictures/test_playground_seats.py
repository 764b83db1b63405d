"""The playground's seats and time in a real browser (headless Chromium), against a live gunicorn
and RQ worker: the lobby and join links, waiting games that start when the last seat is taken,
leave, resign, abort (and its refusal), the turn clock's countdown and the stand-in's move, and
the rematch.

Each ``Player`` is a page of its own browser context (no storage shared), as two people on two
machines would be; every test ends with no console error.
"""

from __future__ import annotations

import random
import time

import requests

from .test_playground import BROWSER_CLICKS, Page, play_side_by_side

# Fresh Fish with two seats is the shortest game to play to the end (about 80 moves): its first
# BROWSER_CLICKS by clicks, the rest over HTTP while the pages follow (test_playground.py).
QUICK = ("fresh-fish", {"distributors": "corners"})
# Bounded by progress, not by the clock (as in test_playground.py): a slow machine only slows it.
STALL_SECONDS = 90


def event_stream(url: str) -> bool:
    return url.endswith("/events")


class Player(Page):
    """A person at the playground, who may also open seats, list the game and set a clock."""

    def create(
        self,
        title: str,
        seats: list[str],
        options: dict,
        *,
        names: dict[int, str] | None = None,
        listed: bool = False,
        clock: tuple[int, str] | tuple[int, str, int] | None = None,
    ) -> str:
        """Creates the game by /play's form; ``clock``: seconds, on timeout, and optionally the
        timeouts in a row that resign a seat."""
        page = self.page
        self.start_form(title, seats)
        for seat, name in (names or {}).items():
            page.fill(f"input[name=seat-{seat}-name]", name)
        self.fill_options(options)
        if listed:
            page.check("#listed")
        if clock is not None:
            page.check("#clock-on")
            page.fill("#turn-seconds", str(clock[0]))
            page.select_option("#on-timeout", clock[1])
            if len(clock) > 2:
                page.fill("#timeouts-to-resign", str(clock[2]))
        self.submit_form()
        return page.locator("#created").get_attribute("data-game")

    def attribute(self, selector: str, name: str) -> str | None:
        return self.page.locator(selector).get_attribute(name)

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()

    def confirm_next(self, accept: bool) -> list[str]:
        """Answers the next confirm() box; returns the list its question will be put in."""
        asked: list[str] = []

        def answer(dialog) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        self.page.once("dialog", answer)
        return asked

    def hold_streams(self, *, let_first_through: bool) -> list:
        """Holds the page's event-stream requests (unanswered, as a slow network would), so the
        page learns of nothing until ``release``; no request fails, so the console stays quiet."""
        held: list = []
        passed = [not let_first_through]

        def hold(route) -> None:
            if not passed[0]:
                passed[0] = True
                route.continue_()
            else:
                held.append(route)

        # The stream only: the log read as JSON (/events?since=) goes through.
        self.page.route(event_stream, hold)
        return held

    def release(self, held: list) -> None:
        for route in held:
            route.continue_()
        self.page.unroute(event_stream)

    def close(self) -> None:
        self.page.close()


def api_game(live: str, request: dict) -> dict:
    response = requests.post(f"{live}/games", json=request, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def api_post(live: str, path: str, token: str, body: dict | None = None) -> requests.Response:
    return requests.post(f"{live}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def play_to_the_end(players: list[Player], seed: int, live: str) -> int:
    """Both players click moves whenever theirs are listed, BROWSER_CLICKS of them, then the rest
    is played with their tokens over HTTP while both pages follow, until both show the end."""
    rng = random.Random(seed)
    clicks = 0
    last_progress = time.monotonic()
    while not all(player.finished() for player in players):
        if clicks >= BROWSER_CLICKS:
            play_side_by_side(live, [player.page.url for player in players])
            for player in players:
                player.page.wait_for_selector("body[data-status=finished]", timeout=STALL_SECONDS * 1000)
            break
        moved = False
        for player in players:
            if player.click_a_move(rng):
                clicks += 1
                moved = True
        if moved:
            last_progress = time.monotonic()
        else:
            stalled = time.monotonic() - last_progress
            assert stalled < STALL_SECONDS, f"no move offered for {STALL_SECONDS} s ({clicks} clicks)"
            time.sleep(0.02)
    return clicks


def test_two_players_meet_in_the_lobby_play_to_the_end_and_rematch(live, browser, artifacts):
    ada = Player(browser, live)
    bo = Player(browser, live)
    try:
        bo.page.goto(live + "/play")
        bo.page.wait_for_selector("body[data-ready=setup]")
        title, options = QUICK
        game = ada.create(title, ["human", "open"], options, names={0: "Ada"}, listed=True)
        assert ada.attribute("#join-link", "href") == f"{live}/play#join={game}"
        ada.open_seat(0)
        # Waiting: the open seat is shown, and the game has no move yet.
        ada.page.wait_for_selector("#waiting:not([hidden]) li.open-seat[data-seat='1']")
        assert ada.attribute("body", "data-status") == "waiting"
        assert ada.page.locator("#moves button.move").count() == 0
        ada.page.wait_for_selector("#live-status[data-state=live]")

        # Bo's lobby was read before the game existed: a refresh lists it, newest first.
        assert bo.page.locator(f"#lobby-games li[data-game='{game}']").count() == 0
        bo.page.click("#lobby-refresh")
        row = bo.page.locator(f"#lobby-games li[data-game='{game}']")
        row.wait_for()
        listed = row.inner_text()
        assert "Fresh Fish" in listed and "seat 0: Ada" in listed and "seat 1: open" in listed, listed
        assert "1 open place" in listed and row.locator("time").get_attribute("datetime")
        bo.page.fill("#lobby-name", "Bo")
        bo.page.screenshot(path=str(artifacts / "play-lobby.png"), full_page=True)
        row.locator("button.join").click()
        bo.page.wait_for_selector(f"body[data-ready=game][data-game='{game}']")
        assert "#game=" in bo.page.url and "&token=" in bo.page.url
        assert "You are seat 1 (Bo)." in bo.text("#game-status")

        # Ada's page learns of the join and the start from its event stream, and starts.
        ada.page.wait_for_selector("body[data-status=active]", timeout=15_000)
        ada.page.locator("#live li", has_text="seat joined, game started").wait_for()
        assert ada.page.locator("#waiting").is_hidden()
        assert game not in [g["id"] for g in requests.get(f"{live}/lobby", timeout=10).json()["games"]]
        for player in (ada, bo):
            # Nobody has moved yet: abort is still offered; resign is, the game being under way.
            assert player.page.locator("#abort").is_visible() and player.page.locator("#resign").is_visible()

        started = time.monotonic()
        clicks = play_to_the_end([ada, bo], seed=47, live=live)
        print(f"two players, {clicks} clicks in {time.monotonic() - started:.1f} s")
        for player in (ada, bo):
            player.page.wait_for_selector("#result:not([hidden])")
            assert player.page.locator("#result-table tbody tr").count() == 2
            assert player.page.locator("#resign").is_hidden() and player.page.locator("#abort").is_hidden()
        ada.page.screenshot(path=str(artifacts / "play-lobby-game-over.png"), full_page=True)

        # Rematch: Ada asks first and waits in the new game; Bo asks and both play it.
        ada.page.click("#rematch")
        ada.page.wait_for_selector(f"body[data-ready=game][data-status=waiting]:not([data-game='{game}'])")
        rematch = ada.attribute("body", "data-game")
        assert "You are seat 0 (Ada)." in ada.text("#game-status")
        assert ada.page.locator("#waiting li.open-seat[data-seat='1']").count() == 1
        # Bo's page, on the finished game, learns of it (the game's page shows the rematch).
        bo.page.wait_for_selector("#rematch-note:not([hidden])", timeout=15_000)
        assert bo.text("#rematch") == "Join the rematch"
        assert "A rematch was asked for" in bo.text("#rematch-note")
        bo.page.screenshot(path=str(artifacts / "play-rematch-asked.png"), full_page=True)
        bo.page.click("#rematch")
        bo.page.wait_for_selector(f"body[data-ready=game][data-game='{rematch}'][data-status=active]")
        assert "You are seat 1 (Bo)." in bo.text("#game-status")
        ada.page.wait_for_selector("body[data-status=active]", timeout=15_000)
        assert ada.attribute("body", "data-game") == rematch
        # Each page plays the rematch with its new token: the seat to act has moves listed.
        to_act = requests.get(f"{live}/games/{rematch}", timeout=10).json()["to_act"]
        mover = ada if to_act == [0] else bo
        mover.page.wait_for_selector("#moves button.move")
        assert ada.errors == [] and bo.errors == [], (ada.errors, bo.errors)
    finally:
        ada.close()
        bo.close()


def test_a_join_link_opens_in_another_browser_and_the_game_starts_then_aborts(live, browser, artifacts):
    host = Player(browser, live)
    guest = Player(browser, live)
    try:
        game = host.create("property", ["human", "open"], {}, names={1: "Cy"}, clock=(600, "stand_in", 2))
        link = host.attribute("#join-link", "href")
        # The clock as set in the form, echoed by the game's page.
        assert requests.get(f"{live}/games/{game}", timeout=10).json()["clock"] == {
            "turn_seconds": 600,
            "on_timeout": "stand_in",
            "timeouts_to_resign": 2,
        }
        assert link == f"{live}/play#join={game}"
        assert "seat 1: open (for Cy)" in host.text("#seat-links")
        # Not listed: only the link leads to it.
        assert game not in [g["id"] for g in requests.get(f"{live}/lobby", timeout=10).json()["games"]]
        host.open_seat(0)
        host.page.wait_for_selector("#waiting:not([hidden])")
        assert host.attribute("#waiting-join-link", "href") == link
        assert host.text("#deadlines") == "No time is running."
        assert host.text("#clock-rules") == (
            "10:00 per turn. When a seat's time runs out, a stand-in bot plays that turn; "
            "2 timeouts in a row resign the seat."
        )
        host.page.screenshot(path=str(artifacts / "play-waiting.png"), full_page=True)
        host.page.wait_for_selector("#live-status[data-state=live]")

        guest.page.goto(link)
        guest.page.wait_for_selector("body[data-ready=join]")
        assert guest.text("#join-status") == "Waiting for players: 1 open place."
        assert guest.page.locator("button.take-seat").count() == 1
        guest.page.click("button.take-seat[data-seat='1']")
        guest.page.wait_for_selector(f"body[data-ready=game][data-game='{game}']")
        # The open seat's name was whom it was meant for: the guest, who gave none, takes it.
        assert "You are seat 1 (Cy)." in guest.text("#game-status")
        assert "#join=" not in guest.page.url

        host.page.wait_for_selector("body[data-status=active]", timeout=15_000)
        # The clock set in the form: the seat to act has its ten minutes, counting down.
        to_act = requests.get(f"{live}/games/{game}", timeout=10).json()["to_act"]
        for player in (host, guest):
            item = player.page.locator(f"#deadlines li.deadline[data-seat='{to_act[0]}']")
            item.wait_for()
            assert 590 <= int(item.get_attribute("data-remaining")) <= 600
            assert "left" in item.inner_text()

        # Nobody has moved: the guest aborts (after saying yes), and both pages show it.
        assert guest.page.locator("#abort").is_visible()
        asked = guest.confirm_next(accept=True)
        guest.page.click("#abort")
        assert asked and "Abort" in asked[0]
        for player in (guest, host):
            player.page.wait_for_selector("body[data-status=aborted]", timeout=15_000)
            assert "aborted" in player.text("#game-status")
            player.page.wait_for_selector("#live-status[data-state=closed]")
            assert player.page.locator("#abort").is_hidden() and player.page.locator("#resign").is_hidden()

        # The link, opened once more, says the game can no longer be joined.
        guest.page.goto(link)
        guest.page.wait_for_selector("body[data-ready=join]")
        assert guest.text("#join-status") == "The game is aborted: no seat can be joined."
        assert guest.page.locator("button.take-seat").count() == 0
        assert host.errors == [] and guest.errors == [], (host.errors, guest.errors)
    finally:
        host.close()
        guest.close()


def test_the_lobby_loads_more_games_by_its_cursor(live, browser):
    """Twelve listed games of one title and seat count: the page shows ten, then the rest."""
    made = []
    for _ in range(12):
        made.append(
            api_game(
                live,
                {
                    "title": "wettstreit",
                    "seats": [{"kind": "human"}] + [{"kind": "open"}] * 3,
                    "listed": True,
                },
            )
        )
    ours = [created["id"] for created in made]
    player = Player(browser, live)
    try:
        player.page.goto(live + "/play")
        player.page.wait_for_selector("body[data-ready=setup]")
        player.page.select_option("#lobby-title", "wettstreit")
        player.page.select_option("#lobby-seats", "4")
        rows = player.page.locator("#lobby-games li.lobby-game")
        player.page.wait_for_selector("#lobby-games[data-query='limit=10&title=wettstreit&seats=4']")
        assert rows.count() == 10
        first_page = rows.evaluate_all("items => items.map(i => i.dataset.game)")
        # Newest first: the last games made lead the page (the lobby may hold older ones too).
        assert first_page[:10] == ours[::-1][:10]
        while player.page.locator("#lobby-more").is_visible():
            shown = rows.count()
            player.page.click("#lobby-more")
            deadline = time.monotonic() + 10
            while rows.count() == shown and player.page.locator("#lobby-more").is_visible():
                assert time.monotonic() < deadline, "load more brought nothing"
                time.sleep(0.05)
        listed = rows.evaluate_all("items => items.map(i => i.dataset.game)")
        assert len(listed) == len(set(listed)) and listed[:12] == ours[::-1]
        assert "3 open places" in rows.first.inner_text()

        # A game gone meanwhile (aborted by its creator): its Join is refused with the server's
        # code and sentence, and the list, read again, no longer holds it.
        newest = made[-1]
        assert api_post(live, f"/games/{newest['id']}/abort", newest["human_seats"][0]["token"]).ok
        player.page.click(f"#lobby-games li[data-game='{newest['id']}'] button.join")
        player.page.wait_for_selector("#lobby-refusal:not([hidden]) code")
        assert player.text("#lobby-refusal code") == "game_not_waiting"
        assert "no seat can be joined" in player.text("#lobby-refusal .detail")
        player.page.wait_for_selector(f"#lobby-games li[data-game='{newest['id']}']", state="detached")
        assert player.page.locator("#lobby-refusal").is_visible()  # the reload keeps it shown
        assert "#join" not in player.page.url and "#game" not in player.page.url
        made.pop()

        for created in made:  # games left waiting would stay in the lobby for others
            token = created["human_seats"][0]["token"]
            assert api_post(live, f"/games/{created['id']}/abort", token).status_code == 200
        player.page.click("#lobby-refresh")
        deadline = time.monotonic() + 10
        while any(player.page.locator(f"#lobby-games li[data-game='{g}']").count() for g in ours):
            assert time.monotonic() < deadline, "aborted games still listed after a refresh"
            time.sleep(0.05)
        assert player.page.locator("#lobby-refusal").is_hidden()
        # The only console error is the refused join's own line.
        assert len(player.errors) == 1 and "409" in player.errors[0], player.errors
    finally:
        player.close()


def test_a_spectator_sees_the_turn_clock_run_out_and_the_stand_in_move(live, browser, artifacts):
    created = api_game(
        live,
        {
            "title": "property",
            "seats": [{"kind": "human", "name": "Idle"}, {"kind": "human", "name": "Also idle"}],
            "clock": {"turn_seconds": 10},
        },
    )
    game = created["id"]
    first = created["to_act"][0]
    watcher = Player(browser, live)
    try:
        # The stand-in moves when the workers' sweeper next looks (every few seconds): it may act
        # within the second the page shows the time as up. So the page's stream gets through
        # once, then its reconnections are held until the test has seen the countdown expire.
        held = watcher.hold_streams(let_first_through=True)
        watcher.page.goto(f"{live}/play#game={game}")
        watcher.page.wait_for_selector("body[data-ready=game]")
        assert watcher.text("#game-title") == f"Property · game {game}"
        assert watcher.text("#clock-rules") == (
            "0:10 per turn. When a seat's time runs out, a stand-in bot plays that turn; "
            "3 timeouts in a row resign the seat."
        )
        item = watcher.page.locator(f"#deadlines li.deadline[data-seat='{first}']")
        item.wait_for()
        before = int(item.get_attribute("data-remaining"))
        assert 4 <= before <= 10, before
        time.sleep(2.2)
        after = int(item.get_attribute("data-remaining"))
        assert after < before, (before, after)
        assert f"{'Idle' if first == 0 else 'Also idle'}): 0:0" in item.inner_text()

        watcher.page.wait_for_selector(
            f"#deadlines li.deadline[data-seat='{first}'][data-expired]", timeout=15_000
        )
        assert "time is up" in item.inner_text() and item.get_attribute("data-remaining") == "0"
        watcher.page.screenshot(path=str(artifacts / "play-clock-expired.png"), full_page=True)
        # The server acts with no client request (the page sends none: it only listens).
        deadline = time.monotonic() + 20
        while requests.get(f"{live}/games/{game}", timeout=10).json()["version"] < 1:
            assert time.monotonic() < deadline, "no stand-in move after the deadline"
            time.sleep(0.2)
        assert watcher.attribute("body", "data-painted") == "0"

        watcher.release(held)
        watcher.page.wait_for_selector("#live li.live-timeout[data-version='1']", timeout=15_000)
        watcher.page.wait_for_selector("#timeout-note:not([hidden])")
        note = watcher.text("#timeout-note")
        assert "ran out of time" in note and "a stand-in bot played its turn" in note, note
        watcher.page.wait_for_selector("body:not([data-painted='0'])")
        # The other seat's time runs now.
        watcher.page.wait_for_selector(f"#deadlines li.deadline[data-seat='{1 - first}']")
        watcher.page.screenshot(path=str(artifacts / "play-clock-stand-in.png"), full_page=True)
        assert watcher.errors == [], watcher.errors
    finally:
        watcher.close()
        # Without players the game would time out on and on: end it.
        api_post(live, f"/games/{game}/resign", created["human_seats"][0]["token"])


def test_a_player_resigns_through_the_button(live, browser):
    player = Player(browser, live)
    try:
        player.create("property", ["human", "bot:random"], {})
        player.open_seat(0)
        player.page.wait_for_selector("#resign:not([hidden])")
        # Saying no to the question changes nothing.
        asked = player.confirm_next(accept=False)
        player.page.click("#resign")
        assert asked and asked[0].startswith("Resign this game?")
        assert player.attribute("body", "data-status") == "active"
        asked = player.confirm_next(accept=True)
        player.page.click("#resign")
        player.page.wait_for_selector("body[data-status=finished]", timeout=15_000)
        player.page.wait_for_selector("#result:not([hidden])")
        assert player.attribute("#result-reason", "data-reason") == "resignation"
        cells = player.page.locator("#result-table tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        # No scores: the rules never reached their end. The resigned seat is last, and marked.
        assert cells == [["1", "seat 1 (bot random)", ""], ["2", "seat 0", "resigned"]], cells
        assert player.page.locator("#resign").is_hidden() and player.page.locator("#rematch").is_visible()
        assert player.errors == [], player.errors
    finally:
        player.close()


def test_abort_refused_once_everyone_moved_shows_the_servers_code_and_sentence(live, browser):
    """The page does not learn of the moves (its stream is held): it still offers abort, and the
    server's refusal is shown as any refused click is; the page then reads the game again."""
    created = api_game(live, {"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]})
    game = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    player = Player(browser, live)
    try:
        held = player.hold_streams(let_first_through=False)
        player.page.goto(f"{live}/play#game={game}&token={tokens[0]}")
        player.page.wait_for_selector("body[data-ready=game]")
        player.page.wait_for_selector("#abort:not([hidden])")
        moved: set[int] = set()
        while moved != {0, 1}:
            shown = requests.get(f"{live}/games/{game}", timeout=10).json()
            seat = shown["to_act"][0]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            listing = requests.get(f"{live}/games/{game}/moves", headers=headers, timeout=10).json()
            body = {"move": listing["moves"][0]["move"], "version": listing["version"]}
            assert api_post(live, f"/games/{game}/actions", tokens[seat], body).ok
            moved.add(seat)
        confirm = player.confirm_next(accept=True)
        player.page.click("#abort")
        player.page.wait_for_selector("#refusal:not([hidden]) code")
        assert confirm and player.text("#refusal code") == "abort_refused"
        assert "Refused (409)" in player.text("#refusal strong")
        assert "resign instead" in player.text("#refusal .detail")
        # The page read the game again: abort is no longer offered, resign still is.
        player.page.wait_for_selector("#abort[hidden]", state="attached")
        assert player.page.locator("#resign").is_visible()
        assert player.attribute("body", "data-status") == "active"
        # The only console error is the refused request's own line.
        assert [e for e in player.errors if "409" not in e] == [] and len(player.errors) == 1
        assert held  # the page's stream never got through: what it knew, it read itself
    finally:
        player.close()
        api_post(live, f"/games/{game}/resign", tokens[0])


def test_a_player_leaves_a_waiting_game_and_the_seat_is_open_again(live, browser):
    host = Player(browser, live)
    guest = Player(browser, live)
    try:
        game = host.create("property", ["human", "open", "open"], {})
        link = host.attribute("#join-link", "href")
        host_token = host.open_seat(0).split("&token=", 1)[1]
        host.page.wait_for_selector("#live-status[data-state=live]")
        assert host.page.locator("#leave").is_visible()  # the host may leave too: the game waits
        guest.page.goto(link)
        guest.page.wait_for_selector("body[data-ready=join]")
        guest.page.fill("#join-name", "Di")
        guest.page.click("button.take-seat[data-seat='2']")
        guest.page.wait_for_selector(f"body[data-ready=game][data-game='{game}'][data-status=waiting]")
        token = guest.page.url.split("&token=", 1)[1]
        host.page.wait_for_selector("#waiting-seats li.taken-seat[data-seat='2']")
        assert host.text("#waiting-seats li[data-seat='2']") == "seat 2: Di"

        guest.page.click("#leave")
        # The token no longer works: the page watches as a spectator, with no token in its URL.
        guest.page.wait_for_selector("body[data-ready=game]")
        guest.page.locator("#game-status", has_text="You are watching as a spectator.").wait_for()
        assert "token=" not in guest.page.url and guest.page.locator("#leave").is_hidden()
        headers = {"Authorization": f"Bearer {token}"}
        assert requests.get(f"{live}/games/{game}", headers=headers, timeout=10).status_code == 401
        host.page.wait_for_selector("#waiting-seats li.open-seat[data-seat='2']")
        host.page.locator("#live li", has_text="seat left").wait_for()
        assert host.attribute("body", "data-status") == "waiting"
        assert host.errors == [] and guest.errors == [], (host.errors, guest.errors)
    finally:
        host.close()
        guest.close()
        api_post(live, f"/games/{game}/abort", host_token)  # not left waiting in the store


def test_a_resigned_seat_of_three_is_played_on_by_a_bot(own_live, browser):
    """Seat 0 resigns; seat 1 is a human who does not play (the game waits for them, so the page
    is seen going on without its player), then resigns too, and the bots play the game out (on
    a server of its own: a game of bots only waits behind the suite's human games elsewhere)."""
    live, _ = own_live
    player = Player(browser, live)
    try:
        game = player.create("property", ["human", "human", "bot:random"], {})
        idle_token = player.attribute("a.seat-link[data-seat='1']", "href").split("&token=", 1)[1]
        player.open_seat(0)
        player.page.wait_for_selector("#resign:not([hidden])")
        player.confirm_next(accept=True)
        player.page.click("#resign")
        player.page.locator("#moves-note", has_text="You resigned: a bot plays your seat").wait_for()
        assert player.page.locator("#resign").is_hidden() and player.page.locator("#abort").is_hidden()
        assert "seat 0 (bot greedy)" in player.text("#game-status")  # the stand-in's level
        # The stand-in plays seat 0's turns; the page never offers them, until seat 1 is to act.
        deadline = time.monotonic() + 20
        while requests.get(f"{live}/games/{game}", timeout=10).json()["to_act"] != [1]:
            assert time.monotonic() < deadline, "the bots did not hand the turn to seat 1"
            assert player.page.locator("#moves button.move").count() == 0
            time.sleep(0.1)
        assert player.page.locator("#moves button.move").count() == 0
        assert api_post(live, f"/games/{game}/resign", idle_token).ok
        player.page.wait_for_selector("body[data-status=finished]", timeout=45_000)
        player.page.wait_for_selector("#result:not([hidden])")
        cells = player.page.locator("#result-table tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        # The seat that stayed first; then the last to resign; the first to resign last.
        assert [row[:2] for row in cells] == [
            ["1", "seat 2 (bot random)"],
            ["2", "seat 1 (bot greedy)"],
            ["3", "seat 0 (bot greedy)"],
        ], cells
        assert cells[1][2].endswith("resigned") and cells[2][2].endswith("resigned"), cells
        assert player.page.locator("#rematch").is_visible()
        assert player.errors == [], player.errors
    finally:
        player.close()
