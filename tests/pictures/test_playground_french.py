"""The playground in French (headless Chromium, a browser that prefers French, against a live
gunicorn and RQ worker): Property created and played by clicks, then to its end over HTTP with the
seat's token while the page watches. At every stage the page says ``<html lang="fr">``, its console
stays quiet (a word the catalogue lacks would say so there), and its visible text holds no English
word of the labels' vocabulary (tests/engines/test_languages.py's list). The switch then turns the
page to English, and the choice outlives a reload.
"""

from __future__ import annotations

import random
import re
import time

import requests

from tests.engines.test_languages import ENGLISH_WORDS
from tests.pictures.test_playground import STALL_SECONDS, Page, play_side_by_side

# A few clicks are enough: every listing is the server's French; the rest is played over HTTP.
FRENCH_CLICKS = 8
# A placeholder or a message id left on the page (playground.moves.count, {count}).
UNSAID = re.compile(r"\{\w+\}|\b[a-z_]+\.[a-z_]+\.[a-z_.]+\b")


class FrenchBrowser:
    """The browser as a French reader's: its Accept-Language and navigator.language say fr-FR."""

    def __init__(self, browser) -> None:
        self.browser = browser

    def new_page(self, **options):
        return self.browser.new_page(locale="fr-FR", **options)


def _reads_french(tab: Page, where: str) -> None:
    page = tab.page
    assert page.locator("html").get_attribute("lang") == "fr", where
    text = page.locator("body").inner_text()
    english = sorted({word.group(0) for word in ENGLISH_WORDS.finditer(text)})
    assert english == [], f"{where}: English words {english} in {text!r}"
    assert not UNSAID.search(text), (where, UNSAID.search(text))


def test_a_french_reader_plays_property_in_french_and_switches_to_english(live, browser, artifacts):
    tab = Page(FrenchBrowser(browser), live)
    try:
        tab.create("property", ["human", "bot:random"], {})
        _reads_french(tab, "the new game's page")
        assert tab.page.locator("#create").inner_text() == "Créer la partie"
        href = tab.open_seat(0)
        tab.page.wait_for_selector("#moves button.move:not([disabled])")
        _reads_french(tab, "the game's first listing")
        # The labels are the server's French ones: the page asked /moves in French.
        game, token = (part.split("=", 1)[1] for part in href.split("#", 1)[1].split("&"))
        compared = False
        for _ in range(20):  # the bot may move meanwhile: the page's listing and the server's, same version
            listed = requests.get(
                f"{live}/games/{game}/moves",
                headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"},
                timeout=10,
            ).json()
            if tab.page.locator("#moves").get_attribute("data-version") == str(listed["version"]):
                shown = tab.page.locator("#moves button.move").all_inner_texts()
                assert shown == [entry["label"] for entry in listed["moves"]]
                compared = True
                break
            time.sleep(0.2)
        assert compared
        rng = random.Random(64)
        clicks = 0
        while clicks < FRENCH_CLICKS and not tab.finished():
            tab.page.wait_for_selector(
                "#moves button.move:not([disabled]), body[data-status=finished]", timeout=STALL_SECONDS * 1000
            )
            if tab.click_a_move(rng):
                clicks += 1
        _reads_french(tab, f"after {clicks} clicks")
        play_side_by_side(live, [href])
        tab.page.wait_for_selector("body[data-status=finished]", timeout=STALL_SECONDS * 1000)
        tab.page.wait_for_selector("#result:not([hidden])")
        tab.page.wait_for_selector("#live-status[data-state=closed]")
        _reads_french(tab, "the finished game")
        assert tab.page.locator("#moves-note").inner_text() == "La partie est terminée."
        french = requests.get(f"{live}/play/words.json", headers={"Accept-Language": "fr"}, timeout=10).json()
        heads = [french["words"][f"result.{column}"] for column in ("rank", "seat", "score")]
        assert tab.page.locator("#result-table thead").inner_text().split() == heads
        tab.page.screenshot(path=str(artifacts / "play-property-fr.png"), full_page=True)
        assert clicks > 0 and tab.errors == [], (clicks, tab.errors, tab.refused)

        # The switch: the same game, in English, and so it stays after a reload.
        with tab.page.expect_navigation():
            tab.page.select_option("#language", "en")
        tab.page.wait_for_selector("body[data-ready=game]")
        tab.page.wait_for_selector("body[data-status=finished]")
        assert tab.page.locator("html").get_attribute("lang") == "en"
        assert tab.page.locator("#moves-note").inner_text() == "The game is over."
        assert tab.page.locator("#result-table thead").inner_text().split() == ["Rank", "Seat", "Score"]
        tab.page.goto(live + "/play")
        tab.page.wait_for_selector("body[data-ready=setup]")
        assert tab.page.locator("html").get_attribute("lang") == "en"
        assert tab.page.locator("#create").inner_text() == "Create the game"
        assert tab.page.locator("#language").input_value() == "en"
        assert tab.errors == [], tab.errors
    finally:
        tab.page.close()
