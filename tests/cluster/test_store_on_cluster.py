"""The store's tests (tests/service/test_store.py) on three primaries: games created, committed,
read and swept through the cluster client, every script under ``#!lua``."""

from tests.service.test_store import *  # noqa: F403
