"""tests/service/test_fastlane.py on three primaries (see tests/cluster/conftest.py), less the
tests of what the fast lane hands to Flask by the request's shape alone (docs/testing.md)."""

from tests.service.test_fastlane import *  # noqa: F403

# Decided from the request before any read of the game, and logged in-process: the same on any Redis.
del test_unusual_action_requests_go_on_to_flask_with_their_body  # noqa: F821
del test_the_fast_lane_logs_and_counts_as_flask_does  # noqa: F821
