"""tests/players/test_my_games.py on three primaries (see tests/cluster/conftest.py)."""

from tests.players.conftest import new_player  # noqa: F401
from tests.players.test_my_games import *  # noqa: F403
from tests.players.test_my_games import round_trips_of_a_read

# One Redis answers a pipeline in one round trip; a cluster, in one per primary it touches.
del test_a_read_costs_the_same_round_trips_for_3_games_and_for_40  # noqa: F821

PRIMARIES = 3


def test_on_a_cluster_a_read_costs_at_most_a_round_trip_per_primary_and_step_for_3_games_or_40(
    client,
    new_player,  # noqa: F811
):
    counted = round_trips_of_a_read(client, new_player)
    # One Redis's four steps at most, each reaching the three primaries at most: not the count.
    assert counted[40] <= 4 * PRIMARIES and counted[3] <= counted[40], counted
