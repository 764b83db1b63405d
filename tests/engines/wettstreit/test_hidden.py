"""Hidden information and the re-deal: rules WB-HIDDEN-* of docs/rules/wettstreit.md."""

from __future__ import annotations

import json
import random

from engines.core import redact
from engines.wettstreit import GAME
from engines.wettstreit import knowledge as k
from engines.wettstreit import material as m

from .position import PASS, bid, play, position, random_game, rig

UP = {"type": "auction", "pile": "face_up"}
DOWN = {"type": "auction", "pile": "face_down"}
CARD_IDS = set(m.DECK)


def cards_in(value) -> set[str]:
    """Every card id mentioned anywhere in a JSON value."""
    text = json.dumps(value)
    return {card for card in CARD_IDS if f'"{card}"' in text}


def visible_to(state, seat) -> set[str]:
    """The cards ``seat`` may name: in a city, in its hand, or located by it."""
    cards = {card for p in state.players for card in p["city"] if card}
    hidden = [card for p in state.players for card in p["hand"]] + state.face_up + state.face_down
    if state.auction:
        hidden.append(state.auction["card"])
    cards.update(card for card in hidden if k.known_to(state, card, seat))
    if seat is not None:
        cards.update(state.players[seat]["hand"])
    return cards


# ---- WB-HIDDEN-MONEY ---------------------------------------------------------------------
def test_WB_HIDDEN_MONEY_behind_the_screen():
    state = GAME.setup(4, {}, seed=3)
    for viewer in [None, 0, 1, 2, 3]:
        for shown in state.view(viewer)["players"]:
            assert ("money" in shown) == (shown["seat"] == viewer)
    assert "rng" not in json.dumps(state.view(None))


# ---- WB-HIDDEN-HANDS ---------------------------------------------------------------------
def test_WB_HIDDEN_HANDS_a_card_bought_face_up_is_known_to_all_face_down_to_two():
    state = position(
        3, phase="choose_pile", face_up=["tower-1a", "gate-3a"], face_down=["cathedral-4a", "town-hall-7a"]
    )
    play(state, UP, bid(2), bid(3), PASS, PASS)
    for viewer in (0, 2, None):
        assert state.view(viewer)["players"][1]["known_cards"] == ["gate-3a"]
    assert state.view(1)["players"][1]["hand"] == ["gate-3a"]
    state = position(
        3, phase="choose_pile", face_up=["tower-1a", "gate-3a"], face_down=["cathedral-4a", "town-hall-7a"]
    )
    play(state, DOWN, bid(2), bid(3), PASS, PASS)
    assert state.view(0)["players"][1]["known_cards"] == ["town-hall-7a"]
    assert state.view(2)["players"][1]["known_cards"] == []
    assert state.view(None)["players"][1]["known_cards"] == []
    assert state.view(2)["players"][1]["known_kinds"] == ["town-hall"]


def test_WB_HIDDEN_HANDS_all_hands_are_shown_once_the_game_is_over():
    state = random_game(3, seed=4)
    for viewer in (None, 0):
        for shown, player in zip(state.view(viewer)["players"], state.players, strict=True):
            assert sorted(shown["hand"]) == sorted(player["hand"])


# ---- WB-HIDDEN-PILES ---------------------------------------------------------------------
def test_WB_HIDDEN_PILES_only_the_face_up_top_and_cards_seen_going_under():
    state = position(
        3,
        cities={1: ["gate-2a", "cathedral-4a", "gate-3a"]},
        saboteurs={0: 1},
        face_up=["tower-3a", "gate-5a", "cathedral-9a"],
        face_down=["town-hall-7a", "gate-4a"],
    )
    assert state.view(2)["face_down"]["known"] == []
    assert state.view(2)["face_up"]["known"] == [{"depth": 0, "card": "cathedral-9a"}]
    rig(state, [(6, 5), (6, 1)])  # black dot: success
    play(state, {"type": "sabotage_city", "target": 1, "slot": 1})
    for viewer in (None, 0, 1, 2):
        assert state.view(viewer)["face_down"]["known"] == [{"depth": 2, "card": "cathedral-4a"}]


# ---- WB-HIDDEN-REDEAL ----------------------------------------------------------------------
def test_WB_HIDDEN_REDEAL_keeps_what_the_seat_knows_and_redeals_the_rest():
    state = position(
        3,
        phase="choose_pile",
        hands={0: ["gate-2a"], 1: ["gate-3a"], 2: ["tower-1a"]},
        face_up=["tower-2a", "cathedral-4a"],
        face_down=["town-hall-7a", "cathedral-9a"],
    )
    play(state, DOWN, bid(1), bid(2), PASS, PASS)  # seat 1 buys the cathedral-9a; kind announced
    everything = [card for p in state.players for card in p["hand"]] + state.face_up + state.face_down
    moved = set()
    for r in range(40):
        other = state.determinize(2, random.Random(r))
        assert other.view(2) == state.view(2)
        assert other.players[2]["hand"] == ["tower-1a"]
        assert other.face_up[-1] == "cathedral-4a"
        assert [p["money"] for p in other.players] == [p["money"] for p in state.players], (
            "money is never re-dealt"
        )
        kinds = [m.KIND[card] for card in other.players[1]["hand"]]
        assert "cathedral" in kinds, "the announced kind stays"
        moved.update(other.players[1]["hand"])
        cards = [card for p in other.players for card in p["hand"]] + other.face_up + other.face_down
        assert sorted(cards) == sorted(everything)
    assert len(moved) > 3, "seat 1's cards were re-dealt"
    for r in range(10):
        assert "cathedral-9a" in state.determinize(0, random.Random(r)).players[1]["hand"], (
            "the auctioneer saw it"
        )


def test_WB_HIDDEN_REDEAL_cards_set_out_by_another_seat_go_back_to_its_hand():
    state = position(3, hands={0: ["gate-2a", "cathedral-4a", "gate-3a"]})
    play(state, {"type": "build", "card": "gate-2a", "end": "right"})
    other = state.determinize(1, random.Random(0))
    assert other.pending == [] and other.view(1) == state.view(1)
    assert state.determinize(0, random.Random(0)).pending == state.pending


def test_WB_HIDDEN_REDEAL_a_secretly_lost_card_keeps_known_cards_between_hand_and_pile():
    hand = ["gate-2a", "cathedral-4a", "gate-3a", "town-hall-5a", "tower-1a"]
    state = position(
        3, hands={1: hand}, saboteurs={0: 1}, face_up=["tower-3a", "gate-5a"], face_down=["cathedral-9a"]
    )
    state.public.update({card: True for card in hand})  # all bought at face-up auctions
    rig(state, [(5, 2), (6, 1)])
    play(state, {"type": "sabotage_hand", "target": 1})
    assert state.face_down[0] == "gate-3a"
    for viewer in (0, 2, None):
        assert state.view(viewer)["players"][1]["known_cards"] == []
    assert state.view(1)["face_down"]["known"][-1] == {"depth": 1, "card": "gate-3a"}
    where = set()
    for r in range(60):
        other = state.determinize(2, random.Random(r))
        assert other.view(2) == state.view(2)
        assert sorted(other.players[1]["hand"] + other.face_down[:1]) == sorted(hand)
        where.add(other.face_down[0])
    assert where == set(hand), "any of the five may be the lost one"
    # The victim knows exactly.
    assert state.determinize(1, random.Random(3)).face_down[0] == "gate-3a"


def test_WB_HIDDEN_REDEAL_a_pool_settles_when_its_cards_are_all_in_one_place():
    hand = ["gate-2a", "cathedral-4a", "gate-3a", "town-hall-5a", "tower-1a"]
    state = position(
        3, hands={1: hand}, saboteurs={0: 1}, face_up=["tower-3a", "gate-5a"], face_down=["cathedral-9a"]
    )
    state.public.update({card: True for card in hand})
    rig(state, [(5, 2), (6, 1)])
    play(state, {"type": "sabotage_hand", "target": 1})
    assert state.pools
    state.players[1]["hand"].append(state.face_down.pop(0))  # the lost card comes back to the hand
    k.settle_all(state)
    assert not state.pools
    assert state.view(2)["players"][1]["known_cards"] == sorted(hand, key=m.CARD_ORDER.__getitem__)


def _same_sample_from_any_lookalike(state, seat, tries=6):
    """determinize(seat) from the truth and from samples of it give the same state."""
    for a in range(tries):
        lookalike = state.determinize(seat, random.Random(1000 + a))
        assert lookalike.view(seat) == state.view(seat)
        for r in range(tries):
            assert state.determinize(seat, random.Random(r)) == lookalike.determinize(
                seat, random.Random(r)
            ), f"determinize({seat}) carries a trace of the truth (lookalike {a}, rng {r})"


def test_WB_HIDDEN_REDEAL_depends_only_on_what_the_seat_knows_two_lookalike_positions():
    # Seat 0 cannot tell these apart: seat 1's tower-1a and the face-down cathedral-9a have
    # swapped places, and seat 1's hand (with the gate-3a it bought face up) lies in
    # another order.
    piles = {"face_up": ["gate-5a", "tower-3a"]}
    hands = {0: ["gate-2a", "cathedral-4a"], 2: ["town-hall-5a"]}
    truth = position(
        3,
        phase="choose_pile",
        hands={**hands, 1: ["gate-3a", "tower-1a"]},
        face_down=["cathedral-9a", "gate-4a"],
        **piles,
    )
    twin = position(
        3,
        phase="choose_pile",
        hands={**hands, 1: ["cathedral-9a", "gate-3a"]},
        face_down=["tower-1a", "gate-4a"],
        **piles,
    )
    for state in (truth, twin):
        state.public["gate-3a"] = True
    assert truth.view(0) == twin.view(0) and truth != twin
    assert truth.view(1) != twin.view(1)
    samples = set()
    for r in range(20):
        sample = truth.determinize(0, random.Random(r))
        assert sample == twin.determinize(0, random.Random(r))
        samples.add(tuple(sample.players[1]["hand"]))
    assert len(samples) > 2, "the sample still varies with the rng"
    for seat in range(3):
        _same_sample_from_any_lookalike(truth, seat)


def test_WB_HIDDEN_REDEAL_depends_only_on_what_the_seat_knows_kinds_and_pools():
    # Seat 1 holds four cards bought face up and one bought face down from seat 0, whose
    # kind was announced; then seat 0 sabotages the hand and a card goes under the
    # face-down pile unseen: seats 0 and 2 keep pools, seat 1 knows exactly.
    hand = ["gate-2a", "cathedral-4a", "gate-3a", "town-hall-5a", "tower-1a"]
    state = position(
        3, hands={1: hand}, saboteurs={0: 1}, face_up=["tower-3a", "gate-5a"], face_down=["cathedral-9a"]
    )
    state.public.update({card: True for card in hand[:4]})
    state.knows["tower-1a"] = [0, 1]
    state.type_shown["tower-1a"] = True
    rig(state, [(5, 4), (6, 1)])
    play(state, {"type": "sabotage_hand", "target": 1})
    assert state.face_down[0] == "tower-1a"
    assert sorted(pool["seat"] for pool in state.pools) == [0, 2]
    for seat in range(3):
        _same_sample_from_any_lookalike(state, seat)
    lost = {state.determinize(2, random.Random(r)).face_down[0] for r in range(40)}
    assert set(hand[:4]) < lost, "seat 2 does not know which card went under the pile"
    assert any(m.KIND[card] == "tower" for card in lost)


# ---- views and events over whole games -------------------------------------------------------------
def test_WB_HIDDEN_no_view_or_event_names_a_card_its_viewer_cannot_locate():
    for seats, seed in ((3, 11), (4, 12), (3, 13), (4, 14)):
        state = GAME.setup(seats, {}, seed)
        rng = random.Random(seed)
        while state.to_act():
            seat = state.to_act()[0]
            events = state.apply(seat, rng.choice(state.legal_moves(seat)))
            if not state.to_act():
                break
            for viewer in [None, *range(seats)]:
                allowed = visible_to(state, viewer)
                assert cards_in(state.view(viewer)) <= allowed
                for e in events:
                    assert cards_in(redact(e, viewer)) <= allowed, e
                for shown in state.view(viewer)["players"]:
                    assert ("money" in shown) == (shown["seat"] == viewer)
