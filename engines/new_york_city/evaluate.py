"""How good a New York City position looks for one seat (the greedy bot and ISMCTS's judge).

The final scoring as if the game ended now (``scoring.final_scores``: track, characters and
their end conditions, majorities, all-districts and press bonuses) plus what the seat holds
that the final scoring cannot see yet, in the game's points:

- a bid being built or laid down is worth its cards' action before it resolves, and the
  bonus (+1, or a prestige tile) if it is the highest so far; without this a one-ply player
  sees playing a card as losing it and never bids (the old evaluate lost to random, 35 %);
- a hand card is worth one unit of the action of a bidding round it can still join this
  round (cards left in hand are discarded at the round's end, NYC-ROUND-END), so cards of
  a round about to pass are played, and pairs are taken by what they will buy;
- a character is worth its ability in the rounds left, besides its value;
- Dollars and board skyscrapers count half a point each (the leftovers, NYC-FINAL-LEFTOVERS,
  without the rounding that makes one Dollar worth 0 or 1) and a little more while they can
  still be spent; press spaces count towards the +3 of space 5 before reaching it.

The worths are rough measures in points, kept as data below; bench/RESULTS.md has what they
won. Toms are rivals the bots' margins do not see (they are not seats), so the best Tom's
projected total is subtracted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board as b
from . import cards as c
from . import characters as ch
from . import press
from .scoring import end_condition, final_scores
from .stages import BID, CHARACTER, OVER, PHASE3, PICK, PILES, PRESTIGE
from .table import FinalScores

if TYPE_CHECKING:
    from .rules import NewYorkCityState

if TYPE_CHECKING:
    from .rules import NewYorkCityState

# One unit of each bidding round's action, in points (NYC-ACT-*): a press space before space 5
# (the +3 of NYC-FINAL-PRESS spread over the steps to it), a Dollar (half a point left over,
# plus paying for a character), a character's value and ability, a board skyscraper (half a
# point left over, more once built), a prestige point, a skyscraper built where the Mayor is.
UNIT_WORTH = {
    c.PRESS: 0.7,
    c.DOLLARS: 0.7,
    c.CHARACTERS: 1.3,
    c.PLANS: 1.0,
    c.PRESTIGE: 1.0,
    c.SKYSCRAPERS: 1.2,
}
PRESS_STEP_BEFORE_BONUS = 0.6  # +3 at space 5, spread over the five steps
PRESS_STEP_AFTER_BONUS = 0.25  # ties in majorities and bids, play order
PRESTIGE_TILE_BONUS = (3.0, 2.0)  # highest and second-highest bid: a tile, a vehicle, a skyscraper
PAIR_CARD_WORTH = 0.3  # a card of a passed round: half of a pair worth one card of the round
RESERVE_CARD_WORTH = 0.4  # kept for the next rounds (NYC-RESERVE-EXCHANGE)
DOLLAR_FUEL = 0.3  # a Dollar also pays for a character's use while rounds remain
BOARD_TOWER_PROMISE = 0.5  # a board skyscraper may still be built where it wins a majority
BONUS_CHANCE_NOT_LAST = 0.6  # a bid highest so far, with rivals still to bid

# A character's ability, in points per round it can still be used (its $1 paid). Rough
# measures of what each does (NYC-CHAR-*); end-game characters are scored by the final scoring.
ABILITY_WORTH = {
    1: 1.0, 2: 0.4, 3: 1.0, 4: 0.4, 5: 0.5, 6: 0.5, 7: 0.5, 8: 0.5, 9: 0.8, 10: 1.0, 11: 1.0,
    12: 0.8, 13: 0.5, 14: 0.5, 15: 0.6, 16: 0.7, 17: 0.7, 18: 0.4, 19: 1.0, 20: 1.2, 21: 1.0,
    22: 0.4, 23: 1.5, 24: 1.5, 25: 2.5, 26: 1.2, 27: 1.0,
}  # fmt: skip


def evaluate(state: NewYorkCityState, seat: int) -> float:
    """The seat's projected worth, less the best Tom's (0 without Toms)."""
    return evaluate_seats(state)[seat]


def evaluate_seats(state: NewYorkCityState) -> list[float]:
    """``evaluate`` of every seat, the table scored once for all of them: the final scoring
    is most of an evaluation's cost, and bots evaluate every seat."""
    seats = range(state.humans)
    if state.final:
        totals = state.final["totals"]
        return [totals[seat] - max(totals[state.humans :], default=0) for seat in seats]
    scoring = final_scores(state)
    toms = [_projected(state, scoring, p) for p in range(state.humans, len(state.players))]
    best_tom = max(toms, default=0.0)
    return [_projected(state, scoring, seat) - best_tom for seat in seats]


def _projected(state: NewYorkCityState, scoring: FinalScores, p: int) -> float:
    parts = scoring["breakdown"][p]
    player = state.players[p]
    rounds_left = _rounds_left(state)
    total = parts["total"] - parts["leftovers"] - parts["press"]
    spare_money = player["dollars"] + player["board"]
    if parts.get("sets"):
        spare_money = 2 * parts["leftovers"]  # the sets used some; their rounding is minor
    total += spare_money / 2
    total += _press_worth(press.space_of(state.press, p))
    if player["tom"] or not rounds_left:
        return total
    total += DOLLAR_FUEL * min(player["dollars"], len(player["characters"]))
    total += BOARD_TOWER_PROMISE * player["board"]
    total += sum(ABILITY_WORTH.get(n, 0.0) for n in player["characters"]) * rounds_left
    total += _cards_worth(state, p)
    total += _bid_worth(state, p)
    total += _action_due_worth(state, p)
    return total


def _rounds_left(state: NewYorkCityState) -> float:
    """Rounds in which a character may still be used: the later ones, half of this one."""
    if state.stage == OVER:
        return 0.0
    return b.ROUNDS - max(state.round, 1) + 0.5


def _press_worth(space: int) -> float:
    before = min(space, b.PRESS_BONUS_SPACE)
    return PRESS_STEP_BEFORE_BONUS * before + PRESS_STEP_AFTER_BONUS * max(space - b.PRESS_BONUS_SPACE, 0)


def _open_rounds(state: NewYorkCityState, p: int) -> list[str]:
    """The bidding rounds of this round in which ``p`` may still play hand cards."""
    if state.stage in (PILES, PICK):
        return list(c.BIDDING_ROUNDS)
    if state.stage == PHASE3 or state.bidding is None:
        return []
    r = state.bidding["round"]
    still_to_bid = state.stage == BID and p in state.bidding["order"][state.bidding["index"] :]
    return list(c.BIDDING_ROUNDS[r if still_to_bid else r + 1 :])


def _cards_worth(state: NewYorkCityState, p: int) -> float:
    player = state.players[p]
    open_rounds = _open_rounds(state, p)
    worth = RESERVE_CARD_WORTH * (len(player["reserve"]) + len(player["shown"]))
    if not open_rounds:
        return worth
    best_unit = max(UNIT_WORTH[kind] for kind in open_rounds)
    for card in player["hand"]:
        if card in open_rounds:
            worth += UNIT_WORTH[card]
        elif card == c.JOKER:
            worth += best_unit
        else:
            worth += PAIR_CARD_WORTH
    return worth


def _bid_worth(state: NewYorkCityState, p: int) -> float:
    """What the seat's bid of this bidding round will bring, before it resolves."""
    if state.stage != BID:
        return 0.0
    bidding = state.current_bidding()
    kind = c.BIDDING_ROUNDS[bidding["round"]]
    if p == state.actor and state.pending is not None:
        pending = state.pending
        value, double = pending["value"], pending["double"]
        paid = sum(1 for n in pending["uses"] if ch.NEEDS_DOLLAR[n])
        cost = paid * (0.5 + DOLLAR_FUEL) + PRESS_STEP_BEFORE_BONUS * pending["steps"]
    else:
        bid = bidding["bids"][p]
        if not bid:
            return 0.0
        value, double, cost = bid["value"], bid["double"], 0.0
    if not value:
        return -cost
    worth = value * UNIT_WORTH[kind] * (2 if double else 1)
    return worth + _bonus_worth(state, p, kind, value) - cost


def _bonus_worth(state: NewYorkCityState, p: int, kind: str, value: int) -> float:
    """The bonus (NYC-BONUS) if this bid is the highest so far, ties to the press leader."""
    bidding = state.current_bidding()
    standing = press.standing(state.press)
    rivals = [(bid["value"], q) for q, bid in enumerate(bidding["bids"]) if q != p and bid and bid["value"]]
    above = sum(1 for v, q in rivals if v > value or (v == value and standing[q] < standing[p]))
    if kind == c.PRESTIGE:
        worth = PRESTIGE_TILE_BONUS[above] if above < len(PRESTIGE_TILE_BONUS) else 0.0
    else:
        worth = UNIT_WORTH[kind] if above == 0 else 0.0
    still_to_bid = len(bidding["order"]) - bidding["index"] - (1 if p == state.actor else 0)
    return worth if still_to_bid <= 0 else worth * BONUS_CHANCE_NOT_LAST


def _action_due_worth(state: NewYorkCityState, p: int) -> float:
    """A resolved bid whose action the seat has still to take (a character, a prestige tile)."""
    if p not in (state.queue or []) or state.bidding is None:
        return 0.0
    if state.stage == CHARACTER:
        limit = state._character_limit(p)
        choices = state._available_characters(limit)
        return max((_character_worth(state, p, n) for n in choices), default=0.0)
    if state.stage == PRESTIGE:
        return PRESTIGE_TILE_BONUS[min(state.queue.index(p), 1)]
    return 0.0


def _character_worth(state: NewYorkCityState, p: int, n: int) -> float:
    if n in ch.SETS:
        return ch.VALUE[n] + 2.0  # a set may be completed later
    condition = end_condition(state, p, n) if ch.PHASE[n] == ch.END else 0
    return ch.VALUE[n] + condition + ABILITY_WORTH.get(n, 0.0) * _rounds_left(state)
