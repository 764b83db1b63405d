"""tests/players/test_seeks.py on three primaries (see tests/cluster/conftest.py)."""

from tests.players.test_seeks import *  # noqa: F403
