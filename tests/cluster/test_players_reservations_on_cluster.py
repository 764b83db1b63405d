"""tests/players/test_reservations.py on three primaries (see tests/cluster/conftest.py)."""

from tests.players.conftest import new_player  # noqa: F401
from tests.players.test_reservations import *  # noqa: F403
