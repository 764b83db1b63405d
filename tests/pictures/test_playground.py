"""The playground in a real browser (headless Chromium), against a live gunicorn and RQ worker.

For every title a person's path: open /play, create a game with one human seat and random
bots, open the seat's link, play its first moves by clicking move buttons, play the rest with the
seat's token over HTTP and open the seat's link again on the finished game: the result and the
record show, and no console error was said. Two human seats in two pages see each
other's moves arrive live. And every title's pictures decode as images in Chromium.
"""

from __future__ import annotations

import base64
import random
import time

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture then skips (or fails under SKYLINE_REQUIRE_TOOLS=1)
    PlaywrightError = Exception

import requests

import boards
from boards.samples import sample, seats_meta, shown_game
from engines.registry import GAMES

# Short settings per title: the fewest seats, the quickest options; one human, random bots.
SETTINGS = {
    "fifth-avenue": (2, {}),
    "fresh-fish": (2, {"distributors": "corners"}),
    "new-york": (2, {"two_colours": True}),
    "new-york-city": (2, {}),
    "property": (2, {}),
    "wettstreit": (3, {}),
}
# The clicks are bounded by their progress, not by the clock (a total time would fail a slow
# machine and let a stall hide behind it): a title fails when no tab was offered a move for
# STALL_SECONDS (its bots or its listing stopped), or when its page does not show the end that
# long after the game's last move.
STALL_SECONDS = 90
# The clicks a person makes in each title before the rest of its game is played over HTTP with the
# seat's token while the page watches (its event stream, its redraws, the end). Whole games by
# clicks took 88 s of the suite; what a click does is the same for every move (the button's move
# posted), and every title's games are played to the end over HTTP by
# tests/contract/test_live_games.py and, through the typed client, test_generated_client.py.
BROWSER_CLICKS = 25
VIEWPORT = {"width": 1400, "height": 1000}


class Page:
    """One browser tab on the playground, recording what its console says."""

    def __init__(self, browser, url: str) -> None:
        self.page = browser.new_page(viewport=VIEWPORT)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        # The console says only "status of 409": which request it was, for the failure's message.
        self.refused: list[str] = []
        self.page.on("response", self._note_refusal)
        self.url = url

    def _note_refusal(self, response) -> None:
        if response.status >= 400:
            self.refused.append(f"{response.request.method} {response.url} {response.status}")

    def create(self, title: str, seats: list[str], options: dict) -> None:
        self.start_form(title, seats)
        self.fill_options(options)
        self.submit_form()

    def start_form(self, title: str, seats: list[str]) -> None:
        """/play's form, with the title and each seat's kind chosen."""
        page = self.page
        page.goto(self.url + "/play")
        page.wait_for_selector("body[data-ready=setup]")
        page.select_option("#title", title)
        page.select_option("#seat-count", str(len(seats)))
        for seat, kind in enumerate(seats):
            page.select_option(f"select[name=seat-{seat}-kind]", kind)

    def fill_options(self, options: dict) -> None:
        for name, value in options.items():
            field = self.page.locator(f"[data-option={name}]")
            if isinstance(value, bool):
                field.set_checked(value)
            elif isinstance(value, int):
                field.fill(str(value))
            else:
                field.select_option(f'"{value}"')  # an enum's options are JSON values

    def submit_form(self) -> None:
        self.page.click("#create")
        self.page.wait_for_selector("#created:not([hidden])")

    def open_seat(self, seat: int) -> str:
        link = self.page.locator(f"a.seat-link[data-seat='{seat}']")
        href = link.get_attribute("href")
        link.click()
        self.page.wait_for_selector("body[data-ready=game]")
        return href

    def click_a_move(self, rng: random.Random) -> bool:
        """Clicks one of the listed moves, if any is listed now; says whether it did."""
        buttons = self.page.locator("#moves button.move:not([disabled])")
        try:
            # A real mouse click where the button is; without waiting for it to be "stable":
            # when the listing is redrawn under the click, the next round looks again.
            # The labels in one call, which also says whether any is listed: a call per button
            # cost a round trip to the browser each, tens per click on a long listing, and the
            # count one more a click.
            labels = buttons.all_inner_texts()
            choices = list(range(len(labels)))
            if not choices:
                return False
            # A person rarely gives up one of their own New York buildings (NY-TAKE-OWN allows
            # it); clicking such buttons as often as any other, a game would go on for hours.
            keeps = [i for i in choices if not labels[i].startswith("Lose your")]
            if keeps and rng.random() < 0.9:
                choices = keeps
            buttons.nth(rng.choice(choices)).click(force=True, timeout=2000)
        except PlaywrightError:
            return False
        return True

    def finished(self) -> bool:
        # Selectors, not scripts: the page's Content-Security-Policy forbids eval, and stays on.
        return self.page.locator("body[data-status=finished]").count() == 1


class OnePersonsBrowser:
    """One person's six tabs: pages of one browser context (one storage), as tabs of one window
    are. A context per tab cost Chromium a window of its own each (its UI's renderer among them)."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport=VIEWPORT)

    def new_page(self, **_options):
        return self.context.new_page()


def play_side_by_side(live: str, seat_links: list[str]) -> None:
    """The games of these seat links played to their end over HTTP, each seat with its token (the
    first listed move), a move to each in turn, so that one game's bots think while another's
    seat moves (two links of one game: its two seats)."""
    session = requests.Session()
    seats = []
    for link in seat_links:
        fragment = dict(part.split("=", 1) for part in link.split("#", 1)[1].split("&"))
        seats.append((fragment["game"], {"Authorization": f"Bearer {fragment['token']}"}))
    last_progress = time.monotonic()
    while seats:
        for game_id, bearer in list(seats):
            listing = session.get(f"{live}/games/{game_id}/moves", headers=bearer, timeout=10).json()
            if listing["moves"]:
                move = {"move": listing["moves"][0]["move"], "version": listing["version"]}
                session.post(f"{live}/games/{game_id}/actions", json=move, headers=bearer, timeout=30)
                last_progress = time.monotonic()
            elif session.get(f"{live}/games/{game_id}", timeout=10).json()["status"] == "finished":
                seats.remove((game_id, bearer))
        assert time.monotonic() - last_progress < STALL_SECONDS, f"no move offered: {seats}"
        time.sleep(0.02)


def test_a_person_plays_every_title_to_the_end_against_bots(live, browser, artifacts):
    """One tab per title, played side by side (while one waits for its bots, another moves),
    so that the six games take the time of the longest rather than the sum."""
    person = OnePersonsBrowser(browser)
    tabs = {title: Page(person, live) for title in sorted(SETTINGS)}
    hrefs: dict[str, str] = {}
    try:
        for title, tab in tabs.items():
            seats, options = SETTINGS[title]
            tab.create(title, ["human"] + ["bot:random"] * (seats - 1), options)
            href = tab.open_seat(0)
            assert (
                "#game=" in href and "&token=" in href and "?" not in href
            )  # the token stays in the fragment
            hrefs[title] = href
        rngs = {title: random.Random(title) for title in tabs}
        clicks = dict.fromkeys(tabs, 0)
        playing = set(tabs)
        last_progress = time.monotonic()
        while playing:
            moved = False
            for title in sorted(playing):
                tab = tabs[title]
                # A move listed means the game goes on: whether it is over is asked only when
                # none is (a round trip to the browser less a click).
                if clicks[title] >= BROWSER_CLICKS:
                    playing.discard(title)  # the rest over HTTP, below
                    moved = True
                elif tab.click_a_move(rngs[title]):
                    clicks[title] += 1
                    moved = True
                elif tab.finished():
                    playing.discard(title)
                    moved = True
            if moved:
                last_progress = time.monotonic()
            else:
                stalled = time.monotonic() - last_progress
                assert stalled < STALL_SECONDS, (
                    f"no move offered for {STALL_SECONDS} s: {sorted(playing)} (clicks {clicks})"
                )
                time.sleep(0.02)
        # The rest of each game with the seat's token, its page away meanwhile, then opened again
        # on the finished game. Six pages redrawing every move of six whole games cost about a
        # quarter of the module's CPU; a page following a game to its end (its stream, its redraws,
        # the stream closed at the end) is title-independent, and proven by
        # test_playground_seats.py's lobby game and test_playground_french.py.
        unfinished = [title for title, tab in tabs.items() if not tab.finished()]
        for title in unfinished:
            tabs[title].page.goto("about:blank")
        play_side_by_side(live, [hrefs[title] for title in unfinished])
        for title in unfinished:
            tabs[title].page.goto(live + hrefs[title])
        for title, tab in tabs.items():
            page = tab.page
            page.wait_for_selector("body[data-status=finished]", timeout=STALL_SECONDS * 1000)
            page.wait_for_selector("#result:not([hidden])")
            page.wait_for_selector("#record[data-loaded]", state="attached")
            assert '"moves"' in page.locator("#record").text_content()
            assert page.locator("#result-table tbody tr").count() >= SETTINGS[title][0]
            assert clicks[title] > 0
            page.screenshot(path=str(artifacts / f"play-{title}.png"), full_page=True)
        print(f"clicks per title: {clicks}")
        errors = {title: tab.errors + tab.refused for title, tab in tabs.items() if tab.errors}
        assert not errors, errors
    finally:
        person.context.close()


def _move_and_watch(tabs: list[Page], version: int, rng: random.Random) -> None:
    """The seat to act clicks a move (the version-th); the other page must see it arrive."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for mover in tabs:
            if mover.click_a_move(rng):
                watcher = tabs[1 - tabs.index(mover)]
                # The other page learns of it from its event stream (it never polls), and redraws.
                watcher.page.wait_for_selector(f"#live li[data-version='{version}']", timeout=10_000)
                watcher.page.wait_for_selector(f"body[data-painted='{version}']", timeout=10_000)
                return
        time.sleep(0.05)
    raise AssertionError(f"neither seat was offered a move for version {version}")


def _drops(tab: Page) -> int:
    """How many times the page's event stream dropped (the server closed it) and was resumed."""
    return int(tab.page.locator("#live-status").get_attribute("data-drops") or 0)


def test_a_second_seat_sees_the_first_seats_moves_arrive_live(live, browser, artifacts):
    first = Page(browser, live)
    second = Page(browser, live)
    try:
        first.create("property", ["human", "human"], {})
        second_href = first.page.locator("a.seat-link[data-seat='1']").get_attribute("href")
        first.open_seat(0)
        second.page.goto(live + second_href)
        second.page.wait_for_selector("body[data-ready=game]")
        second.page.wait_for_selector("#live-status[data-state=live]")
        rng = random.Random(19)
        for version in range(1, 5):
            _move_and_watch([first, second], version, rng)
        # Streams close after SKYLINE_SSE_MAX_SECONDS (5 s here); EventSource reconnects with
        # Last-Event-ID and resumes after the last version: a move after the drop still arrives,
        # and none arrives twice.
        deadline = time.monotonic() + 20
        while not all(_drops(tab) >= 1 for tab in (first, second)):
            assert time.monotonic() < deadline, "the streams did not drop after SKYLINE_SSE_MAX_SECONDS"
            time.sleep(0.1)
        _move_and_watch([first, second], 5, rng)
        for tab in (first, second):
            # The mover's own stream may still be reconnecting (EventSource waits a few seconds
            # after a drop): its copy of version 5 comes with the resumed stream.
            tab.page.wait_for_selector("#live li[data-version='5']", timeout=10_000)
            shown = tab.page.locator("#live li").evaluate_all("items => items.map(i => i.dataset.version)")
            assert sorted(shown, key=int) == ["1", "2", "3", "4", "5"]
        second.page.screenshot(path=str(artifacts / "play-second-seat.png"), full_page=True)
        assert first.errors == [] and second.errors == [], (first.errors, second.errors)
    finally:
        first.page.close()
        second.page.close()


def test_a_refused_click_shows_its_code_and_sentence(live, browser):
    """The game moves on behind the page's back (its stream is cut, and the seat plays from
    another client): the click, sent with the version it was listed at, is refused, and the
    page shows the refusal's code and sentence, then lists the moves again."""
    tab = Page(browser, live)
    try:
        tab.create("property", ["human", "human"], {})
        created = tab.page.locator("#created").get_attribute("data-game")
        to_act = requests.get(f"{live}/games/{created}", timeout=10).json()["to_act"]
        href = tab.open_seat(to_act[0])
        tab.page.route("**/games/*/events", lambda route: route.abort())
        tab.page.reload()
        tab.page.wait_for_selector("#moves button.move:not([disabled])")
        listed = int(tab.page.locator("#moves").get_attribute("data-version"))
        game, token = (part.split("=", 1)[1] for part in href.split("#", 1)[1].split("&"))
        headers = {"Authorization": f"Bearer {token}"}
        moves = requests.get(f"{live}/games/{game}/moves", headers=headers, timeout=10).json()
        assert moves["version"] == listed
        body = {"move": moves["moves"][0]["move"], "version": listed}
        assert requests.post(f"{live}/games/{game}/actions", json=body, headers=headers, timeout=10).ok
        tab.page.locator("#moves button.move:not([disabled])").first.click()
        tab.page.wait_for_selector("#refusal:not([hidden]) code")
        assert tab.page.locator("#refusal code").text_content() == "stale_version"
        assert f"not {listed}" in tab.page.locator("#refusal .detail").text_content()
        tab.page.wait_for_selector(f"#moves[data-version='{listed + 1}']", state="attached")
        # What the console said: the refused request, and the event stream the test cut.
        unexpected = [e for e in tab.errors if "409" not in e and "ERR_FAILED" not in e]
        assert unexpected == []
    finally:
        tab.page.close()


def test_every_titles_pictures_decode_in_chromium(browser):
    images = []
    for game_id, game in sorted(GAMES.items()):
        for seats in game.seat_counts():
            game, state, played = sample(game_id, seats, seed=seats, moves=40)
            for seat in (None, 0):
                svg = boards.render_svg(shown_game(game, state, seat, played, seats_meta(seats)))
                images.append((f"{game_id}-{seats}p-{seat}", base64.b64encode(svg.encode()).decode()))
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        html = "".join(f'<img id="{name}" src="data:image/svg+xml;base64,{data}">' for name, data in images)
        page.set_content(f"<!doctype html><body>{html}</body>")
        page.wait_for_function("[...document.images].every(i => i.complete)")
        broken = page.evaluate("[...document.images].filter(i => !i.naturalWidth).map(i => i.id)")
        assert broken == [], f"pictures Chromium cannot draw: {broken}"
        assert errors == []
    finally:
        page.close()
