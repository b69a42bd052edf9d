"""Which webhook URLs the server may call (SSRF care): http or https only, no credentials in the URL, and
no private, loopback, link-local or otherwise special address unless AUTOMATION_ALLOW_PRIVATE_URLS says so
(on in development, for a local n8n and the tests; off in production). The host is checked as typed and
again, resolved, before every request (a name may point somewhere else later)."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from app.services.errors import ValidationFailed
from app.settings import get_settings
from models.automation import MAX_URL

URL_REQUIRED = "Enter your n8n webhook URL."
URL_TOO_LONG = f"The webhook URL can be at most {MAX_URL} characters."
URL_SCHEME = "The webhook URL must start with https:// (or http://)."
URL_HOST = "The webhook URL needs a host name, e.g. https://n8n.example.com/webhook/medivisit."
URL_CREDENTIALS = "Leave user names and passwords out of the URL; use the header token for n8n's Header Auth."
URL_PRIVATE = "This address is on a private or local network, which the server is not allowed to call."
URL_UNRESOLVED = "The webhook URL's host name could not be found."


def _private(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_global or address.is_multicast


def private_allowed() -> bool:
    settings = get_settings()
    configured = settings.automation_allow_private_urls
    return (not settings.is_production) if configured is None else configured


def check_url(text: str) -> str:
    """The URL, trimmed, or ValidationFailed with the reason (the form shows it under the field)."""
    url = (text or "").strip()
    if not url:
        raise ValidationFailed(URL_REQUIRED)
    if len(url) > MAX_URL:
        raise ValidationFailed(URL_TOO_LONG)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValidationFailed(URL_HOST) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValidationFailed(URL_SCHEME)
    if parts.username is not None or parts.password is not None:
        raise ValidationFailed(URL_CREDENTIALS)
    host = (parts.hostname or "").rstrip(".")
    if not host or any(c.isspace() for c in url) or (port is not None and not 0 < port < 65536):
        raise ValidationFailed(URL_HOST)
    if not private_allowed():
        if host.lower() == "localhost" or host.lower().endswith((".localhost", ".internal", ".local")):
            raise ValidationFailed(URL_PRIVATE)
        try:
            if _private(ipaddress.ip_address(host)):
                raise ValidationFailed(URL_PRIVATE)
        except ValueError:
            pass  # a name: checked once resolved, before each request
    return url


async def check_resolved(url: str) -> None:
    """Before a request: every address the host resolves to must be public (unless private is allowed)."""
    if private_allowed():
        return
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except OSError:
        raise ValidationFailed(URL_UNRESOLVED) from None
    for *_rest, sockaddr in found:
        if _private(ipaddress.ip_address(sockaddr[0].split("%")[0])):
            raise ValidationFailed(URL_PRIVATE)
