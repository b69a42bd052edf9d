"""The OpenAPI document describes the identity API as clients meet it (issue 10, finding 14): request bodies
of every route that takes one, GoTrue's error body for the 4xx answers, and Retry-After on 429."""

from __future__ import annotations

import pytest

from medivisit.main import create_app

WITH_BODY = [
    ("post", "/auth/v1/signup", "password"),
    ("post", "/auth/v1/token", "refresh_token"),
    ("post", "/auth/v1/otp", "create_user"),
    ("post", "/auth/v1/verify", "token_hash"),
    ("post", "/auth/v1/recover", "email"),
    ("post", "/auth/v1/resend", "type"),
    ("put", "/auth/v1/user", "nonce"),
    ("post", "/auth/v1/factors", "factor_type"),
    ("post", "/auth/v1/factors/{factor_id}/verify", "challenge_id"),
]


@pytest.fixture(scope="module")
def spec() -> dict:
    return create_app().openapi()


@pytest.mark.parametrize(("method", "path", "field"), WITH_BODY)
def test_identity_request_bodies_are_documented(spec, method, path, field) -> None:
    body = spec["paths"][path][method]["requestBody"]
    assert body["required"] is False  # GoTrue accepts an empty body
    assert field in body["content"]["application/json"]["schema"]["properties"]


def test_identity_errors_and_rate_limits_are_documented(spec) -> None:
    error = spec["components"]["schemas"]["ErrorBody"]
    assert set(error["required"]) == {"code", "error_code", "msg"}
    for path, operations in spec["paths"].items():
        if not path.startswith("/auth/v1"):
            continue
        for method, operation in operations.items():
            responses = operation["responses"]
            assert {"400", "401", "403", "422", "429"} <= set(responses), (method, path)
            assert responses["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
            assert responses["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
