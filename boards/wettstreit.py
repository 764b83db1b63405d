"""Wettstreit der Baumeister: each seat's city as a row of building cards, the two piles,
the auction and the sabotage under way. Card values, coins and shields come from the
engine's card table (coins and shields are reconstructed there)."""

from __future__ import annotations

from typing import Any

from engines.wettstreit import material

from .frame import fact_rows, seat_name
from .svg import Canvas, seat_colour
from .words import Words

NAME = "Wettstreit der Baumeister"
BOARD_KEYS = frozenset({"face_up", "face_down", "auction", "sabotage", "bank", "die", "options"})
KIND_FILL = {
    material.LEFT_CORNER: "#d9d2e9",
    material.RIGHT_CORNER: "#d9d2e9",
    material.TOWER: "#b4a7d6",
    material.GATE: "#ffe599",
    material.TOWN_HALL: "#f9cb9c",
    material.CATHEDRAL: "#a4c2f4",
}
CITY_ROW = 10  # buildings drawn side by side before the city goes on below

SHORT = {
    material.LEFT_CORNER: "L-corner",
    material.RIGHT_CORNER: "R-corner",
    material.TOWER: "tower",
    material.GATE: "gate",
    material.TOWN_HALL: "town hall",
    material.CATHEDRAL: "cathedral",
}


def _symbols(card: str) -> str:
    return "$" * material.COINS[card] + "◆" * material.SHIELDS[card]


def _short(card: str, words: Words) -> str:
    """A card's face: its kind, shortened, and its value."""
    kind = material.KIND[card]
    return f"{words.known(f'boards.wettstreit.short.{kind}', SHORT[kind])} {material.VALUE[card]}"


def _kind(kind: str, words: Words) -> str:
    return words.known(f"boards.wettstreit.kind.{kind}", material.KIND_NAMES[kind])


def _name(card: str, words: Words) -> str:
    """A card's kind and value (``material.card_text`` in the reader's words)."""
    return f"{_kind(material.KIND[card], words)} {material.VALUE[card]}"


def _pile(pile: str, words: Words) -> str:
    return words.known(f"boards.wettstreit.pile.{pile}", pile.replace("_", "-"))


def _draw_card(canvas: Canvas, x: float, y: float, card: str, words: Words) -> None:
    kind = material.KIND[card]
    canvas.card(x, y, _short(card, words), card, KIND_FILL[kind], 70, 40, _symbols(card))


def _card_text(card: str, words: Words) -> str:
    symbols = _symbols(card)
    return _name(card, words) + (f" [{symbols}]" if symbols else "")


def _kinds(known: list[dict[str, Any]], words: Words) -> str:
    return ", ".join(f"{k['depth'] + 1}: {_kind(k['kind'], words)}" for k in known)


def _pile_rows(view: dict[str, Any], words: Words) -> list[str]:
    rows = []
    for pile in material.PILES:
        shown = view[pile]
        known = ", ".join(f"{k['depth'] + 1}: {_name(k['card'], words)}" for k in shown["known"])
        rows.append(
            words("boards.wettstreit.pile", pile=_pile(pile, words), size=shown["size"])
            + (words("boards.wettstreit.top", card=_name(shown["top"], words)) if shown.get("top") else "")
            + (words("boards.wettstreit.known", cards=known) if known else "")
            + (
                words("boards.wettstreit.known_kinds", kinds=_kinds(shown["known_kinds"], words))
                if shown.get("known_kinds")
                else ""
            )
        )
    rows.append(
        words(
            "boards.wettstreit.bank", bank=view["bank"], die=view["die"] if view["die"] is not None else "-"
        )
    )
    auction = view.get("auction")
    if auction:
        card = auction.get("card")
        rows.append(
            words(
                "boards.wettstreit.auction",
                pile=_pile(auction["pile"], words),
                card=f" {_name(card, words)}" if card else "",
                seat=auction["auctioneer"],
                bid=auction.get("high_bid"),
                bidder=auction.get("high_bidder"),
            )
        )
    sabotage = view.get("sabotage")
    if sabotage:
        rows.append(
            words(
                "boards.wettstreit.sabotage",
                saboteur=sabotage["saboteur"],
                target=sabotage["target"],
                slot=sabotage["slot"] + 1,
                card=_name(sabotage["card"], words),
                die=sabotage["die"],
            )
        )
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    y = top
    for pile, x in ((material.FACE_UP, 16), (material.FACE_DOWN, 110)):
        shown_pile = view[pile]
        if shown_pile.get("top"):
            _draw_card(canvas, x, y, shown_pile["top"], words)
        else:
            back = (
                words("boards.wettstreit.face_down")
                if shown_pile["size"]
                else words("boards.wettstreit.empty")
            )
            canvas.card(x, y, back, fill="#8d6e63", w=70)
        canvas.text(x, y + 56, f"{_pile(pile, words)}: {shown_pile['size']}", 11)
    auction = view.get("auction")
    if auction and auction.get("card"):
        canvas.text(210, y + 12, words("boards.wettstreit.on_auction"), 11)
        _draw_card(canvas, 210, y + 16, auction["card"], words)
    bottom = canvas.lines(300, y - 4, _pile_rows(view, words), 12, 5)
    # Cards known inside the piles, by depth (the top is depth 1).
    known = [(pile, k) for pile in material.PILES for k in view[pile]["known"]]
    for index, (pile, k) in enumerate(known):
        _draw_card(canvas, 300 + index * 76, bottom + 8, k["card"], words)
        canvas.text(300 + index * 76, bottom + 60, f"{_pile(pile, words)} {k['depth'] + 1}", 9)
    y = max(y + 86, bottom + 76 if known else 0)
    for player in view["players"]:
        seat = player["seat"]
        canvas.rect(16, y, 12, 40, fill=seat_colour(seat))
        canvas.text(34, y + 14, seat_name(shown, seat, words), 12, font_weight="bold")
        canvas.text(34, y + 32, words("boards.wettstreit.city", value=player["city_value"]), 11)
        for slot, card in enumerate(player["city"]):
            row, column = divmod(slot, CITY_ROW)
            x, top = 200 + column * 76, y + row * 46
            if card is None:  # a gap left by sabotage
                canvas.rect(x, top, 70, 40, stroke="#999999", stroke_dasharray="4 3")
            else:
                _draw_card(canvas, x, top, card, words)
        if not player["city"]:
            canvas.text(200, y + 24, words("boards.wettstreit.no_building"), 11)
        y += 50 + 46 * max(0, (len(player["city"]) - 1) // CITY_ROW)
    return y


def hand_cards(player: dict[str, Any], words: Words) -> list[tuple[str, str, str]]:
    """The hand the view shows: all of it (yours, or every hand at the end), else the cards of
    it you know (each copy by its id: copies are told apart by the engine)."""
    cards = player.get("hand", player.get("known_cards", []))
    return [(_short(card, words), card, KIND_FILL[material.KIND[card]]) for card in cards]


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    rows = list(_pile_rows(view, words))
    for player in view["players"]:
        city = " | ".join(
            words("boards.wettstreit.gap") if card is None else _card_text(card, words)
            for card in player["city"]
        )
        city = city or words("boards.wettstreit.no_building")
        rows.append(
            words(
                "boards.wettstreit.city_row",
                seat=seat_name(shown, player["seat"], words),
                value=player["city_value"],
                city=city,
            )
        )
    return rows


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    rows = [
        words(
            "boards.wettstreit.holdings",
            value=player["city_value"],
            shields=player["shields"],
            coins=player["coins"],
            saboteurs=player["saboteurs"],
            hand=player["hand_size"],
        )
        + (words("boards.wettstreit.money", money=player["money"]) if "money" in player else "")
    ]
    if "hand" in player:
        cards = ", ".join(_card_text(card, words) for card in player["hand"])
        rows.append(words("boards.hand", cards=cards or words("boards.none")))
    if player.get("known_cards"):
        known = ", ".join(_name(card, words) for card in player["known_cards"])
        rows.append(words("boards.known_cards", cards=known))
    rows += fact_rows(
        player,
        words,
        {
            "seat",
            "city",
            "city_value",
            "shields",
            "coins",
            "saboteurs",
            "hand_size",
            "money",
            "hand",
            "known_cards",
        },
    )
    return rows
