"""Watching the processes: structured logs and Prometheus metrics.

- logs.py: one JSON object per log line; the request id that follows a request into the bot
  jobs it causes; the access line;
- metrics.py: the metrics (made on first use, after gunicorn forks) and their exposition.

The bottom room: it imports nothing of the service but the settings (service/config.py), and
no Flask. http/hooks.py reports
Flask's requests to it; the fast lane, the use cases and the worker call it directly.
"""
