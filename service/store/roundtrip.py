"""A read one step of a request sends in another step's round trip to Redis.

Each step keeps its own commands and its own reading of their replies; a step that goes to Redis
anyway, the rate limit's check at the request's edge, may carry the read the request makes next,
so that the two cost one round trip instead of two (``RateLimiter.check_along``). What rides is a
``Command``: the command as sent, and what its reply means to the step that asked for it. It must
be a read: it is sent whatever the check decides, and a refused request drops its reply unread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Command(Generic[T_co]):
    """A read to send with another step's commands: its arguments (the command's name first), and
    what makes its reply the step's answer (called only once the reply is wanted)."""

    args: tuple[Any, ...]
    answer: Callable[[Any], T_co]
