"""tests/players/test_bound_seats.py on three primaries (see tests/cluster/conftest.py)."""

from tests.players.conftest import new_player  # noqa: F401
from tests.players.test_bound_seats import *  # noqa: F403
