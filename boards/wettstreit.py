"""Wettstreit der Baumeister: each seat's city as a row of building cards, the two piles,
the auction and the sabotage under way. Card values, coins and shields come from the
engine's card table (coins and shields are reconstructed there)."""

from __future__ import annotations

from typing import Any

from engines.wettstreit import material

from .frame import fact_rows, seat_name
from .svg import Canvas, seat_colour

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


def _draw_card(canvas: Canvas, x: float, y: float, card: str) -> None:
    kind = material.KIND[card]
    canvas.card(x, y, f"{SHORT[kind]} {material.VALUE[card]}", card, KIND_FILL[kind], 70, 40, _symbols(card))


def _card_text(card: str) -> str:
    symbols = _symbols(card)
    return material.card_text(card) + (f" [{symbols}]" if symbols else "")


def _kinds(known: list[dict[str, Any]]) -> str:
    return ", ".join(f"{k['depth'] + 1}: {material.KIND_NAMES[k['kind']]}" for k in known)


def _pile_rows(view: dict[str, Any]) -> list[str]:
    rows = []
    for pile in material.PILES:
        shown = view[pile]
        known = ", ".join(f"{k['depth'] + 1}: {material.card_text(k['card'])}" for k in shown["known"])
        rows.append(
            f"{pile.replace('_', '-')} pile: {shown['size']} cards"
            + (f", top {material.card_text(shown['top'])}" if shown.get("top") else "")
            + (f"; known from the top {known}" if known else "")
            + (f"; kinds known {_kinds(shown['known_kinds'])}" if shown.get("known_kinds") else "")
        )
    rows.append(f"Bank: {view['bank']} écus · die: {view['die'] if view['die'] is not None else '-'}")
    auction = view.get("auction")
    if auction:
        card = auction.get("card")
        rows.append(
            f"Auction of the {auction['pile'].replace('_', '-')} card"
            + (f" {material.card_text(card)}" if card else "")
            + f" by seat {auction['auctioneer']}: high bid {auction.get('high_bid')} "
            f"(seat {auction.get('high_bidder')})"
        )
    sabotage = view.get("sabotage")
    if sabotage:
        rows.append(
            f"Sabotage by seat {sabotage['saboteur']} of seat {sabotage['target']}'s building "
            f"{sabotage['slot'] + 1} ({material.card_text(sabotage['card'])}), die {sabotage['die']}"
        )
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float) -> float:
    view = shown["view"]
    y = top
    for pile, x in ((material.FACE_UP, 16), (material.FACE_DOWN, 110)):
        shown_pile = view[pile]
        if shown_pile.get("top"):
            _draw_card(canvas, x, y, shown_pile["top"])
        else:
            canvas.card(x, y, "face down" if shown_pile["size"] else "empty", fill="#8d6e63", w=70)
        canvas.text(x, y + 56, f"{pile.replace('_', '-')}: {shown_pile['size']}", 11)
    auction = view.get("auction")
    if auction and auction.get("card"):
        canvas.text(210, y + 12, "on auction", 11)
        _draw_card(canvas, 210, y + 16, auction["card"])
    bottom = canvas.lines(300, y - 4, _pile_rows(view), 12, 5)
    # Cards known inside the piles, by depth (the top is depth 1).
    known = [(pile, k) for pile in material.PILES for k in view[pile]["known"]]
    for index, (pile, k) in enumerate(known):
        _draw_card(canvas, 300 + index * 76, bottom + 8, k["card"])
        canvas.text(300 + index * 76, bottom + 60, f"{pile.replace('_', '-')} {k['depth'] + 1}", 9)
    y = max(y + 86, bottom + 76 if known else 0)
    for player in view["players"]:
        seat = player["seat"]
        canvas.rect(16, y, 12, 40, fill=seat_colour(seat))
        canvas.text(34, y + 14, seat_name(shown, seat), 12, font_weight="bold")
        canvas.text(34, y + 32, f"city {player['city_value']}", 11)
        for slot, card in enumerate(player["city"]):
            row, column = divmod(slot, CITY_ROW)
            x, top = 200 + column * 76, y + row * 46
            if card is None:  # a gap left by sabotage
                canvas.rect(x, top, 70, 40, stroke="#999999", stroke_dasharray="4 3")
            else:
                _draw_card(canvas, x, top, card)
        if not player["city"]:
            canvas.text(200, y + 24, "no building yet", 11)
        y += 50 + 46 * max(0, (len(player["city"]) - 1) // CITY_ROW)
    return y


def hand_cards(player: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The hand the view shows: all of it (yours, or every hand at the end), else the cards of
    it you know (each copy by its id: copies are told apart by the engine)."""
    cards = player.get("hand", player.get("known_cards", []))
    return [
        (f"{SHORT[material.KIND[card]]} {material.VALUE[card]}", card, KIND_FILL[material.KIND[card]])
        for card in cards
    ]


def board_rows(shown: dict[str, Any]) -> list[str]:
    view = shown["view"]
    rows = list(_pile_rows(view))
    for player in view["players"]:
        city = " | ".join("(gap)" if card is None else _card_text(card) for card in player["city"])
        city = city or "no building yet"
        rows.append(f"{seat_name(shown, player['seat'])} city ({player['city_value']}): {city}")
    return rows


def seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    rows = [
        f"city value {player['city_value']} · shields {player['shields']} · coins {player['coins']} · "
        f"saboteurs {player['saboteurs']} · {player['hand_size']} cards in hand"
        + (f" · money {player['money']} écus" if "money" in player else "")
    ]
    if "hand" in player:
        rows.append("hand: " + (", ".join(_card_text(card) for card in player["hand"]) or "none"))
    if player.get("known_cards"):
        rows.append(
            "cards of this hand you know: " + ", ".join(map(material.card_text, player["known_cards"]))
        )
    rows += fact_rows(
        player,
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
