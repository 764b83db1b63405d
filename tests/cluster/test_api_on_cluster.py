"""tests/service/test_api.py on three primaries (see tests/cluster/conftest.py), less the tests
that never reach the store: they are answered the same on any Redis (docs/testing.md)."""

from tests.service.test_api import *  # noqa: F403

# Refused or answered before the store: the schema, the body's size and JSON, the router, the
# catalog and the contract are built in-process from the engines.
del test_create_refuses_bad_input_with_a_code  # noqa: F821
del test_malformed_json_is_a_400_problem  # noqa: F821
del test_oversized_body_is_a_413_problem  # noqa: F821
del test_unknown_route_and_method_are_problems  # noqa: F821
del test_catalog_lists_every_registered_title_with_its_schemas  # noqa: F821
del test_openapi_document_is_served  # noqa: F821
