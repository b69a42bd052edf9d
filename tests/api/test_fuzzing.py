"""API fuzzing gate: schemathesis generates requests from the whole OpenAPI document (/auth/v1, the
functions, uploads, health) and sends them to a live server; no answer may be a server error.

Bounded for the suite: 15 examples per operation (about 350 requests), derandomised so that a failure
reproduces, with generous request limits so that the fuzzer meets the handlers and not only 429s.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.api.conftest import IDENTITY_TEST_ENV
from tests.conftest import LiveServer, start_server, stop_server

EXAMPLES_PER_OPERATION = 15


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("fuzz")
    server = start_server(
        tmp, environment={"VAR_DIR": str(tmp), **IDENTITY_TEST_ENV, "RATE_LIMIT_SEND_EMAIL": "100000"}
    )
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def api_schema(fuzzed_server: LiveServer):  # noqa: ANN201 - a schemathesis schema
    # FastAPI writes OpenAPI 3.1, which schemathesis 3 supports as an opt-in experiment.
    schemathesis.experimental.OPEN_API_3_1.enable()
    return schemathesis.from_uri(fuzzed_server.url("/openapi.json"), base_url=fuzzed_server.base_url)


schema = schemathesis.from_pytest_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_gets_a_server_error(case, fuzzed_server: LiveServer) -> None:
    response = case.call(timeout=15, allow_redirects=False)
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} answered {response.status_code}: {response.text[:300]}\n"
        f"{case.as_curl_command()}"
    )
