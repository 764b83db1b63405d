"""tests/service/test_recent_states.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_recent_states import *  # noqa: F403

# It builds a bot job's Turns on the store's client alone, as RQ's too: one Redis only.
del test_the_worker_keeps_no_states  # noqa: F821
