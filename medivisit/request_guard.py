"""What every HTTP request must satisfy before any route sees it: a bounded body and no NUL characters.

- Size: a body larger than its limit answers 413 before it is read in full (`MAX_REQUEST_BYTES`; the
  identity API `MAX_AUTH_REQUEST_BYTES`). Uploads stream through untouched: their route enforces
  `UPLOAD_MAX_BYTES` itself, with its own message.
- NUL: PostgreSQL cannot store a NUL character in text, so a NUL in the path, the query or a JSON or form
  body used to end as a database error (a 500) on whichever operation stored it; it answers 400 here, for
  every route at once.

Errors are JSON with GoTrue's shape (`code`, `error_code`, `msg`), which the identity API already uses.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import get_settings

# File uploads (multipart, binary: NUL bytes are data there); each endpoint limits its own size.
STREAMED = (
    "/api/uploads",
    "/api/enrollment/documents",
    "/api/enrollment/photo",
    "/api/store/products/",
    "/api/careers/cv",
    "/api/ads/images",
)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        self.status, self.code, self.message = status, code, message


def _limit_for(path: str) -> int:
    settings = get_settings()
    if path.startswith("/auth/"):
        return settings.max_auth_request_bytes
    return settings.max_request_bytes


def contains_nul(value: Any) -> bool:
    """True if a NUL character is anywhere in a JSON value (keys and strings)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(contains_nul(k) or contains_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(contains_nul(item) for item in value)
    return False


def _bodycontains_nul(content_type: str, body: bytes) -> bool:
    if b"\x00" in body:
        return True
    if content_type.startswith("application/json") and b"\\u0000" in body:
        try:
            return contains_nul(json.loads(body))
        except ValueError:
            return False  # the route answers malformed JSON itself
    if content_type.startswith("application/x-www-form-urlencoded") and b"%00" in body:
        return any("\x00" in k or "\x00" in v for k, v in parse_qsl(body.decode("latin-1")))
    return False


def _no_nul(text: str) -> None:
    if b"\x00" in unquote_to_bytes(text):
        raise _Refused(400, "validation_failed", "The request contains a NUL character, which is not allowed")


async def _answer(send: Send, refused: _Refused) -> None:
    body = json.dumps({"code": refused.status, "error_code": refused.code, "msg": refused.message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refused.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"x-sb-error-code", refused.code.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """ASGI middleware: size and NUL checks on every HTTP request (websocket frames:
    medivisit/reactpy_compat/websocket_guard.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            _no_nul(scope.get("path", ""))
            _no_nul(scope.get("query_string", b"").decode("latin-1"))
            if scope.get("path", "").startswith(STREAMED):
                await self.app(scope, receive, send)
                return
            headers = dict(scope.get("headers", []))
            limit = _limit_for(scope.get("path", ""))
            declared = headers.get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > limit:
                raise _too_large(limit)
            body = await _read_body(receive, limit)
            if _bodycontains_nul(headers.get(b"content-type", b"").decode("latin-1").lower(), body):
                raise _Refused(
                    400, "validation_failed", "The request contains a NUL character, which is not allowed"
                )
        except _Refused as refused:
            await _answer(send, refused)
            return
        await self.app(scope, _replay(body, receive), send)


def _too_large(limit: int) -> _Refused:
    return _Refused(413, "request_too_large", f"The request body is larger than the {limit:,} bytes allowed")


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
