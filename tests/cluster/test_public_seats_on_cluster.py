"""tests/service/test_public_seats.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_public_seats import *  # noqa: F403
