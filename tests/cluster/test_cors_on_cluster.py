"""tests/service/test_cors.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_cors import *  # noqa: F403
