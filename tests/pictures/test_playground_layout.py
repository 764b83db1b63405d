"""The playground's form fits its page (headless Chromium against a live gunicorn): the seats'
selectors, as wide as their longest bot description if let be, stay inside their box at a
laptop's 1300 px as on a phone's 420 px, and the page never scrolls sideways. A screenshot of
each width goes to the test artifacts."""

from __future__ import annotations

import pytest

from engines.registry import GAMES

# The title with the most seats: the most rows, and bots of every level to choose from.
TITLE = max(GAMES, key=lambda title: GAMES[title].max_seats)

MEASURE = """() => {
  const box = document.querySelector('#seats').getBoundingClientRect();
  const inside = (e) => {
    const r = e.getBoundingClientRect();
    return r.left >= box.left && r.right <= box.right;
  };
  return {
    rows: [...document.querySelectorAll('.seat-row')].map((row) =>
      [...row.children].filter((e) => !e.hidden).every(inside)),
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    box: box.right <= document.documentElement.clientWidth,
  };
}"""


@pytest.mark.parametrize("width", [1300, 420])
def test_the_seat_selectors_stay_inside_their_box(live, browser, artifacts, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(f"{live}/play")
        page.wait_for_selector(".seat-row")
        page.select_option("#title", TITLE)
        page.select_option("#seat-count", str(GAMES[TITLE].max_seats))
        page.select_option("select[name=seat-1-kind]", "open")  # its name box shows too
        page.wait_for_function(f"document.querySelectorAll('.seat-row').length === {GAMES[TITLE].max_seats}")
        page.screenshot(path=str(artifacts / f"playground-seats-{width}px.png"))
        measured = page.evaluate(MEASURE)
        assert all(measured["rows"]), f"a seat's row runs past its box at {width} px: {measured}"
        assert measured["box"], f"the seats' box runs past the page at {width} px"
        scroll, client = measured["page"]
        assert scroll <= client, f"the page scrolls sideways at {width} px ({scroll} > {client})"
    finally:
        page.close()
