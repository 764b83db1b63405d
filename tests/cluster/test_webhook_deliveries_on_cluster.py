"""tests/service/test_webhook_deliveries.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_webhook_deliveries import *  # noqa: F403
