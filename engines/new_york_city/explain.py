"""Why a move that is not listed is refused: a stable code naming the rule, and a sentence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove
from . import board as b
from . import cards as c
from . import characters as ch
from .stages import BID, BUILD, CHARACTER, PHASE3, PICK, PILES, PRESTIGE, REPLACE

if TYPE_CHECKING:
    from .rules import NewYorkCityState

# The moves each stage can take, and what the stage waits for.
STAGE_MOVES = {
    PILES: {"choose_pile"},
    PICK: {"take_pair", "use", "select", "confirm", "discard", "done"},
    BID: {"exchange", "play", "play_pair", "use", "select", "confirm", "bid", "pass"},
    CHARACTER: {"take_character"},
    PRESTIGE: {"prestige", "decline"},
    BUILD: {"build"},
    REPLACE: {"use", "done"},
    PHASE3: {"use", "done"},
}
STAGE_WHAT = {
    PILES: "the choice of a starting pile",
    PICK: "a turn of Phase I (taking a pair of cards)",
    BID: "a bid in Phase II",
    CHARACTER: "the choice of a character (Characters action)",
    PRESTIGE: "the prestige bonus",
    BUILD: "the skyscrapers of the Skyscrapers action",
    REPLACE: "character 22 after a bidding round",
    PHASE3: "a turn of Phase III",
}
FIELDS = {
    "choose_pile": {"pile"},
    "take_pair": {"pair"},
    "select": {"card"},
    "confirm": set(),
    "discard": {"cards"},
    "done": set(),
    "exchange": {"give", "take"},
    "play": {"card"},
    "play_pair": {"cards"},
    "bid": set(),
    "pass": set(),
    "take_character": {"character"},
    "prestige": {"tile", "connection", "district", "from", "extra"},
    "decline": set(),
    "build": {"from", "extra"},
}
USE_FIELDS = {2: {"pairs", "cards"}, 7: {"discard", "take"}, 8: {"cards"}, 11: {"district"}}
USE_FIELDS.update({13: {"card"}, 15: {"card"}, 20: {"card"}, 14: {"steps"}, 22: {"cards"}})
PHASE_OF_STAGE = {PICK: ch.PHASE_I, BID: ch.PHASE_II, REPLACE: ch.PHASE_II, PHASE3: ch.PHASE_III}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_symbol(value: Any) -> bool:
    return isinstance(value, str) and value in c.SYMBOL_ORDER


def _cards_ok(value: Any) -> bool:
    return isinstance(value, list) and all(_is_symbol(v) for v in value)


def _holds(cards: list[str], wanted: list[str]) -> bool:
    have = c.counts(cards)
    return all(have.get(s, 0) >= k for s, k in c.counts(wanted).items())


def explain(state: NewYorkCityState, seat: int, move: dict[str, Any]) -> IllegalMove:
    kind = move["type"]
    stage = state.stage
    if kind not in STAGE_MOVES.get(stage, set()):
        return IllegalMove(
            "not_now", f"A {kind!r} move is not possible now: the game waits for {STAGE_WHAT[stage]}."
        )
    if kind == "use":
        return _explain_use(state, seat, move)
    if set(move) - {"type"} != FIELDS[kind]:
        fields = ", ".join(sorted(FIELDS[kind])) or "no other field"
        return InvalidMove("malformed_move", f"A {kind!r} move has exactly these fields: {fields}.")
    player = state.players[seat]
    if kind not in ("select", "confirm"):
        refusal = _finish_selection_first(state)
        if refusal is not None:
            return refusal
    handler = _EXPLAIN.get(kind)
    if handler is not None:
        refusal = handler(state, seat, player, move)
        if refusal is not None:
            return refusal
    return IllegalMove("illegal_move", f"That {kind!r} move is not legal now.")


def _pile(state, seat, player, move):
    if not _is_int(move["pile"]) or not 0 <= move["pile"] < len(state.piles):
        return IllegalMove(
            "no_such_pile",
            f"Choose one of the {len(state.piles)} starting piles shown (0 to {len(state.piles) - 1}).",
        )
    return None


def _pair(state, seat, player, move):
    if not _is_int(move["pair"]) or not 0 <= move["pair"] < len(state.pairs):
        return IllegalMove(
            "no_such_pair", f"Take one of the {len(state.pairs)} pairs shown (0 to {len(state.pairs) - 1})."
        )
    turn = state.turn
    if turn["select"] is not None or turn["discard"]:
        return IllegalMove("finish_character_first", "Finish the discards of the character in use first.")
    if turn["taken"] >= turn["takes"]:
        return IllegalMove(
            "pair_already_taken", "You take one pair per turn (two at once only with character 4)."
        )
    return None


def _selection(state) -> list[str] | None:
    if state.stage == PICK:
        return state.turn["select"]
    return state.pending["select12"]


def _select(state, seat, player, move):
    chosen = _selection(state)
    if chosen is None:
        return IllegalMove("no_selection", "Cards are selected only while character 1 or 12 discards.")
    if state.stage == PICK:
        if not _is_symbol(move["card"]) or not _holds(player["hand"], chosen + [move["card"]]):
            return IllegalMove("card_not_in_hand", "You have no such card left in hand to select.")
    elif not _is_symbol(move["card"]) or not _holds(
        player["reserve"] + player["shown"], chosen + [move["card"]]
    ):
        return IllegalMove("card_not_in_reserve", "You have no such card left in your reserve to select.")
    return None


def _confirm(state, seat, player, move):
    if _selection(state) is None:
        return IllegalMove("no_selection", "There is nothing to confirm: no character is discarding.")
    return None


def _discard(state, seat, player, move):
    if not state.turn["discard"]:
        return IllegalMove("no_discard_due", "Cards are discarded this way only after character 5 drew 3.")
    if not _cards_ok(move["cards"]) or len(move["cards"]) != 2:
        return IllegalMove("discard_two", "Character 5: draw 3 cards, then discard exactly 2.")
    if not _holds(player["hand"], move["cards"]):
        return IllegalMove("card_not_in_hand", "You can only discard cards from your hand.")
    return None


def _done(state, seat, player, move):
    if stage_is(state, PICK):
        turn = state.turn
        if turn["select"] is not None or turn["discard"]:
            return IllegalMove("finish_character_first", "Finish the discards of the character in use first.")
        return IllegalMove("must_take_pair", "Take your pair of cards before ending your turn.")
    return None


def stage_is(state: NewYorkCityState, stage: str) -> bool:
    return state.stage == stage


def _finish_selection_first(state) -> IllegalMove | None:
    if state.stage == BID and state.pending["select12"] is not None:
        return IllegalMove(
            "finish_character_first", "Select the reserve cards character 12 discards, then confirm."
        )
    return None


def _exchange(state, seat, player, move):
    give, take = move["give"], move["take"]
    if not _is_symbol(give) or give not in player["hand"]:
        return IllegalMove("card_not_in_hand", "Exchange a card you hold in hand.")
    if not _is_symbol(take) or take not in player["reserve"] + player["shown"]:
        return IllegalMove("card_not_in_reserve", "Exchange it for a card of your reserve.")
    if give == take:
        return IllegalMove("same_card", "Exchanging two identical cards changes nothing.")
    return IllegalMove(
        "card_already_exchanged",
        "Each card moves between hand and reserve at most once per turn; that card already did.",
    )


def _play(state, seat, player, move):
    card = move["card"]
    kind = c.BIDDING_ROUNDS[state.bidding["round"]]
    if not _is_symbol(card) or card not in player["hand"]:
        return IllegalMove(
            "card_not_in_hand", "You can only play cards from your hand (exchange with the reserve first)."
        )
    if card == c.JOKER:
        return IllegalMove(
            "jokers_need_a_card", "Jokers are never played alone: play a card of the round first."
        )
    if card != kind:
        return IllegalMove(
            "wrong_card_type",
            f"This is the {c.TITLES[kind]} round: play {c.TITLES[kind]} cards, "
            "or two identical cards of another type.",
        )
    return None


def _play_pair(state, seat, player, move):
    cards = move["cards"]
    kind = c.BIDDING_ROUNDS[state.bidding["round"]]
    if not _cards_ok(cards) or len(cards) != 2:
        return IllegalMove("no_such_card", "A pair is two cards of the game.")
    if not _holds(player["hand"], cards):
        return IllegalMove("card_not_in_hand", "You can only play cards from your hand.")
    others = [card for card in cards if card != c.JOKER]
    if not others:
        return IllegalMove("jokers_need_a_card", "Two jokers are jokers alone: they never make a bid.")
    if kind in cards:
        return IllegalMove(
            "pair_of_round_card", f"Play {c.TITLES[kind]} cards on their own: each counts one."
        )
    if len(others) == 2 and others[0] != others[1]:
        return IllegalMove(
            "pair_not_identical", "Two cards of another type count only if they are identical."
        )
    return IllegalMove("pair_order", "Name the pair as listed: [card, card] or [card, 'joker'].")


def _bid(state, seat, player, move):
    return IllegalMove("empty_bid", "Play at least one card before bidding; with nothing played, pass.")


def _pass(state, seat, player, move):
    return IllegalMove("bid_started", "Cards are already in your bid: lay it down with 'bid'.")


def _take_character(state, seat, player, move):
    number = move["character"]
    if not _is_int(number) or number not in ch.VALUE:
        return IllegalMove("no_such_character", "Characters are numbered 1 to 42.")
    if not any(number in row for row in state.display):
        return IllegalMove("character_not_available", f"Character {number} is not beside the elevator.")
    limit = state._character_limit(seat)
    return IllegalMove(
        "character_too_valuable",
        f"Your bid takes a character worth at most {limit}; character {number} is worth {ch.VALUE[number]}.",
    )


def _prestige(state, seat, player, move):
    tile, conn, district, source, extra = (
        move[k] for k in ("tile", "connection", "district", "from", "extra")
    )
    if not _is_int(tile) or tile not in state.prestige_open:
        return IllegalMove("no_such_tile", "Take one of the prestige tiles revealed this round.")
    if not _is_int(conn) or conn not in state.connections:
        return IllegalMove("vehicle_gone", "That vehicle is no longer on the board.")
    if b.CONNECTION_VEHICLE[conn] != b.TILE_VEHICLE[tile]:
        return IllegalMove(
            "wrong_vehicle", f"The {b.TILE_VEHICLE[tile]} tile needs a {b.TILE_VEHICLE[tile]}."
        )
    if not isinstance(district, str) or b.DISTRICT_INDEX.get(district) not in b.CONNECTION_ENDS[conn]:
        return IllegalMove(
            "district_not_connected", "The tile goes on one of the two districts the vehicle links."
        )
    if not isinstance(extra, bool):
        return InvalidMove("malformed_move", "'extra' is true or false.")
    return _tower_source(state, seat, player, source, b.DISTRICT_INDEX[district], extra)


def _tower_source(state, seat, player, source, district, extra):
    if player["board"] and source != "board":
        return IllegalMove(
            "must_place_from_board", "You have skyscrapers on your board: place one from there."
        )
    if not player["board"] and source == "board":
        return IllegalMove(
            "board_empty", "Your board has no skyscraper; you may move one from another district."
        )
    if source not in ("board", "none"):
        d = b.DISTRICT_INDEX.get(source) if isinstance(source, str) else None
        if d is None or d == district or not state.towers[d][seat]:
            return IllegalMove("no_skyscraper_there", "Move a skyscraper of yours from another district.")
    if extra:
        if source == "none":
            return IllegalMove("nothing_placed", "Character 21 adds a skyscraper only where you place one.")
        return IllegalMove(
            "character_21_unavailable",
            "You cannot use character 21 now (not owned, used, no $1 or no skyscraper).",
        )
    return None


def _build(state, seat, player, move):
    if not isinstance(move["extra"], bool):
        return InvalidMove("malformed_move", "'extra' is true or false.")
    return _tower_source(state, seat, player, move["from"], state.mayor, move["extra"])


_EXPLAIN = {
    "choose_pile": _pile,
    "take_pair": _pair,
    "select": _select,
    "confirm": _confirm,
    "discard": _discard,
    "done": _done,
    "exchange": _exchange,
    "play": _play,
    "play_pair": _play_pair,
    "bid": _bid,
    "pass": _pass,
    "take_character": _take_character,
    "prestige": _prestige,
    "build": _build,
}


def _explain_use(state: NewYorkCityState, seat: int, move: dict[str, Any]) -> IllegalMove:
    n = move.get("character")
    if not _is_int(n) or n not in ch.VALUE:
        return IllegalMove("no_such_character", "Characters are numbered 1 to 42.")
    if set(move) - {"type", "character"} != USE_FIELDS.get(n, set()):
        fields = ", ".join(sorted(USE_FIELDS.get(n, set()))) or "no other field"
        # The schema takes every field any character needs; which ones go together is a rule.
        return IllegalMove("wrong_character_fields", f"Using character {n} takes exactly: {fields}.")
    player = state.players[seat]
    if ch.PHASE[n] == ch.END:
        return IllegalMove(
            "end_game_character", f"Character {n} scores at the end of the game; it is not used in play."
        )
    phase = PHASE_OF_STAGE.get(state.stage)
    if ch.PHASE[n] != phase or (state.stage == REPLACE) != (n == 22):
        when = "after a bidding round" if n == 22 else f"in Phase {ch.PHASE[n]}"
        return IllegalMove("wrong_phase_for_character", f"Character {n} is used {when}, on your turn.")
    if n not in player["characters"]:
        return IllegalMove("character_not_owned", f"You do not own character {n}.")
    pending = state.pending["uses"] if state.stage == BID and state.pending else []
    if state._free_copies(seat, n) - pending.count(n) <= 0:
        return IllegalMove("character_used", f"Character {n} was already used this round (once per round).")
    reserved = state._reserved_dollars() if state.stage == BID and state.pending else 0
    if ch.NEEDS_DOLLAR[n] and player["dollars"] - reserved < 1:
        return IllegalMove("no_dollar", f"Using character {n} costs $1 placed on it; you have none to spare.")
    if state.stage == PICK and (state.pick_turn()["select"] is not None or state.pick_turn()["discard"]):
        return IllegalMove("finish_character_first", "Finish the discards of the character in use first.")
    refusal = _finish_selection_first(state)
    if refusal is not None:
        return refusal
    return IllegalMove(
        "character_condition", _CONDITIONS.get(n, f"Character {n} cannot be used that way now.")
    )


_CONDITIONS = {
    2: "Character 2 replaces taking a pair: one card each from two different pairs shown, as listed.",
    4: "Character 4 takes both pairs at once: only before taking your first pair of the round.",
    7: "Character 7: discard a character you own and take one beside the elevator worth at most 1 more.",
    8: "Character 8: only right after taking a pair, with reserve cards identical to that pair's cards.",
    11: "Character 11: a skyscraper from your board replaces a black one in a district that has one.",
    12: "Character 12 is used on your bidding turn; its reserve cards are selected next.",
    13: "Character 13: play one card of your hand, of any type.",
    14: "Character 14: jokers need a card in the bid, and you cannot go back beyond the start space.",
    15: "Character 15: a reserve card of the same symbol as a card played from your hand in this bid.",
    16: "Character 16 adds a joker: the bid must already hold a card.",
    17: "Character 17 adds a Prestige card: only in the Prestige round.",
    18: "Character 18: once per bidding round, before playing anything, if you are not already last.",
    19: "Character 19 doubles Prestige points: in the Prestige round, once the bid holds a card.",
    20: "Character 20: play one card of your hand, of any type.",
    22: "Character 22: replace one or two cards of your hand.",
}
