"""The state protocol every game implements.

A game's state is an object whose attributes are plain JSON values (dicts with string
keys, lists, strings, ints, floats, booleans, None) — nothing else. That single rule
makes ``to_dict``/``from_dict``/``clone`` generic and exact, lets replays be compared
with ``==``, and lets the store save a state without a mapping layer. Constant data
(boards, card lists) lives in the game's modules, never in the state.

A subclass implements:

- ``setup()``: fill in the attributes from ``self.seats``, ``self.options`` and chance;
- ``to_act()``; ``_legal_moves(seat)``; ``label(move)``; ``_apply(seat, move)``;
- ``_view(seat)``; ``result()``;
- ``redeal_hidden(seat, rng)`` when the game hides anything (see ``determinize``);
- optionally ``explain_illegal(seat, move)`` to say which rule refuses a move, and
  ``equivalent_move(seat, move)`` where the rules let an unlisted move stand for a listed one.
"""

from __future__ import annotations

import json
import marshal
import random
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .chance import Chance
from .errors import GameOver, IllegalMove, InvalidMove, InvalidState, NotYourTurn, UnknownSeat
from .events import Event
from .messages import Message, say
from .result import Result
from .shapes import move_shape_error
from .values import JSONObject

if TYPE_CHECKING:
    from .game import Game

# A move: a JSON object with a string ``type``. Its fields are the game's (moves.schema.json),
# read by the rules that listed it; a move from outside is Any until ``resolve`` has found it
# among the listed ones.
Move = dict[str, Any]

# What a seat (or a spectator) may see of a state: a JSON object (the game's view.schema.json).
View = JSONObject

# Attributes every state carries, set by Game.setup before State.setup runs.
BASE_ATTRIBUTES = ("seats", "options", "rng")


def move_key(move: Any) -> str:
    """Return a canonical text for a move, strict about types (``1`` is not ``true``)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


class State:
    """Base class of every game's state. See the module docstring for the contract."""

    game: ClassVar[Game[State]]
    move_types: ClassVar[tuple[str, ...]] = ()
    # False for games where every seat sees everything (determinize is then a clone).
    hidden_information: ClassVar[bool] = True

    seats: int
    options: dict[str, Any]
    rng: int

    # ---- to implement -------------------------------------------------------------
    def setup(self) -> None:
        raise NotImplementedError

    def to_act(self) -> list[int]:
        """Return the seats the game waits for, ascending; empty once the game is over."""
        raise NotImplementedError

    def _legal_moves(self, seat: int) -> list[Move]:
        raise NotImplementedError

    def label(self, move: Move) -> Message | str:
        """Return a short description of a move, for display: a ``Message`` the service renders
        in the reader's language (an English string in a title not yet converted)."""
        raise NotImplementedError

    def _apply(self, seat: int, move: Move) -> list[Event]:
        raise NotImplementedError

    def _view(self, seat: int | None) -> View:
        """Return everything ``seat`` (a seat of this game, or ``None``) may see."""
        raise NotImplementedError

    def result(self) -> Result | None:
        """The result once the game is over; None while it runs."""
        raise NotImplementedError

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Re-deal at random, in place, everything ``seat`` cannot see."""
        if self.hidden_information:
            raise NotImplementedError

    def explain_illegal(self, seat: int, move: Move) -> IllegalMove:
        """Return the error naming the rule that refuses ``move`` (it is not listed)."""
        return IllegalMove("illegal_move", say("core.refusal.illegal_move", move=move_key(move), seat=seat))

    def equivalent_move(self, seat: int, move: Move) -> Move | None:
        """Return the listed move that the unlisted ``move`` stands for under the rules, if any.

        The listing names one move per outcome; where the rulebook gives a player two ways
        to make the same play (Property's 9 and 10 of a suit), the other way is accepted as
        the listed one instead of being refused.
        """
        return None

    # ---- provided ---------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """Return everything ``seat`` may see (``None``: a spectator), as JSON values.

        Raise ``UnknownSeat`` for anything else: a view meant for a seat that does not exist
        must not quietly become the spectator's.
        """
        if seat is not None and not self.is_seat(seat):
            raise UnknownSeat("unknown_seat", say("core.refusal.unknown_view_seat", seat=repr(seat)))
        return self._view(seat)

    def is_seat(self, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.seats

    def legal_moves(self, seat: int) -> list[Move]:
        """Return every legal move of ``seat`` in a fixed order; empty if it is not to act."""
        if seat not in self.to_act():
            return []
        return self._legal_moves(seat)

    def is_over(self) -> bool:
        return not self.to_act()

    def final_result(self) -> Result:
        """The result of a game that is over (its ``game_over`` event carries it)."""
        result = self.result()
        assert result is not None, f"{self.game.id}: the game is over but has no result"
        return result

    def apply(self, seat: int, move: Any) -> list[Event]:
        """Apply a move of ``seat`` and return the events; raise and change nothing if illegal."""
        return self._apply(seat, self.resolve(seat, move))

    def resolve(self, seat: int, move: Any) -> Move:
        """Return the listed move that ``move`` plays: itself, or the listed move it is the
        rules' equivalent of (``equivalent_move``); raise ``IllegalMove`` (or a subclass)
        saying why when there is none. ``apply`` is ``apply_listed(seat, resolve(seat, move))``;
        the service calls the two apart to answer with the move as applied."""
        acting = self.to_act()
        if not acting:
            raise GameOver("game_over", say("core.refusal.game_over"))
        if not self.is_seat(seat):
            raise UnknownSeat("unknown_seat", say("core.refusal.unknown_seat", seat=repr(seat)))
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise InvalidMove("malformed_move", say("core.refusal.not_a_move"))
        if move["type"] not in self.move_types:
            raise InvalidMove(
                "unknown_move_type",
                say(
                    "core.refusal.unknown_move_type",
                    type=repr(move["type"]),
                    known=", ".join(repr(t) for t in self.move_types),
                ),
            )
        if seat not in acting:
            raise NotYourTurn("not_your_turn", say("core.refusal.not_your_turn", seat=seat, waiting=acting))
        listed = self._legal_moves(seat)
        for candidate in listed:
            # == is fast but lenient (1 == 1.0 == True); the key check makes it strict.
            if candidate == move and move_key(candidate) == move_key(move):
                return candidate
        equivalent = self.equivalent_move(seat, move)
        if equivalent is not None:
            key = move_key(equivalent)
            for candidate in listed:
                if move_key(candidate) == key:
                    return candidate
        # The same fault gets the same code in every game: a move whose fields or their kinds
        # do not fit the game's own move schema is malformed, whatever rule it also breaks.
        shape = move_shape_error(self.game.move_shape_schema, move)
        if shape is not None:
            raise InvalidMove("malformed_move", shape)
        raise self.explain_illegal(seat, move)

    def apply_listed(self, seat: int, move: Move) -> list[Event]:
        """Apply a move taken from ``legal_moves(seat)`` without checking it again (bots)."""
        return self._apply(seat, move)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Return a copy where all that ``seat`` cannot see is re-dealt at random.

        The copy's own chance is reseeded from ``rng`` too, so future draws and dice
        cannot be predicted from the true state's generator.
        """
        copy = self.clone()
        copy.rng = rng.getrandbits(64)
        copy.redeal_hidden(seat, rng)
        return copy

    # ---- chance -----------------------------------------------------------------
    def random_below(self, n: int) -> int:
        chance = Chance(self.rng)
        value = chance.below(n)
        self.rng = chance.state
        return value

    def roll(self, sides: int) -> int:
        return self.random_below(sides) + 1

    def shuffle(self, items: MutableSequence[Any]) -> None:
        chance = Chance(self.rng)
        chance.shuffle(items)
        self.rng = chance.state

    # ---- serialization ------------------------------------------------------------
    def clone(self) -> Self:
        """Return an independent copy (marshal is the fastest exact copy of JSON values)."""
        copy = object.__new__(type(self))
        copy.__dict__ = marshal.loads(marshal.dumps(self.__dict__))
        return copy

    def to_dict(self, *, copy: bool = True) -> dict[str, Any]:
        """The saved form of the state. ``copy=False`` shares the state's own values instead of
        copying them: only for a caller that serializes the result at once (the store)."""
        return {
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "state": marshal.loads(marshal.dumps(self.__dict__)) if copy else self.__dict__,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if not isinstance(data, dict) or data.get("game") != cls.game.id:
            raise InvalidState("wrong_game", f"This is not a saved {cls.game.id} state.")
        # The registry picks a stored game's rules by its version (engines/registry.py); this
        # guards a caller that did not, so a state is never played under other rules.
        if data.get("rules_version") != cls.game.rules_version:
            raise InvalidState(
                "unsupported_rules_version",
                f"The state was saved under {cls.game.id} rules version "
                f"{data.get('rules_version')!r}, not version {cls.game.rules_version}.",
            )
        attributes = data.get("state")
        if not isinstance(attributes, dict) or any(a not in attributes for a in BASE_ATTRIBUTES):
            raise InvalidState("corrupt_state", "The saved state is incomplete.")
        state = object.__new__(cls)
        state.__dict__ = marshal.loads(marshal.dumps(attributes))
        return state

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    # Unhashable: a state is mutable and compares by value (object.__hash__ is typed as a method).
    __hash__ = None  # type: ignore[assignment]
