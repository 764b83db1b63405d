"""Why a move that is not listed is refused: a stable code naming the rule, and a message
(``new_york_city.refusal.…``, engines/locales/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, say
from . import board as b
from . import cards as c
from . import characters as ch
from .labels import card_said
from .stages import BID, BUILD, CHARACTER, PHASE3, PICK, PILES, PRESTIGE, REPLACE

if TYPE_CHECKING:
    from .rules import NewYorkCityState

# The moves each stage can take (what a stage waits for: new_york_city.stage.<stage>).
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
        waiting = say(f"new_york_city.stage.{stage}")
        return IllegalMove("not_now", say("new_york_city.refusal.not_now", type=repr(kind), waiting=waiting))
    if kind == "use":
        return _explain_use(state, seat, move)
    if set(move) - {"type"} != FIELDS[kind]:
        if not FIELDS[kind]:
            return InvalidMove("malformed_move", say("new_york_city.refusal.fields_none", type=repr(kind)))
        fields = [repr(name) for name in sorted(FIELDS[kind])]
        return InvalidMove(
            "malformed_move", say("new_york_city.refusal.fields", type=repr(kind), fields=fields)
        )
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
    return IllegalMove("illegal_move", say("new_york_city.refusal.illegal_move", type=repr(kind)))


def _pile(state, seat, player, move):
    if not _is_int(move["pile"]) or not 0 <= move["pile"] < len(state.piles):
        shown = len(state.piles)
        return IllegalMove(
            "no_such_pile", say("new_york_city.refusal.no_such_pile", count=shown, last=shown - 1)
        )
    return None


def _pair(state, seat, player, move):
    if not _is_int(move["pair"]) or not 0 <= move["pair"] < len(state.pairs):
        shown = len(state.pairs)
        return IllegalMove(
            "no_such_pair", say("new_york_city.refusal.no_such_pair", count=shown, last=shown - 1)
        )
    turn = state.turn
    if turn["select"] is not None or turn["discard"]:
        return IllegalMove("finish_character_first", say("new_york_city.refusal.finish_character_first"))
    if turn["taken"] >= turn["takes"]:
        return IllegalMove("pair_already_taken", say("new_york_city.refusal.pair_already_taken"))
    return None


def _selection(state) -> list[str] | None:
    if state.stage == PICK:
        return state.turn["select"]
    return state.pending["select12"]


def _select(state, seat, player, move):
    chosen = _selection(state)
    if chosen is None:
        return IllegalMove("no_selection", say("new_york_city.refusal.no_selection"))
    if state.stage == PICK:
        if not _is_symbol(move["card"]) or not _holds(player["hand"], chosen + [move["card"]]):
            return IllegalMove("card_not_in_hand", say("new_york_city.refusal.card_not_in_hand.select"))
    elif not _is_symbol(move["card"]) or not _holds(
        player["reserve"] + player["shown"], chosen + [move["card"]]
    ):
        return IllegalMove("card_not_in_reserve", say("new_york_city.refusal.card_not_in_reserve.select"))
    return None


def _confirm(state, seat, player, move):
    if _selection(state) is None:
        return IllegalMove("no_selection", say("new_york_city.refusal.nothing_to_confirm"))
    return None


def _discard(state, seat, player, move):
    if not state.turn["discard"]:
        return IllegalMove("no_discard_due", say("new_york_city.refusal.no_discard_due"))
    if not _cards_ok(move["cards"]) or len(move["cards"]) != 2:
        return IllegalMove("discard_two", say("new_york_city.refusal.discard_two"))
    if not _holds(player["hand"], move["cards"]):
        return IllegalMove("card_not_in_hand", say("new_york_city.refusal.card_not_in_hand.discard"))
    return None


def _done(state, seat, player, move):
    if stage_is(state, PICK):
        turn = state.turn
        if turn["select"] is not None or turn["discard"]:
            return IllegalMove("finish_character_first", say("new_york_city.refusal.finish_character_first"))
        return IllegalMove("must_take_pair", say("new_york_city.refusal.must_take_pair"))
    return None


def stage_is(state: NewYorkCityState, stage: str) -> bool:
    return state.stage == stage


def _finish_selection_first(state) -> IllegalMove | None:
    if state.stage == BID and state.pending["select12"] is not None:
        return IllegalMove("finish_character_first", say("new_york_city.refusal.finish_character_12"))
    return None


def _exchange(state, seat, player, move):
    give, take = move["give"], move["take"]
    if not _is_symbol(give) or give not in player["hand"]:
        return IllegalMove("card_not_in_hand", say("new_york_city.refusal.card_not_in_hand.exchange"))
    if not _is_symbol(take) or take not in player["reserve"] + player["shown"]:
        return IllegalMove("card_not_in_reserve", say("new_york_city.refusal.card_not_in_reserve.exchange"))
    if give == take:
        return IllegalMove("same_card", say("new_york_city.refusal.same_card"))
    return IllegalMove("card_already_exchanged", say("new_york_city.refusal.card_already_exchanged"))


def _play(state, seat, player, move):
    card = move["card"]
    kind = c.BIDDING_ROUNDS[state.bidding["round"]]
    if not _is_symbol(card) or card not in player["hand"]:
        return IllegalMove("card_not_in_hand", say("new_york_city.refusal.card_not_in_hand.play_reserve"))
    if card == c.JOKER:
        return IllegalMove("jokers_need_a_card", say("new_york_city.refusal.jokers_need_a_card.alone"))
    if card != kind:
        return IllegalMove(
            "wrong_card_type", say("new_york_city.refusal.wrong_card_type", round=card_said(kind))
        )
    return None


def _play_pair(state, seat, player, move):
    cards = move["cards"]
    kind = c.BIDDING_ROUNDS[state.bidding["round"]]
    if not _cards_ok(cards) or len(cards) != 2:
        return IllegalMove("no_such_card", say("new_york_city.refusal.no_such_card"))
    if not _holds(player["hand"], cards):
        return IllegalMove("card_not_in_hand", say("new_york_city.refusal.card_not_in_hand.play"))
    others = [card for card in cards if card != c.JOKER]
    if not others:
        return IllegalMove("jokers_need_a_card", say("new_york_city.refusal.jokers_need_a_card.two_jokers"))
    if kind in cards:
        return IllegalMove(
            "pair_of_round_card", say("new_york_city.refusal.pair_of_round_card", round=card_said(kind))
        )
    if len(others) == 2 and others[0] != others[1]:
        return IllegalMove("pair_not_identical", say("new_york_city.refusal.pair_not_identical"))
    return IllegalMove("pair_order", say("new_york_city.refusal.pair_order"))


def _bid(state, seat, player, move):
    return IllegalMove("empty_bid", say("new_york_city.refusal.empty_bid"))


def _pass(state, seat, player, move):
    return IllegalMove("bid_started", say("new_york_city.refusal.bid_started"))


def _take_character(state, seat, player, move):
    number = move["character"]
    if not _is_int(number) or number not in ch.VALUE:
        return IllegalMove("no_such_character", say("new_york_city.refusal.no_such_character"))
    if not any(number in row for row in state.display):
        return IllegalMove(
            "character_not_available", say("new_york_city.refusal.character_not_available", number=number)
        )
    limit = state._character_limit(seat)
    return IllegalMove(
        "character_too_valuable",
        say(
            "new_york_city.refusal.character_too_valuable", limit=limit, number=number, value=ch.VALUE[number]
        ),
    )


def _prestige(state, seat, player, move):
    tile, conn, district, source, extra = (
        move[k] for k in ("tile", "connection", "district", "from", "extra")
    )
    if not _is_int(tile) or tile not in state.prestige_open:
        return IllegalMove("no_such_tile", say("new_york_city.refusal.no_such_tile"))
    if not _is_int(conn) or conn not in state.connections:
        return IllegalMove("vehicle_gone", say("new_york_city.refusal.vehicle_gone"))
    if b.CONNECTION_VEHICLE[conn] != b.TILE_VEHICLE[tile]:
        vehicle = say(f"new_york_city.vehicle.{b.TILE_VEHICLE[tile]}")
        return IllegalMove("wrong_vehicle", say("new_york_city.refusal.wrong_vehicle", vehicle=vehicle))
    if not isinstance(district, str) or b.DISTRICT_INDEX.get(district) not in b.CONNECTION_ENDS[conn]:
        return IllegalMove("district_not_connected", say("new_york_city.refusal.district_not_connected"))
    if not isinstance(extra, bool):
        return InvalidMove("malformed_move", say("new_york_city.refusal.extra_not_bool"))
    return _tower_source(state, seat, player, source, b.DISTRICT_INDEX[district], extra)


def _tower_source(state, seat, player, source, district, extra):
    if player["board"] and source != "board":
        return IllegalMove("must_place_from_board", say("new_york_city.refusal.must_place_from_board"))
    if not player["board"] and source == "board":
        return IllegalMove("board_empty", say("new_york_city.refusal.board_empty"))
    if source not in ("board", "none"):
        d = b.DISTRICT_INDEX.get(source) if isinstance(source, str) else None
        if d is None or d == district or not state.towers[d][seat]:
            return IllegalMove("no_skyscraper_there", say("new_york_city.refusal.no_skyscraper_there"))
    if extra:
        if source == "none":
            return IllegalMove("nothing_placed", say("new_york_city.refusal.nothing_placed"))
        return IllegalMove("character_21_unavailable", say("new_york_city.refusal.character_21_unavailable"))
    return None


def _build(state, seat, player, move):
    if not isinstance(move["extra"], bool):
        return InvalidMove("malformed_move", say("new_york_city.refusal.extra_not_bool"))
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
        return IllegalMove("no_such_character", say("new_york_city.refusal.no_such_character"))
    if set(move) - {"type", "character"} != USE_FIELDS.get(n, set()):
        # The schema takes every field any character needs; which ones go together is a rule.
        fields = [repr(name) for name in sorted(USE_FIELDS.get(n, set()))]
        if not fields:
            return IllegalMove(
                "wrong_character_fields", say("new_york_city.refusal.wrong_character_fields_none", number=n)
            )
        return IllegalMove(
            "wrong_character_fields",
            say("new_york_city.refusal.wrong_character_fields", number=n, fields=fields),
        )
    player = state.players[seat]
    if ch.PHASE[n] == ch.END:
        return IllegalMove("end_game_character", say("new_york_city.refusal.end_game_character", number=n))
    phase = PHASE_OF_STAGE.get(state.stage)
    if ch.PHASE[n] != phase or (state.stage == REPLACE) != (n == 22):
        if n == 22:
            return IllegalMove(
                "wrong_phase_for_character", say("new_york_city.refusal.wrong_phase_for_character_22")
            )
        return IllegalMove(
            "wrong_phase_for_character",
            say("new_york_city.refusal.wrong_phase_for_character", number=n, phase=ch.PHASE[n]),
        )
    if n not in player["characters"]:
        return IllegalMove("character_not_owned", say("new_york_city.refusal.character_not_owned", number=n))
    pending = state.pending["uses"] if state.stage == BID and state.pending else []
    if state._free_copies(seat, n) - pending.count(n) <= 0:
        return IllegalMove("character_used", say("new_york_city.refusal.character_used", number=n))
    reserved = state._reserved_dollars() if state.stage == BID and state.pending else 0
    if ch.NEEDS_DOLLAR[n] and player["dollars"] - reserved < 1:
        return IllegalMove("no_dollar", say("new_york_city.refusal.no_dollar", number=n))
    if state.stage == PICK and (state.pick_turn()["select"] is not None or state.pick_turn()["discard"]):
        return IllegalMove("finish_character_first", say("new_york_city.refusal.finish_character_first"))
    refusal = _finish_selection_first(state)
    if refusal is not None:
        return refusal
    if n in _CONDITIONS:
        return IllegalMove("character_condition", say(f"new_york_city.refusal.character_condition.{n}"))
    return IllegalMove("character_condition", say("new_york_city.refusal.character_condition", number=n))


# The characters whose own condition a refusal says (new_york_city.refusal.character_condition.<n>).
_CONDITIONS = frozenset({2, 4, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22})
