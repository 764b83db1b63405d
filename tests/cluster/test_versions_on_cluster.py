"""tests/service/test_versions.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_versions import *  # noqa: F403
