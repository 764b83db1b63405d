"""tests/service/test_webhook_requests.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_webhook_requests import *  # noqa: F403
