"""The use cases: create, show, list, act, record."""
