"""GoTrue error answers (`internal/api/errors.go`, `apierrors/`).

Every error body carries both the 2024-01-01 shape and the legacy one, so any client reads it:
`{"code": "<error_code>", "error_code": "<error_code>", "message": "...", "msg": "..."}`, with the
`X-Supabase-Api-Version` and `x-sb-error-code` headers. OAuth-shaped errors are
`{"error": "...", "error_description": "..."}`, always 400.
"""

from __future__ import annotations

from typing import Any

API_VERSION_HEADER = "X-Supabase-Api-Version"
API_VERSION = "2024-01-01"


class AuthApiError(Exception):
    """An error answer of the identity API. `commit=True` keeps the transaction's writes (e.g. revoking a
    token family on reuse) although the request fails."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        commit: bool = False,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}
        self.headers = headers or {}
        self.commit = commit

    def answer(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        """The HTTP answer: status, JSON body and headers (sent by api/auth_v1.py)."""
        body: dict[str, Any] = {
            "code": self.code,
            "error_code": self.code,
            "message": self.message,
            "msg": self.message,
            **self.extra,
        }
        headers = {API_VERSION_HEADER: API_VERSION, "x-sb-error-code": self.code, **self.headers}
        return self.status, body, headers


class OAuthError(AuthApiError):
    """`{"error", "error_description"}` (RFC 6749 §5.2), always 400."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(400, error, description)

    def answer(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        return 400, {"error": self.code, "error_description": self.message}, {API_VERSION_HEADER: API_VERSION}


def bad_request(code: str, message: str, **kw: Any) -> AuthApiError:
    return AuthApiError(400, code, message, **kw)


def unauthorized(code: str, message: str) -> AuthApiError:
    return AuthApiError(401, code, message)


def forbidden(code: str, message: str) -> AuthApiError:
    return AuthApiError(403, code, message)


def not_found(code: str, message: str) -> AuthApiError:
    return AuthApiError(404, code, message)


def unprocessable(code: str, message: str, **kw: Any) -> AuthApiError:
    return AuthApiError(422, code, message, **kw)


def too_many_requests(code: str, message: str, retry_after: int | None = None) -> AuthApiError:
    headers = {"Retry-After": str(max(1, retry_after))} if retry_after is not None else None
    return AuthApiError(429, code, message, headers=headers)


def validation_failed(message: str, status: int = 400) -> AuthApiError:
    return AuthApiError(status, "validation_failed", message)


def unexpected(
    message: str = "Unexpected failure, please check server logs for more information",
) -> AuthApiError:
    return AuthApiError(500, "unexpected_failure", message)
