"""RQ job functions: plain importable functions the RQ worker runs."""
