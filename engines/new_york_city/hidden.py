"""What each seat may see (``view``) and ``determinize`` (rule NYC-HIDDEN).

Hidden: each hand and each reserve's face-down cards (their owner sees them; the table sees
how many, and which cards it saw arrive), a bid being built (until it is laid down), the cards
character 1 is about to discard, the order of the deck, of the prestige tiles and of the dark
character stacks. Everything else is open: the board, money, skyscrapers, characters, the press
track, pairs, bids laid down, the discard pile, the face-up card of character 3, and Tom's
cards (the humans run Tom).

``redeal_hidden(seat)`` depends only on what ``seat`` knows and on the rng: two states the seat
cannot tell apart give the same sample. For the other seats it re-deals every card whose symbol
the table does not know, each among cards drawn from the same deck (before or after a
reshuffle); the known cards stay, moving between hand and reserve only for a player who has
exchanged since the start of the round. It also shuffles the deck, the prestige stack and the
character stacks. Another seat's uncommitted choices are hidden, so they are undone in the
sample: the cards it selected for character 1 or 12 are plain cards again, and a bid it is
building goes back to its hand, except the reserve cards played with character 15 (the table
saw the reserve refilled), which stay in the bid, re-dealt, one per use of 15. Every pool is
sorted before it is shuffled and every hand rebuilt in a canonical order.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import View
from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .bidding import new_pending
from .stages import BID, OVER, PICK, PILES
from .table import Player, Table

PHASES = {PILES: "setup", PICK: "I", OVER: "end"}


class HiddenMixin(Table):
    # ---- the view ---------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
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
        pending = self.bid_in_progress()
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
            rank = 1 if self.current_bidding()["ranking"][0] == p else 2
            return {"stage": self.stage, "player": p, "rank": rank}
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
        """Re-deal what ``seat`` cannot see, from what it knows and ``rng`` only.

        Every pool is put in a canonical order (sorted) before it is shuffled, and the number
        of random numbers drawn depends only on public counts, so two states ``seat`` cannot
        tell apart give the same sample for the same ``rng``.
        """
        for stack in self.stacks:
            stack.sort()
            rng.shuffle(stack)
        self.prestige_stack.sort()
        rng.shuffle(self.prestige_stack)
        bid_slots = self._forget_uncommitted(seat)
        # What the seat knows of each other hand and reserve: the known cards and, for every
        # other card, the deck epoch it came from. Unknown symbols join their epoch's pool.
        pools: dict[int, list[str]] = {}
        # Per other seat: the player, and its hand and reserve as [tag, card] slots.
        layout: list[tuple[Player, list[list[Any]], list[list[Any]]]] = []
        for q in range(self.humans):
            if q == seat:
                continue
            player = self.players[q]
            hand = _slots(player["hand"], player["hand_tags"], pools)
            reserve = _slots(player["reserve"], player["reserve_tags"], pools)
            if player["mixed"]:
                # Hand or reserve: unsure only for a player who exchanged cards this round.
                both = sorted(hand + reserve, key=_slot_key)
                rng.shuffle(both)
                hand, reserve = both[: len(hand)], both[len(hand) :]
            layout.append((player, sorted(hand, key=_slot_key), sorted(reserve, key=_slot_key)))
        bid = _slots([card for card, _ in bid_slots], [tag for _, tag in bid_slots], pools)
        bid.sort(key=_slot_key)
        for card in self.deck:
            pools.setdefault(self.epoch, []).append(card)
        # Each epoch's unknown cards are dealt back among that epoch's places, in a fixed order.
        places = [slot for _, hand, reserve in layout for slot in hand + reserve] + bid
        deck: list[str] = []
        for epoch in sorted(pools):
            pool = c.sort_cards(pools[epoch])
            rng.shuffle(pool)
            for slot in places:
                if slot[0] == epoch:
                    slot[1] = pool.pop()
            deck.extend(pool)  # only the current epoch has cards left: the deck
        self.deck = deck
        for player, hand, reserve in layout:
            hand.sort(key=_slot_key)
            player["hand"] = [card for _, card in hand]
            player["hand_tags"] = [tag for tag, _ in hand]
            reserve.sort(key=_slot_key)
            player["reserve"] = [card for _, card in reserve]
            player["reserve_tags"] = [tag for tag, _ in reserve]
        if bid:
            self._sample_bid(bid)

    def _forget_uncommitted(self, seat: int) -> list[tuple[str, int]]:
        """Undo, in the sample for ``seat``, another seat's uncommitted choices.

        The cards it selected for character 1 or 12 are just cards of its hand or reserve
        again (and whether it began selecting is hidden too), and the cards of a bid being
        built go back to its hand. Only what the table saw stays: the reserve cards played
        with character 15 (the table saw the reserve refilled); they are returned, with
        their tags, to be re-dealt as the bid's reserve cards.
        """
        actor = self.actor
        if actor < 0 or actor == seat:
            return []
        if self.stage == PICK and self.turn is not None:
            self.turn["select"] = None
        if self.stage != BID or self.pending is None:
            return []
        pending = self.pending
        player = self.players[actor]
        entries = iter(zip(pending["cards"], pending["tags"], strict=True))
        from_reserve: list[tuple[str, int]] = []
        for element in pending["elements"]:
            for source in _SOURCES[element["kind"]]:
                card, tag = next(entries)
                if source == "hand":
                    player["hand"].append(card)
                    player["hand_tags"].append(tag)
                else:
                    from_reserve.append((card, tag))
        self.pending = new_pending()
        return from_reserve

    def _sample_bid(self, slots: list[list[Any]]) -> None:
        """The bid another seat is building, as the table knows it: one reserve card per use
        of character 15 (the hand cards that went with them are back in the hand)."""
        pending = self.bid_in_progress()
        for tag, card in slots:
            pending["cards"].append(card)
            pending["tags"].append(tag)
            pending["uses"].append(15)
            pending["elements"].append({"kind": "res15", "cards": [card], "value": 1})
            pending["value"] += 1


# Where the cards of each kind of bid element come from, in the order they joined the bid.
_SOURCES = {
    "match": ("hand",),
    "joker": ("hand",),
    "pair": ("hand", "hand"),
    "jpair": ("hand", "hand"),
    "conv13": ("hand",),
    "conv20": ("hand",),
    "res15": ("reserve",),
    "pair15": ("hand", "reserve"),
    "jokers14": (),
    "joker16": (),
    "prestige17": (),
}


def _slots(cards: list[str], tags: list[int], pools: dict[int, list[str]]) -> list[list[Any]]:
    """[tag, symbol] for each card, the symbol kept only when the table knows it; the hidden
    symbols go to their epoch's pool."""
    out: list[list[Any]] = []
    for card, tag in zip(cards, tags, strict=True):
        if tag == c.KNOWN:
            out.append([tag, card])
        else:
            pools.setdefault(tag, []).append(card)
            out.append([tag, None])
    return out


def _slot_key(slot: list[Any]) -> tuple[int, int]:
    tag, card = slot
    return tag, -1 if card is None else c.SYMBOL_ORDER[card]


def _tile(t: int) -> dict[str, Any]:
    return {"tile": t, "vehicle": b.TILE_VEHICLE[t], "value": b.TILE_VALUE[t]}


__all__ = ["HiddenMixin", "ch", "press"]
