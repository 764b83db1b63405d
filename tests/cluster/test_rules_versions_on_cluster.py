"""tests/service/test_rules_versions.py on three primaries (see tests/cluster/conftest.py)."""

from tests.service.test_rules_versions import *  # noqa: F403

# It runs a bot job with the store's client as RQ's too: one Redis only (RQ cannot use a cluster;
# tests/cluster/test_live_cluster.py plays bots on the cluster with RQ on its own Redis).
del test_the_bot_worker_and_the_sweeper_play_on_a_game_of_version_1  # noqa: F821
