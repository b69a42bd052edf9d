"""Security headers on every HTTP response, and the websocket's Origin check at the handshake.

The Content-Security-Policy allows what the pages load and nothing more:
- scripts and styles only from this origin: ReactPy's client bundle (/_reactpy/assets), static/js and
  static/css; no inline script, no eval (no screen renders an `html.script`, which ReactPy's client evals),
  no inline <style> (React's `style` props are applied through the CSSOM, which CSP does not govern);
- `connect-src 'self'`: the ReactPy websocket (same host, ws: or wss:) and the fetches of static/js;
- `img-src 'self' data: https:`: icons, the charts (`data:image/svg+xml`) and the https profile photos
  providers link to;
- no frames, plugins or <base>; forms post to this origin only; the page cannot be framed.
/docs (Swagger UI, from FastAPI's CDN with an inline boot script) gets a policy of its own.

A websocket whose Origin is another site is refused at the handshake (HTTP 403): a page elsewhere must not
drive a tab's session. A missing Origin (a non-browser client) passes; it carries no browser cookies of
this site unless its owner set them.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth.web import origin_allowed
from app.settings import get_settings

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: https:",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "frame-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
_SWAGGER_CDN = "https://cdn.jsdelivr.net"
DOCS_CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {_SWAGGER_CDN}",
        f"style-src 'self' {_SWAGGER_CDN}",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
)
_FIXED = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)
FORBIDDEN_ORIGIN = 403


def _header(scope: Scope, name: bytes) -> str | None:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == name), None)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response (a header the route set itself, such as
    an attachment's stricter CSP, is kept), HSTS when the request came over https (directly, or from a
    trusted proxy's forwarded headers, which uvicorn applies to the scope), and the websocket Origin check."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not origin_allowed(_header(scope, b"origin"), _header(scope, b"host") or ""):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        policy = DOCS_CONTENT_SECURITY_POLICY if path.startswith("/docs") else CONTENT_SECURITY_POLICY
        added = [(b"content-security-policy", policy.encode()), *_FIXED]
        hsts = get_settings().hsts_max_age
        if scope.get("scheme") == "https" and hsts > 0:
            added.append((b"strict-transport-security", f"max-age={hsts}; includeSubDomains".encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers.extend((name, value) for name, value in added if name not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
