"""What each bidding round gives: the six actions, the bonuses, character 21, the Statue.

Rules NYC-BONUS, NYC-ACTION-ORDER, NYC-ACT-PRESS, NYC-ACT-DOLLARS, NYC-ACT-CHARACTERS,
NYC-ACT-PLANS, NYC-ACT-PRESTIGE, NYC-ACT-SKYSCRAPERS, NYC-CHAR-21, NYC-STATUE. Everyone who bid
acts with the worth of the bid; the highest bid (ties: ahead on the press track, the black pawn
ignored) gets +1, or in the Prestige round a prestige tile, a vehicle and a skyscraper — and the
second-highest bid gets the other tile. Where order matters the leader on the press track acts
first.

Moves: ``take_character``; ``prestige`` (tile, connection, district, where the skyscraper comes
from, whether character 21 adds one) or ``decline``; ``build`` (where the skyscraper comes
from when the board is empty, whether character 21 adds one).
"""

from __future__ import annotations

from ..core import Move, event
from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .stages import BUILD, CHARACTER, PHASE3, PRESTIGE, REPLACE
from .table import Events, Table

BOARD, NONE = "board", "none"


class ActionsMixin(Table):
    # ---- evaluation (rule NYC-BONUS, NYC-ACTION-ORDER) ---------------------------------------
    def _bid_value(self, p: int) -> int:
        bid = self.current_bidding()["bids"][p]
        return bid["value"] if bid else 0

    def _bonus(self, p: int) -> int:
        ranking = self.current_bidding()["ranking"]
        return 1 if ranking and ranking[0] == p else 0

    def _evaluate(self, ev: Events) -> None:
        bidding = self.current_bidding()
        r = bidding["round"]
        standing = press.standing(self.press)
        bidders = [p for p in range(len(self.players)) if self._bid_value(p) > 0]
        ranking = sorted(bidders, key=lambda p: (-self._bid_value(p), standing[p]))
        bidding["ranking"] = ranking
        if ranking:
            self.starter = ranking[0]  # the winner starts the next bidding round
            ev.append(
                event(
                    "highest_bid",
                    player=ranking[0],
                    round=c.BIDDING_ROUNDS[r],
                    value=self._bid_value(ranking[0]),
                )
            )
        in_press_order = [p for p in press.order(self.press) if p in bidders]
        kind = c.BIDDING_ROUNDS[r]
        if kind == c.PRESS:
            for p in in_press_order:
                steps = self._bid_value(p) + self._bonus(p)
                space = press.move(self.press, p, steps)
                ev.append(event("press_moved", player=p, steps=steps, space=space, reason="press"))
        elif kind == c.DOLLARS:
            for p in in_press_order:
                self._take_dollars(p, self._bid_value(p) + self._bonus(p), ev, "dollars")
        elif kind == c.CHARACTERS:
            self.stage, self.queue = CHARACTER, in_press_order
            return
        elif kind == c.PLANS:
            for p in in_press_order:
                self._towers_to_board(p, self._bid_value(p) + self._bonus(p), ev, "building plans")
        elif kind == c.PRESTIGE:
            for p in in_press_order:
                bid = bidding["bids"][p]
                assert bid is not None  # p is among the bidders
                self._gain(p, bid["value"] * (2 if bid["double"] else 1), ev, "prestige")
            self.stage, self.queue = PRESTIGE, ranking[:2]
            return
        else:
            self.stage, self.queue = BUILD, in_press_order
            return
        self._after_bidding_round(ev)

    def _after_bidding_round(self, ev: Events) -> None:
        """The Statue of Liberty, the cards played discarded, then character 22 or Phase III."""
        self._check_statue(ev)
        self.discard.extend(self.table)
        self.table = []
        r = self.current_bidding()["round"]
        if r < len(c.BIDDING_ROUNDS) - 1:
            self.stage = REPLACE
            self.queue = [p for p in press.order(self.press) if self._can_use(p, 22)]
        else:
            self.stage = PHASE3
            self.queue = [p for p in press.order(self.press) if not self.players[p]["tom"]]

    def _check_statue(self, ev: Events) -> None:
        """Rule NYC-STATUE: the first players with skyscrapers in all six districts at the end
        of a bidding round score 4 at once (all of them, if several), then the tile turns."""
        if self.statue_flipped:
            return
        everywhere = [p for p in range(len(self.players)) if self._in_every_district(p)]
        for p in everywhere:
            self._gain(p, b.STATUE_FIRST, ev, "statue of liberty")
        if everywhere:
            self.statue_flipped = True
            ev.append(event("statue_flipped", players=everywhere))

    def _in_every_district(self, p: int) -> bool:
        return all(district[p] for district in self.towers)

    # ---- Characters (rule NYC-ACT-CHARACTERS) -----------------------------------------------------
    def _character_limit(self, p: int) -> int:
        return min(self._bid_value(p) + self._bonus(p), len(ch.ELEVATOR_FLOORS))

    def _step_character(self, ev: Events) -> None:
        if not self.queue:
            self._after_bidding_round(ev)
            return
        p = self.queue[0]
        if self.players[p]["tom"]:
            self._tom_takes_character(p, self._character_limit(p), ev)
            self.queue.pop(0)
        elif self._available_characters(self._character_limit(p)):
            self.actor = p
        else:
            self.queue.pop(0)  # nothing worth that little is left beside the elevator

    def _character_moves(self, seat: int) -> list[Move]:
        return [
            {"type": "take_character", "character": n}
            for n in self._available_characters(self._character_limit(seat))
        ]

    def _apply_character(self, seat: int, move: Move, ev: Events) -> None:
        number = move["character"]
        revealed = self._take_from_elevator(number)
        self._receive_character(seat, number)
        ev.append(event("character_taken", player=seat, character=number, revealed=revealed))
        self.queue.pop(0)
        self.actor = -1

    # ---- Prestige (rule NYC-ACT-PRESTIGE) ---------------------------------------------------------
    def _step_prestige(self, ev: Events) -> None:
        if not self.queue:
            # Tiles left unused go back to the box.
            self.prestige_box.extend(self.prestige_open)
            self.prestige_open = []
            self._after_bidding_round(ev)
            return
        p = self.queue[0]
        if self.players[p]["tom"]:
            self._tom_prestige(p, ev)
            self.queue.pop(0)
        elif self._prestige_placements():
            self.actor = p
        else:
            self.queue.pop(0)  # no vehicle left for the open tiles: the bonus cannot be used

    def _prestige_placements(self) -> list[tuple[int, int, int]]:
        """(tile, connection, district): a tile goes on an end of a vehicle of its colour."""
        out = []
        for tile in self.prestige_open:
            for conn in self.connections:
                if b.CONNECTION_VEHICLE[conn] == b.TILE_VEHICLE[tile]:
                    for d in b.CONNECTION_ENDS[conn]:
                        out.append((tile, conn, d))
        return out

    def _tower_sources(self, p: int, district: int) -> list[str]:
        """Where the bonus skyscraper comes from: the board; with an empty board, optionally
        one of the player's skyscrapers moved from another district."""
        if self.players[p]["board"]:
            return [BOARD]
        return [NONE] + [
            b.DISTRICTS[d] for d in range(len(b.DISTRICTS)) if d != district and self.towers[d][p]
        ]

    def _extra_choices(self, p: int, source: str) -> list[bool]:
        """Character 21: one more skyscraper from the supply, when one is placed."""
        if source != NONE and self.players[p]["supply"] and self._can_use(p, 21):
            return [False, True]
        return [False]

    def _prestige_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = []
        for tile, conn, d in self._prestige_placements():
            for source in self._tower_sources(seat, d):
                for extra in self._extra_choices(seat, source):
                    moves.append(
                        {
                            "type": "prestige",
                            "tile": tile,
                            "connection": conn,
                            "district": b.DISTRICTS[d],
                            "from": source,
                            "extra": extra,
                        }
                    )
        moves.append({"type": "decline"})
        return moves

    def _apply_prestige(self, seat: int, move: Move, ev: Events) -> None:
        if move["type"] == "decline":
            ev.append(event("prestige_declined", player=seat))
        else:
            d = b.DISTRICT_INDEX[move["district"]]
            self._place_prestige(seat, move["tile"], move["connection"], d, ev)
            placed = self._place_towers(seat, d, 1, move["from"], ev, "prestige")
            if move["extra"] and placed:
                self._extra_tower(seat, d, ev)
        self.queue.pop(0)
        self.actor = -1

    def _place_prestige(self, p: int, tile: int, conn: int, d: int, ev: Events) -> None:
        self.prestige_open.remove(tile)
        self.tiles[d].append(tile)
        self.connections.remove(conn)
        self.players[p]["vehicles"].append(b.CONNECTION_VEHICLE[conn])
        ev.append(
            event(
                "prestige_tile_placed",
                player=p,
                tile=tile,
                value=b.TILE_VALUE[tile],
                vehicle=b.CONNECTION_VEHICLE[conn],
                connection=conn,
                district=b.DISTRICTS[d],
            )
        )

    def _place_towers(self, p: int, d: int, count: int, source: str, ev: Events, reason: str) -> int:
        """Place up to ``count`` skyscrapers from the board in district ``d``; with an empty
        board, ``source`` may name a district to move one from. Return how many arrived."""
        player = self.players[p]
        if source == BOARD:
            placed = min(count, player["board"])
            player["board"] -= placed
        elif source == NONE or count <= 0:
            placed = 0
        else:
            origin = b.DISTRICT_INDEX[source]
            self.towers[origin][p] -= 1
            placed = 1
            ev.append(event("skyscraper_moved", player=p, origin=source, district=b.DISTRICTS[d]))
        self.towers[d][p] += placed
        if placed:
            ev.append(
                event(
                    "skyscrapers_built", player=p, district=b.DISTRICTS[d], skyscrapers=placed, reason=reason
                )
            )
        return placed

    def _extra_tower(self, p: int, d: int, ev: Events) -> None:
        self._use(p, 21, ev)
        self.players[p]["supply"] -= 1
        self.towers[d][p] += 1
        ev.append(
            event(
                "skyscrapers_built", player=p, district=b.DISTRICTS[d], skyscrapers=1, reason="character 21"
            )
        )

    # ---- Skyscrapers (rule NYC-ACT-SKYSCRAPERS) ---------------------------------------------------
    def _build_count(self, p: int) -> int:
        return self._bid_value(p) + self._bonus(p)

    def _step_build(self, ev: Events) -> None:
        if not self.queue:
            self._after_bidding_round(ev)
            return
        p = self.queue[0]
        count = self._build_count(p)
        if self.players[p]["tom"]:
            self._tom_builds(p, count, ev)
            self.queue.pop(0)
            return
        moves = self._build_moves(p)
        if len(moves) > 1:
            self.actor = p
            return
        # Mandatory and without choice: the skyscrapers on the board go to the Mayor's district.
        self._place_towers(p, self.mayor, count, moves[0]["from"], ev, "skyscrapers")
        self.queue.pop(0)

    def _build_moves(self, seat: int) -> list[Move]:
        return [
            {"type": "build", "from": source, "extra": extra}
            for source in self._tower_sources(seat, self.mayor)
            for extra in self._extra_choices(seat, source)
        ]

    def _apply_build(self, seat: int, move: Move, ev: Events) -> None:
        placed = self._place_towers(
            seat, self.mayor, self._build_count(seat), move["from"], ev, "skyscrapers"
        )
        if move["extra"] and placed:
            self._extra_tower(seat, self.mayor, ev)
        self.queue.pop(0)
        self.actor = -1
