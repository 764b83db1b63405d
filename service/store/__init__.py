"""Redis: every key and script (games, logs, fan-out, stream caps, rate limits, bot queue)."""
