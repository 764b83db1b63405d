"""Fault injection for the crash tests: make a bot think slowly, so a test can kill its worker
in the middle of a turn. Off unless ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` is set; never set it in
production.
"""

from __future__ import annotations

import os
import time


def before_bot_move() -> None:
    """Sleep ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` (a float) before a bot chooses its move."""
    delay = os.environ.get("SKYLINE_FAULT_BOT_DELAY_SECONDS")
    if delay:
        time.sleep(float(delay))
