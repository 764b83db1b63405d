"""tests/service/test_times.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_times import *  # noqa: F403
