"""The automation webhook's SSRF care (issue 27, inputs 5): every written form of a private address is
refused, and a request connects to the very address that was checked, so a DNS answer that changes between
the check and the connection (DNS rebinding) is never used.

Before the fix `[::127.0.0.1]` (IPv4-compatible) and `[64:ff9b::7f00:1]` (NAT64) passed the check, and
httpx resolved the host name a second time to connect.
"""

from __future__ import annotations

import pytest

from app.services.automation import _urls
from app.services.automation._transport import Target, send
from app.services.automation._urls import URL_PRIVATE, check_url, resolve_checked
from app.services.errors import ValidationFailed
from app.settings import get_settings
from tests.webhook_receiver import Receiver

PRIVATE_FORMS = [
    "http://[::127.0.0.1]/hook",  # IPv4-compatible
    "http://[64:ff9b::7f00:1]/hook",  # NAT64 of 127.0.0.1
    "http://[64:ff9b::a9fe:a9fe]/hook",  # NAT64 of the cloud metadata address
    "http://[64:ff9b:1::808:808]/hook",  # local-use NAT64 prefix
    "http://[::ffff:0:7f00:1]/hook",  # SIIT IPv4-translated
    "http://[::ffff:169.254.169.254]/hook",  # IPv4-mapped
    "http://[2002:7f00:1::]/hook",  # 6to4 of 127.0.0.1
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",  # Teredo
    "http://[fe80::1%25eth0]/hook",  # a zone id
    "http://[::]/hook",
    "http://[ff02::1]/hook",
    "http://2130706433/hook",  # decimal 127.0.0.1
    "http://0x7f.1/hook",
    "http://017700000001/hook",  # octal
    "http://127.1/hook",
    "http://0/hook",
    "http://100.64.0.1/hook",  # carrier-grade NAT
    "http://127.0.0.1./hook",
]
PUBLIC_FORMS = [
    "https://93.184.216.34/hook",
    "https://[64:ff9b::5db8:d822]/hook",  # NAT64 of a public address
    "https://[2002:5db8:d822::]/hook",  # 6to4 of a public address
    "https://[2606:4700::1111]/hook",
]


@pytest.fixture
def production(monkeypatch):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.delenv("AUTOMATION_ALLOW_PRIVATE_URLS", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def private_allowed(monkeypatch):
    monkeypatch.setenv("AUTOMATION_ALLOW_PRIVATE_URLS", "true")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


class Resolver:
    """A DNS stand-in that answers from a script, one answer list per lookup, and counts the lookups."""

    def __init__(self, monkeypatch, *answers: list[str]) -> None:  # noqa: ANN001 - pytest's fixture
        self.answers = list(answers)
        self.asked: list[str] = []
        monkeypatch.setattr(_urls, "_lookup", self.lookup)

    async def lookup(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


@pytest.mark.parametrize("url", PRIVATE_FORMS)
async def test_every_form_of_a_private_address_is_refused(production, url) -> None:
    with pytest.raises(ValidationFailed) as refused:
        check_url(url)
    assert refused.value.message == URL_PRIVATE
    with pytest.raises(ValidationFailed):
        await resolve_checked(url)


@pytest.mark.parametrize("url", PUBLIC_FORMS)
async def test_public_addresses_pass_in_any_form(production, url) -> None:
    assert check_url(url) == url
    assert len(await resolve_checked(url)) == 1


async def test_one_private_answer_among_public_ones_refuses_the_name(production, monkeypatch) -> None:
    resolver = Resolver(monkeypatch, ["93.184.216.34", "::ffff:127.0.0.1"])
    assert check_url("https://hooks.example.com/x")  # a name is judged once resolved
    with pytest.raises(ValidationFailed) as refused:
        await resolve_checked("https://hooks.example.com/x")
    assert refused.value.message == URL_PRIVATE
    assert resolver.asked == ["hooks.example.com"]


async def test_a_rebinding_name_is_refused_before_any_connection(production, monkeypatch) -> None:
    with Receiver() as receiver:
        Resolver(monkeypatch, ["127.0.0.1"])
        outcome = await send(
            Target(
                url="http://hooks.example.com/x",
                secrets=(),
                header_name="",
                header_token="",
                simulation=False,
            ),
            message_id="msg_rebind",
            body="{}",
        )
        assert not outcome.ok and outcome.error == f"Refused: {URL_PRIVATE}"
        assert receiver.requests == []


async def test_the_request_connects_to_the_address_that_was_checked(private_allowed, monkeypatch) -> None:
    """The stand-in DNS answers the receiver's address once, then an address where nothing listens: the
    request still reaches the receiver, with the name in its Host header, after a single lookup."""
    with Receiver() as receiver:
        port = int(receiver.url().rsplit(":", 1)[1].split("/")[0])
        resolver = Resolver(monkeypatch, ["127.0.0.1"], ["127.0.0.3"])
        target = Target(
            url=f"http://hooks.medivisit.test:{port}/webhook/x",
            secrets=("whsec_" + "A" * 32,),
            header_name="",
            header_token="",
            simulation=False,
        )
        outcome = await send(target, message_id="msg_pinned", body='{"type":"test"}')
        assert outcome.ok, outcome
        (received,) = receiver.wait_for(1)
        assert received.path == "/webhook/x"
        assert received.headers["host"] == f"hooks.medivisit.test:{port}"
        assert received.body == b'{"type":"test"}'
        assert resolver.asked == ["hooks.medivisit.test"]


async def test_the_next_checked_address_is_tried_when_one_refuses(private_allowed, monkeypatch) -> None:
    with Receiver() as receiver:
        port = int(receiver.url().rsplit(":", 1)[1].split("/")[0])
        Resolver(monkeypatch, ["::1", "127.0.0.1"])  # the receiver listens on IPv4 only
        outcome = await send(
            Target(
                url=f"http://localhost:{port}/hook",
                secrets=(),
                header_name="",
                header_token="",
                simulation=False,
            ),
            message_id="msg_next",
            body="{}",
        )
        assert outcome.ok, outcome
        assert len(receiver.wait_for(1)) == 1
