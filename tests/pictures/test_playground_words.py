"""The playground's own words (``GET /play/words.json``): the ``playground.*`` messages of each
language's catalogue, negotiated like every route, and every id the page asks for is there.

The page applies them to the elements marked ``data-i18n`` (and ``data-i18n-<attribute>``) and
builds every sentence with ``t(id, params)``: the ids named in index.html and play.js are read
from the files, so a word added to the page without its message fails here, in every language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.core.messages import languages
from engines.registry import GAMES

STATIC = Path(__file__).resolve().parents[2] / "service" / "http" / "static" / "play"


def _words(client, **kwargs):
    response = client.get("/play/words.json", **kwargs)
    assert response.status_code == 200
    return response


def test_french_and_english_have_the_same_ids(client):
    english = _words(client, headers={"Accept-Language": "en"}).get_json()
    french = _words(client, headers={"Accept-Language": "fr-CA;q=0.9, en;q=0.8"}).get_json()
    assert (english["language"], french["language"]) == ("en", "fr")
    assert set(english["words"]) == set(french["words"]) and len(english["words"]) > 100
    assert english["languages"] == french["languages"] == {"en": "English", "fr": "Français"}
    for word, said in english["words"].items():
        assert (
            french["words"][word] != said
            or not re.search(r"[^\W\d_]", str(said))
            or word
            in {
                "setup.options",  # "Options" is French too
                "replay.version",
                "move_type.prestige",
            }
        ), word
    # A plural word comes by the browser's plural categories (Intl.PluralRules), French's "many" too.
    assert set(english["words"]["moves.count"]) == {"one", "other"}
    assert set(french["words"]["moves.count"]) == {"one", "many", "other"}
    assert french["words"]["moves.count"]["one"].startswith("{count} coup ")


def test_the_language_is_negotiated_and_said(client):
    for asked, spoken in (
        ({"headers": {"Accept-Language": "fr-FR"}}, "fr"),
        ({}, "en"),
        ({"headers": {"Accept-Language": "de, *"}}, "en"),
        ({"query_string": {"lang": "fr"}, "headers": {"Accept-Language": "en"}}, "fr"),
    ):
        response = _words(client, **asked)
        assert response.headers["Content-Language"] == spoken
        assert response.get_json()["language"] == spoken
        assert "Accept-Language" in response.headers["Vary"]
    french = _words(client, headers={"Accept-Language": "fr"})
    english = _words(client, headers={"Accept-Language": "en"})
    assert french.headers["ETag"] != english.headers["ETag"]
    held = french.headers["ETag"]
    again = client.get("/play/words.json", headers={"Accept-Language": "fr", "If-None-Match": held})
    assert again.status_code == 304
    stale = client.get("/play/words.json", headers={"Accept-Language": "en", "If-None-Match": held})
    assert stale.status_code == 200 and stale.get_json()["language"] == "en"


def _asked_ids() -> set[str]:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "play.js").read_text(encoding="utf-8")
    asked = set(re.findall(r'data-i18n(?:-[a-z-]+)?="([a-z_.]+)"', html))
    asked |= set(re.findall(r'\bt\(\s*"([a-z_.]+)"', script))
    return asked


@pytest.mark.parametrize("language", languages())
def test_every_word_the_page_asks_for_is_there(client, language):
    words = _words(client, query_string={"lang": language}).get_json()["words"]
    asked = _asked_ids()
    assert len(asked) > 100
    assert sorted(asked - set(words)) == []
    # The moves are grouped by type, each group named: every title's types have a name.
    states = [game.setup(min(game.seat_counts()), {}, seed=1) for game in GAMES.values()]
    types = {kind for state in states for kind in state.move_types}
    assert sorted(f"move_type.{kind}" for kind in types if f"move_type.{kind}" not in words) == []
    # So are the bot levels of the catalog.
    catalog = client.get("/catalog").get_json()
    levels = {level["level"] for entry in catalog["titles"] for level in entry["levels"]}
    assert sorted(level for level in levels if f"level.{level}" not in words) == []
    # The seat events of the log are named too (the page's SEAT_EVENTS).
    script = (STATIC / "play.js").read_text(encoding="utf-8")
    seat_events = re.search(r"const SEAT_EVENTS = new Set\(\[(.*?)\]\)", script, re.S).group(1)
    for event in re.findall(r'"([a-z_]+)"', seat_events):
        assert f"event.{event}" in words, event


def test_the_page_marks_its_words_and_asks_for_them(client):
    html = client.get("/play").get_data(as_text=True)
    # No English sentence left outside a marked element: every text node of the body's markup
    # sits in an element with data-i18n (or is a code, a link's address, a symbol).
    body = re.sub(r"<!--.*?-->", "", html.split("<body>", 1)[1], flags=re.S)
    marked_out = re.sub(r'<([a-z0-9]+)[^>]*data-i18n="[^"]*"[^>]*>[^<]*<', "><", body)
    unmarked = [
        text.strip()
        for text in re.findall(r">([^<>]+)<", marked_out)
        if re.search(r"[A-Za-z]{3,}", text) and text.strip() != "openapi.json"  # an address
    ]
    assert unmarked == []
    assert 'id="language"' in html
