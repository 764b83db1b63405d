"""Fault injection for the crash tests: make a bot think slowly, so a test can kill its worker
in the middle of a turn. Off unless ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` is set (the worker's
settings, read once at its start); never set it in production.
"""

from __future__ import annotations

import time


def before_bot_move(delay: float) -> None:
    """Sleep ``delay`` seconds (SKYLINE_FAULT_BOT_DELAY_SECONDS) before a bot chooses its move."""
    if delay:
        time.sleep(delay)
