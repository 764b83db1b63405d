"""Tom, the automaton of the solo rules ("Vous contre TOM"), played by the engine.

Rules NYC-TOM-*. Tom is a player without a seat: he has a press pawn, skyscrapers, characters
and Dollars, but no player board, no hand and no reserve of two cards; all his cards form his
"reserve", which lies open (reading: the humans run Tom, so they see his cards). His level is a
mode (A, B, C: how many cards he draws before each bidding round and what he keeps) and a
number of cards drawn in Phase I (2–9); the rulebook's table names twelve levels.
"""

from __future__ import annotations

from ..core import event
from . import board as b
from . import cards as c
from . import press
from .table import Events, Player, Table

# The rulebook's table: level -> (mode, cards drawn in Phase I). Easy 1–4, medium 5–8, hard 9–12.
TOM_LEVELS = {
    1: ("A", 6),
    2: ("B", 3),
    3: ("C", 2),
    4: ("A", 7),
    5: ("B", 4),
    6: ("C", 3),
    7: ("A", 8),
    8: ("B", 5),
    9: ("C", 4),
    10: ("A", 9),
    11: ("B", 6),
    12: ("C", 5),
}
RECOMMENDED_LEVEL = 5  # "Pour débuter, nous vous recommandons la combinaison B4"
TOM_JOKERS = frozenset({c.JOKER, c.PLANS})  # Building plans are always jokers for Tom


class TomMixin(Table):
    # ---- Phase I (rule NYC-TOM-PHASE1) ----------------------------------------------------------
    def _tom_takes_pairs(self, ev: Events) -> None:
        """Tom gets a remaining pair, then draws as many cards as his level says."""
        for p in reversed(press.order(self.press)):
            player = self.players[p]
            if not player["tom"]:
                continue
            if self.pairs:
                pair = self.pairs.pop(0)
                player["reserve"].extend(pair)
                ev.append(event("pair_taken", player=p, cards=list(pair)))
            drawn = self._draw(self.tom_cards, ev)
            player["reserve"].extend(drawn)
            ev.append(event("tom_drew", player=p, cards=c.sort_cards(drawn)))

    # ---- Phase II: the draw before each bidding round (rule NYC-TOM-DRAW) --------------------------
    def _tom_draws(self, p: int, r: int, ev: Events) -> None:
        if self.tom_mode == "A":
            return
        drawn = self._draw(1, ev)
        if not drawn:
            return
        card = drawn[0]
        player = self.players[p]
        kind = c.BIDDING_ROUNDS[r]
        playing = kind != c.PLANS  # Tom does not take part in the Building plans round
        if card in TOM_JOKERS:
            if playing and kind in player["reserve"]:
                where = "played"  # a joker is played at once if a card of the round joins it
                player["staged"].append(card)
            else:
                where = "reserve"
                player["reserve"].append(card)
        elif card == kind:
            where = "played"
            player["staged"].append(card)
        elif c.BIDDING_ROUNDS.index(card) < r or self.tom_mode == "B":
            where = "discarded"  # a past round's card, or a future one in mode B
            self.discard.append(card)
        else:
            where = "reserve"  # mode C keeps a card of a later round
            player["reserve"].append(card)
        ev.append(event("tom_drew", player=p, cards=[card], placed=where))

    # ---- Phase II: Tom's bid (rule NYC-TOM-BID) -----------------------------------------------------
    def _tom_bids(self, p: int, ev: Events) -> None:
        player = self.players[p]
        r = self.current_bidding()["round"]
        kind = c.BIDDING_ROUNDS[r]
        if kind == c.PLANS:
            self.current_bidding()["bids"][p] = None
            return
        if kind == c.SKYSCRAPERS:
            played, value = self._tom_last_bid(player)
        else:
            played = list(player["staged"]) + [card for card in player["reserve"] if card == kind]
            value = len(played)
            jokers = [card for card in player["reserve"] if card in TOM_JOKERS]
            # Jokers only with a card of the round, and only if they win Tom the bonus.
            if value and not self._tom_wins(p, value):
                needed = next((k for k in range(1, len(jokers) + 1) if self._tom_wins(p, value + k)), 0)
                played += jokers[:needed]
                value += needed
        for card in played:
            if card in player["staged"]:
                player["staged"].remove(card)
            else:
                player["reserve"].remove(card)
        # Anything still staged (a joker that found no card of the round) cannot happen: a
        # joker is staged only beside a card of the round, and both are played here.
        if value:
            cards = c.sort_cards(played)
            self.table.extend(cards)
            self.current_bidding()["bids"][p] = {
                "value": value,
                "cards": cards,
                "double": False,
                "characters": [],
            }
            ev.append(event("bid", player=p, round=kind, value=value, cards=cards, characters=[]))
        else:
            self.current_bidding()["bids"][p] = None
            ev.append(event("passed", player=p, round=kind))

    def _tom_last_bid(self, player: Player) -> tuple[list[str], int]:
        """The Skyscrapers round: Tom plays every card left. Without a Skyscrapers card, two
        jokers stand for one; a single joker left alone is discarded."""
        cards = list(player["staged"]) + list(player["reserve"])
        towers = [card for card in cards if card == c.SKYSCRAPERS]
        jokers = [card for card in cards if card in TOM_JOKERS]
        others = [card for card in cards if card != c.SKYSCRAPERS and card not in TOM_JOKERS]
        self.discard.extend(others)  # none in practice: every card of a past round was played
        for card in others:
            (player["staged"] if card in player["staged"] else player["reserve"]).remove(card)
        if towers:
            return towers + jokers, len(towers) + len(jokers)
        if len(jokers) >= 2:
            return jokers, len(jokers) - 1
        if jokers:
            self.discard.extend(jokers)
            for card in jokers:
                (player["staged"] if card in player["staged"] else player["reserve"]).remove(card)
        return [], 0

    def _tom_wins(self, p: int, value: int) -> bool:
        """Whether a bid of ``value`` beats every bid made so far (ties: ahead on the press)."""
        standing = press.standing(self.press)
        for q, bid in enumerate(self.current_bidding()["bids"]):
            if q == p or not bid:
                continue
            if bid["value"] > value or (bid["value"] == value and standing[q] < standing[p]):
                return False
        return True

    # ---- the actions (rules NYC-TOM-CHARACTERS, NYC-TOM-PRESTIGE, NYC-TOM-SKYSCRAPERS) ---------------
    def _tom_takes_character(self, p: int, limit: int, ev: Events) -> None:
        """The leftmost character of the highest value his bid reaches (reading: a lower row
        when that one is empty)."""
        for floor in range(limit - 1, -1, -1):
            if self.display[floor]:
                number = self.display[floor][0]
                revealed = self._take_from_elevator(number)
                self._receive_character(p, number)
                ev.append(event("character_taken", player=p, character=number, revealed=revealed))
                return

    def tom_prestige_choice(self, p: int) -> tuple[int, int, int] | None:
        """Tom's district, connection and tile for a prestige bonus (solo rules, steps 1–4)."""
        open_tiles = self.prestige_open
        vehicles = {b.TILE_VEHICLE[t] for t in open_tiles}
        usable = [conn for conn in self.connections if b.CONNECTION_VEHICLE[conn] in vehicles]
        if not usable:
            return None
        # 1. Only districts reached by a vehicle shown on the tiles and still on the board.
        districts = sorted({d for conn in usable for d in b.CONNECTION_ENDS[conn]})
        # 2. The fewest of Tom's skyscrapers; 3. the highest letter.
        fewest = min(self.towers[d][p] for d in districts)
        districts = [d for d in districts if self.towers[d][p] == fewest]
        district = max(districts, key=lambda d: b.LETTER_RANK[self.letters[d]])
        # 4. Of several vehicles there, the one linking it to district X. Reading, when that
        # does not settle it: the vehicle of the higher tile, then the other end's higher letter.
        here = [conn for conn in usable if district in b.CONNECTION_ENDS[conn]]

        def other_end(conn: int) -> int:
            a, z = b.CONNECTION_ENDS[conn]
            return z if a == district else a

        def best_tile(vehicle: str) -> int:
            same = [t for t in open_tiles if b.TILE_VEHICLE[t] == vehicle]
            return max(same, key=lambda t: (b.TILE_VALUE[t], -t))

        conn = max(
            here,
            key=lambda k: (
                self.letters[other_end(k)] == "X",
                b.TILE_VALUE[best_tile(b.CONNECTION_VEHICLE[k])],
                b.LETTER_RANK[self.letters[other_end(k)]],
                -k,
            ),
        )
        # Of two tiles of that colour, Tom gets the higher.
        return best_tile(b.CONNECTION_VEHICLE[conn]), conn, district

    def _tom_prestige(self, p: int, ev: Events) -> None:
        choice = self.tom_prestige_choice(p)
        if choice is None:
            return
        tile, conn, d = choice
        self._place_prestige(p, tile, conn, d, ev)
        self._tom_builds_in(p, d, 1, ev, "prestige")

    def _tom_builds(self, p: int, count: int, ev: Events) -> None:
        self._tom_builds_in(p, self.mayor, count, ev, "skyscrapers")

    def _tom_builds_in(self, p: int, d: int, count: int, ev: Events, reason: str) -> None:
        """Tom's skyscrapers come from the supply; never more than 5 of his in a district."""
        player = self.players[p]
        placed = max(0, min(count, player["supply"], b.TOM_TOWER_CAP - self.towers[d][p]))
        player["supply"] -= placed
        self.towers[d][p] += placed
        if placed:
            ev.append(
                event(
                    "skyscrapers_built", player=p, district=b.DISTRICTS[d], skyscrapers=placed, reason=reason
                )
            )
