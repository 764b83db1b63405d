"""tests/service/test_fastlane.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_fastlane import *  # noqa: F403
