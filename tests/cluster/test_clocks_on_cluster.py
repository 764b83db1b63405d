"""tests/service/test_clocks.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_clocks import *  # noqa: F403
