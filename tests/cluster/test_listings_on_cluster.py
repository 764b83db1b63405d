"""tests/service/test_listings.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_listings import *  # noqa: F403
