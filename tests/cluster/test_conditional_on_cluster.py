"""tests/service/test_conditional.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_conditional import *  # noqa: F403
