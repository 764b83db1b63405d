"""tests/service/test_fanout.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_fanout import *  # noqa: F403
