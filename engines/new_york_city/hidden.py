"""What each seat may see (``view``) and ``determinize`` (rule NYC-HIDDEN).

Hidden: each hand and each reserve's face-down cards (their owner sees them; the table sees
how many, and which cards it saw arrive), a bid being built (until it is laid down), the cards
character 1 is about to discard, the order of the deck, of the prestige tiles and of the dark
character stacks. Everything else is open: the board, money, skyscrapers, characters, the press
track, pairs, bids laid down, the discard pile, the face-up card of character 3, and Tom's
cards (the humans run Tom).

``redeal_hidden(seat)`` re-deals, for the other seats, every card whose symbol the table does
not know, each among cards drawn from the same deck (before or after a reshuffle); the known
cards stay, moving between hand and reserve only for a player who has exchanged since the
start of the round. It also shuffles the deck, the prestige stack and the character stacks.
The bid another seat is building, and the cards it selected for character 1 or 12, stay as they are:
no other seat decides while it does.
"""

from __future__ import annotations

import random
from typing import Any

from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .stages import BID, OVER, PICK, PILES

PHASES = {PILES: "setup", PICK: "I", OVER: "end"}


class HiddenMixin:
    # ---- the view ---------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        track = self.press
        spaces = {who: space for who, space in track}
        return {
            "round": self.round,
            "phase": PHASES.get(self.stage, "III" if self.stage == "phase3" else "II"),
            "stage": self.stage,
            "actor": self.actor if self.actor >= 0 else None,
            "mayor": b.DISTRICTS[self.mayor] if self.mayor >= 0 else None,
            "districts": [
                {
                    "district": name,
                    "letter": self.letters[d],
                    "base": self.base[d],
                    "prestige": list(self.tiles[d]),
                    "value": self.base[d] + sum(b.TILE_VALUE[t] for t in self.tiles[d]),
                    "lantern": b.DISTRICT_LANTERN[d],
                    "skyscrapers": list(self.towers[d]),
                    "black": self.black[d],
                }
                for d, name in enumerate(b.DISTRICTS)
            ],
            "vehicles_on_board": [
                {
                    "connection": k,
                    "vehicle": b.CONNECTION_VEHICLE[k],
                    "districts": list(b.CONNECTIONS[k]["districts"]),
                }
                for k in self.connections
            ],
            "prestige_open": [_tile(t) for t in self.prestige_open],
            "prestige_stack_size": len(self.prestige_stack),
            "prestige_box": [_tile(t) for t in self.prestige_box],
            "statue": b.STATUE_END if self.statue_flipped else b.STATUE_FIRST,
            "black_removed": self.black_removed,
            "press": [{"player": who if who != b.BLACK else None, "space": space} for who, space in track],
            "deck_size": len(self.deck),
            "discard": c.counts(self.discard),
            "table": c.sort_cards(self.table),
            "pairs": [list(pair) for pair in self.pairs],
            "piles": [list(pile) for pile in self.piles],
            "elevator": [list(row) for row in self.display],
            "elevator_stacks": [len(stack) for stack in self.stacks],
            "characters_removed": list(self.removed),
            "dollar_supply": self.supply_dollars,
            "players": [self._player_view(p, seat, spaces[p]) for p in range(len(self.players))],
            "bidding": self._bidding_view(),
            "turn": self._turn_view(seat),
            "pending_bid": self._pending_view()
            if seat is not None and seat == self.actor and self.pending
            else None,
            "decision": self._decision_view(),
            "tom": {
                "toms": self.toms,
                "level": self.options["tom_level"],
                "mode": self.tom_mode,
                "cards": self.tom_cards,
            }
            if self.toms
            else None,
            "final": self.final,
            "options": dict(self.options),
        }

    def _player_view(self, p: int, seat: int | None, space: int) -> dict[str, Any]:
        player = self.players[p]
        pending = self.pending if p == self.actor and self.stage == BID and self.pending else None
        out: dict[str, Any] = {
            "player": p,
            "seat": None if player["tom"] else p,
            "name": player["name"],
            "tom": player["tom"],
            "score": player["score"],
            "dollars": player["dollars"],
            "dollars_on_characters": player["on_characters"],
            "board": player["board"],
            "supply": player["supply"],
            "characters": [
                {"number": n, "used": u} for n, u in zip(player["characters"], player["used"], strict=True)
            ],
            "vehicles": sorted(player["vehicles"]),
            "press_space": space,
            "pairs_taken": player["pairs_taken"],
        }
        if player["tom"]:
            out["cards"] = c.sort_cards(player["reserve"])
            out["staged"] = c.sort_cards(player["staged"])
            return out
        known = [
            card for card, tag in zip(player["hand"], player["hand_tags"], strict=True) if tag == c.KNOWN
        ]
        known += [
            card
            for card, tag in zip(player["reserve"], player["reserve_tags"], strict=True)
            if tag == c.KNOWN
        ]
        hand_size = len(player["hand"])
        if pending:
            known += [
                card for card, tag in zip(pending["cards"], pending["tags"], strict=True) if tag == c.KNOWN
            ]
            hand_size += pending["from_hand"]
        out.update(
            {
                "hand_size": hand_size,
                "reserve_count": len(player["reserve"]) + len(player["shown"]),
                "reserve_size": player["reserve_size"],
                "shown": c.sort_cards(player["shown"]),
                "known_cards": c.sort_cards(known),
                "exchanged": player["mixed"],
            }
        )
        if seat == p:
            out["hand"] = c.sort_cards(player["hand"])
            out["reserve"] = c.sort_cards(player["reserve"])
        return out

    def _bidding_view(self) -> dict[str, Any] | None:
        bidding = self.bidding
        if bidding is None:
            return None
        return {
            "round": c.BIDDING_ROUNDS[bidding["round"]],
            "order": list(bidding["order"]),
            "index": bidding["index"],
            "bids": [None if bid is None else dict(bid) for bid in bidding["bids"]],
            "character_18_used": bidding["used18"],
            "ranking": list(bidding["ranking"]),
            "starter": self.starter,
        }

    def _turn_view(self, seat: int | None) -> dict[str, Any] | None:
        turn = self.turn
        if turn is None:
            return None
        out = {
            "takes": turn["takes"],
            "taken": turn["taken"],
            "last": list(turn["last"]),
            "discarding": bool(turn["discard"]),
        }
        if seat == self.actor and turn["select"] is not None:
            out["selected"] = c.sort_cards(turn["select"])
        return out

    def _pending_view(self) -> dict[str, Any]:
        pending = self.pending
        return {
            "value": pending["value"],
            "cards": c.sort_cards(pending["cards"]),
            "elements": [
                {"kind": e["kind"], "cards": list(e["cards"]), "value": e["value"]}
                for e in pending["elements"]
            ],
            "characters": sorted(pending["uses"]),
            "press_steps_back": pending["steps"],
            "double_points": pending["double"],
            "selected": None if pending["select12"] is None else c.sort_cards(pending["select12"]),
        }

    def _decision_view(self) -> dict[str, Any] | None:
        if self.actor < 0:
            return None
        p = self.actor
        if self.stage == "character":
            return {"stage": self.stage, "player": p, "limit": self._character_limit(p)}
        if self.stage == "prestige":
            return {"stage": self.stage, "player": p, "rank": 1 if self.bidding["ranking"][0] == p else 2}
        if self.stage == "build":
            return {
                "stage": self.stage,
                "player": p,
                "skyscrapers": self._build_count(p),
                "mayor": b.DISTRICTS[self.mayor],
            }
        return {"stage": self.stage, "player": p}

    # ---- determinize ---------------------------------------------------------------------------------
    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        for stack in self.stacks:
            rng.shuffle(stack)
        rng.shuffle(self.prestige_stack)
        fixed = self._fixed_hand_entries(seat)
        # Unknown cards, grouped by the deck epoch they were drawn from.
        groups: dict[int, list[tuple[list[str], int]]] = {}
        for q in range(self.humans):
            if q == seat:
                continue
            player = self.players[q]
            for where in ("hand", "reserve"):
                cards, tags = player[where], player[where + "_tags"]
                for i, tag in enumerate(tags):
                    if tag != c.KNOWN and (q, where, i) not in fixed:
                        groups.setdefault(tag, []).append((cards, i))
        for i in range(len(self.deck)):
            groups.setdefault(self.epoch, []).append((self.deck, i))
        for places in groups.values():
            symbols = [cards[i] for cards, i in places]
            rng.shuffle(symbols)
            for (cards, i), symbol in zip(places, symbols, strict=True):
                cards[i] = symbol
        # Hand or reserve: unsure only for a player who exchanged cards this round.
        for q in range(self.humans):
            player = self.players[q]
            if q == seat or not player["mixed"] or any(entry[0] == q for entry in fixed):
                continue
            entries = list(
                zip(
                    player["hand"] + player["reserve"],
                    player["hand_tags"] + player["reserve_tags"],
                    strict=True,
                )
            )
            rng.shuffle(entries)
            size = len(player["hand"])
            player["hand"] = [card for card, _ in entries[:size]]
            player["hand_tags"] = [tag for _, tag in entries[:size]]
            player["reserve"] = [card for card, _ in entries[size:]]
            player["reserve_tags"] = [tag for _, tag in entries[size:]]

    def _fixed_hand_entries(self, seat: int) -> set[tuple[int, str, int]]:
        """The cards another seat has selected for character 1 (hand) or 12 (reserve) keep
        their place."""
        fixed: set[tuple[int, str, int]] = set()
        actor = self.actor
        if actor < 0 or actor == seat:
            return fixed
        if self.stage == PICK and self.turn and self.turn["select"]:
            where, chosen = "hand", self.turn["select"]
        elif self.stage == BID and self.pending and self.pending["select12"]:
            where, chosen = "reserve", self.pending["select12"]
        else:
            return fixed
        wanted = c.counts(chosen)
        for i, card in enumerate(self.players[actor][where]):
            if wanted.get(card, 0) > 0:
                wanted[card] -= 1
                fixed.add((actor, where, i))
        return fixed


def _tile(t: int) -> dict[str, Any]:
    return {"tile": t, "vehicle": b.TILE_VEHICLE[t], "value": b.TILE_VALUE[t]}


__all__ = ["HiddenMixin", "ch", "press"]
