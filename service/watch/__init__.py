"""Watching the processes: structured logs and Prometheus metrics."""
