"""tests/service/test_api.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_api import *  # noqa: F403
