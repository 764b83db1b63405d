"""tests/service/test_webhook_requests.py on three primaries (see tests/cluster/conftest.py), less
the refusals of a webhook's request (docs/testing.md)."""

from tests.service.test_webhook_requests import *  # noqa: F403

# Refused by the schema or the URL's checks before anything is stored, or no request at all.
del test_a_seat_webhook_asked_for_events_a_seat_never_hears_is_refused  # noqa: F821
del test_seat_webhook_events_that_are_no_list_of_names_are_refused_by_the_schema  # noqa: F821
del test_the_creation_refuses_an_event_that_is_no_notice_type  # noqa: F821
del test_a_host_with_a_label_over_63_characters_is_refused_before_resolving  # noqa: F821
del test_every_secret_the_service_issues_matches_the_contract_s_authorization  # noqa: F821
