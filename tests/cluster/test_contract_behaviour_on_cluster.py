"""tests/service/test_contract_behaviour.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_contract_behaviour import *  # noqa: F403
