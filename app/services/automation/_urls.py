"""Which webhook URLs the server may call (SSRF care): http or https only, no credentials in the URL, and
no private, loopback, link-local or otherwise special address unless AUTOMATION_ALLOW_PRIVATE_URLS says so
(on in development, for a local n8n and the tests; off in production).

An address is judged by what it reaches, in whatever form it is written: IPv4 in the shorthand, decimal,
octal and hex forms the C resolver accepts (`127.1`, `2130706433`, `0x7f.1`, `017700000001`), and IPv6
forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`,
NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address; the local-use NAT64 prefix
`64:ff9b:1::/48`, Teredo `2001::/32` and any address with a zone id (`fe80::1%eth0`) are private.

The host is checked as typed when the URL is saved, and before every request `resolve_checked` resolves it
once and checks every address it got; the request then connects to one of those checked addresses
(`_transport.py`), never to a second lookup a DNS-rebinding server could answer differently."""

from __future__ import annotations

import asyncio
import ipaddress
import re
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

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# What inet_aton(3) reads as an IPv4 address: one to four parts, each decimal, octal (leading 0) or hex.
_LEGACY_IPV4 = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}", re.IGNORECASE)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
_TEREDO = ipaddress.IPv6Network("2001::/32")
_COMPATIBLE = ipaddress.IPv6Network("::/96")
_SIIT = ipaddress.IPv6Network("::ffff:0:0:0/96")


def ip_literal(host: str) -> Address | None:
    """The address a host written as an IP address reaches (any of the forms above), or None for a name."""
    text = host.strip().strip("[]").rstrip(".")
    if _LEGACY_IPV4.fullmatch(text):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _COMPATIBLE or address in _SIIT or address in _NAT64:
        return ipaddress.IPv4Address(address.packed[12:])
    return None


def is_private(address: Address) -> bool:
    """True for anything but a public unicast address, judged through every IPv6 form that embeds IPv4."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id or address in _LOCAL_NAT64 or address in _TEREDO:
            return True
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_private(embedded)
    return not address.is_global or address.is_multicast


def private_allowed() -> bool:
    settings = get_settings()
    configured = settings.automation_allow_private_urls
    return (not settings.is_production) if configured is None else configured


def _named_private(host: str) -> bool:
    name = host.lower()
    return name == "localhost" or name.endswith((".localhost", ".internal", ".local"))


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
        if "%" in host or _named_private(host):
            raise ValidationFailed(URL_PRIVATE)
        literal = ip_literal(host)
        if literal is not None and is_private(literal):
            raise ValidationFailed(URL_PRIVATE)
    return url


async def _lookup(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives for `host` (a seam for tests that play a rebinding DNS)."""
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    # A stream socket's address is an IPv4 or IPv6 one: a host string first.
    return [sockaddr[0] for *_rest, sockaddr in found if isinstance(sockaddr[0], str)]


async def resolve_checked(url: str) -> tuple[str, ...]:
    """Before a request: the addresses to connect to, resolved once; every one must be public unless private
    addresses are allowed (one private answer refuses them all: a rebinding DNS may mix them)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if not private_allowed() and ("%" in host or _named_private(host)):
        raise ValidationFailed(URL_PRIVATE)
    literal = ip_literal(host)
    if literal is not None:
        addresses: list[Address] = [literal]
    else:
        try:
            answers = await _lookup(host, port)
            addresses = [ipaddress.ip_address(answer) for answer in answers]
        except (OSError, UnicodeError, ValueError):
            raise ValidationFailed(URL_UNRESOLVED) from None
    if not addresses:
        raise ValidationFailed(URL_UNRESOLVED)
    if not private_allowed() and any(is_private(address) for address in addresses):
        raise ValidationFailed(URL_PRIVATE)
    return tuple(dict.fromkeys(str(address) for address in addresses))
