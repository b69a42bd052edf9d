"""Errors services raise; the UI shows `message` as a toast, the HTTP layer maps `code` to a 4xx answer."""

from __future__ import annotations


class ServiceError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class ValidationFailed(ServiceError):
    status_code = 422
    code = "validation_failed"


class PermissionDenied(ServiceError):
    status_code = 403
    code = "forbidden"


class NotFound(ServiceError):
    status_code = 404
    code = "not_found"


class Unavailable(ServiceError):
    status_code = 503
    code = "unavailable"


class RateLimited(ServiceError):
    """Too many attempts in a while; `retry_after` is the wait in seconds."""

    status_code = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
