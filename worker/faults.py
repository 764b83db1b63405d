"""Fault injection for the crash tests: make a bot think slowly, so a test can kill its worker
in the middle of a turn. Off unless ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` is set; never set it in
production.
"""

from __future__ import annotations

import functools
import time

from service.config import Settings


@functools.cache  # a worker's environment does not change: read once, not at every bot move
def _delay() -> float:
    return Settings.from_env().fault_bot_delay_seconds


def before_bot_move() -> None:
    """Sleep ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` before a bot chooses its move."""
    if _delay():
        time.sleep(_delay())
