"""tests/service/test_ratelimit.py on three primaries (see tests/cluster/conftest.py), less the two
promises one Redis alone keeps, each replaced by what a cluster does instead."""

from tests.service.test_ratelimit import *  # noqa: F403
from tests.service.test_ratelimit import HUMANS, _a_game, _round_trips, an_address

# One script over an address's counters and a token's, which lie in two slots: on a cluster each
# slot's are checked by their own script, so a refusal by the second leaves the first counted.
del test_a_refused_request_counts_under_no_limit  # noqa: F821
# One script for an address's counters and a token's on one Redis, sent with the game's read: on a
# cluster, one a slot, and the read on its own.
del test_on_one_redis_both_limits_are_one_script_sent_with_the_games_read  # noqa: F821
del test_a_move_sends_the_games_read_with_its_check_unless_a_state_is_kept  # noqa: F821
del test_a_refused_listing_answers_nothing_of_the_read_that_rode_with_its_check  # noqa: F821
# The body's size is refused by gunicorn's app before the store (docs/testing.md: answered the same
# on any Redis); it cost this module a `skyline serve` on the cluster of its own (25 s).
del test_bodies_over_the_limit_are_413_through_gunicorn  # noqa: F821


def test_on_a_cluster_a_request_refused_by_its_token_still_counts_under_its_address(limited):
    """Advisory limits across slots: the address's check comes first and counts; the token's refuses."""
    address = {"REMOTE_ADDR": an_address()}
    created = limited.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    game_id, token = created.get_json()["id"], created.get_json()["seats"][0]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for _ in range(3):  # address: 4 of 5 used; token: 3 of 3
        assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    refused = limited.get(f"/games/{game_id}", headers=bearer, environ_base=address)
    assert refused.status_code == 429 and "token" in refused.get_json()["detail"]
    refused = limited.get("/catalog", environ_base=address)
    assert refused.status_code == 429 and "address" in refused.get_json()["detail"], "its fifth was counted"


def test_on_a_cluster_the_limits_are_checked_before_the_read_one_command_a_slot(limited, monkeypatch):
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    sent = _round_trips(monkeypatch)
    assert limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).status_code == 200
    assert sent == [b"EVALSHA", b"EVALSHA", b"HMGET"], "the address's check, the token's, the game's read"
    sent.clear()
    assert limited.get("/catalog", environ_base=address).status_code == 200
    assert sent == [b"EVALSHA"]
