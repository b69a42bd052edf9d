"""One signed request to the webhook URL (httpx): the Standard Webhooks headers, the optional Header Auth
token, a timeout (AUTOMATION_TIMEOUT_SECONDS, 15 s), redirects not followed (3xx is a failure), and what
came back, shortened for the log. Never raises: a network failure is an outcome too.

The connection goes to an address `resolve_checked` resolved and checked for this very request (pinned):
the URL's host is swapped for that address, the Host header keeps the name, and for https the TLS server
name (SNI, and so the certificate check) is the name too (httpx's `sni_hostname` extension). httpx never
resolves the name again, so a DNS answer that changes between the check and the connection is never used."""

from __future__ import annotations

import time
from dataclasses import dataclass

import httpx

from app.auth.sealed import unseal
from app.services.automation._signing import webhook_headers
from app.services.automation._urls import resolve_checked
from app.services.errors import ValidationFailed
from app.settings import get_settings
from models.automation import MAX_EXCERPT, AutomationIntegration

USER_AGENT = "MediVisit-Webhooks/1.0"
MAX_ADDRESSES = 4  # checked addresses tried in turn when one refuses the connection


@dataclass(frozen=True)
class Target:
    """Where and how to send, read from the integration row while its transaction was open."""

    url: str
    secrets: tuple[str, ...]
    header_name: str
    header_token: str
    simulation: bool

    @classmethod
    def of(cls, row: AutomationIntegration, *, rotating: bool, url: str | None = None) -> Target:
        signing = [unseal(row.secret_sealed)] if row.secret_sealed else []
        if rotating and row.previous_secret_sealed:
            signing.append(unseal(row.previous_secret_sealed))
        return cls(
            url=url if url is not None else row.webhook_url,
            secrets=tuple(signing),
            header_name=row.header_name,
            header_token=unseal(row.header_token_sealed) if row.header_token_sealed else "",
            simulation=row.simulation,
        )


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    error: str
    excerpt: str
    duration_ms: int
    simulated: bool = False

    @property
    def ok(self) -> bool:
        return self.simulated or (self.status_code is not None and 200 <= self.status_code < 300)

    @property
    def gone(self) -> bool:
        return self.status_code == 410


SIMULATED = Outcome(
    status_code=None, error="", excerpt="Simulation mode: no request was made.", duration_ms=0, simulated=True
)


def _excerpt(response: httpx.Response) -> str:
    text = response.content[: MAX_EXCERPT * 4].decode("utf-8", errors="replace")
    return " ".join(text.split())[:MAX_EXCERPT]


async def send(target: Target, *, message_id: str, body: str) -> Outcome:
    """POST `body` to the target, signed now."""
    if target.simulation:
        return SIMULATED
    started = time.perf_counter()

    def took() -> int:
        return int((time.perf_counter() - started) * 1000)

    try:
        addresses = await resolve_checked(target.url)
    except ValidationFailed as exc:
        return Outcome(None, f"Refused: {exc.message}"[:200], "", took())
    headers = webhook_headers(
        message_id=message_id, timestamp=int(time.time()), body=body, secrets_=list(target.secrets)
    )
    headers["user-agent"] = USER_AGENT
    if target.header_name and target.header_token:
        headers[target.header_name] = target.header_token
    url = httpx.URL(target.url)
    headers["host"] = url.netloc.decode("ascii")
    extensions = {"sni_hostname": url.raw_host.decode("ascii")} if url.scheme == "https" else {}
    timeout = get_settings().automation_timeout_seconds
    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            for tried, address in enumerate(addresses[:MAX_ADDRESSES], start=1):
                try:
                    response = await client.post(
                        url.copy_with(host=address),
                        content=body.encode(),
                        headers=headers,
                        extensions=extensions,
                    )
                    break
                except httpx.ConnectError:
                    if tried == min(len(addresses), MAX_ADDRESSES):
                        raise
    except httpx.TimeoutException:
        return Outcome(None, f"No answer within {timeout:g} s", "", took())
    except httpx.ConnectError as exc:
        return Outcome(
            None, f"Could not connect: {exc}"[:200] if str(exc) else "Could not connect", "", took()
        )
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        return Outcome(None, f"{type(exc).__name__}: {exc}"[:200], "", took())
    return Outcome(response.status_code, "", _excerpt(response), took())
