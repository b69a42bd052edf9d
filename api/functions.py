"""Edge-function compatible endpoints under /functions/v1 (the original product's serverless functions)."""

from __future__ import annotations

import math

import nh3
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from api.deps import SessionDep
from app import flags, ratelimit
from app.outbox import send_email
from app.settings import get_settings
from models.mail import OutboxStatus

router = APIRouter(prefix="/functions/v1", tags=["functions"])

# What a message body may keep: text structure and tables (the bug report), nothing that runs, loads or
# links elsewhere. Links become their text, so a message from no-reply@ can never carry a phishing link.
ALLOWED_TAGS = {
    "p", "br", "h1", "h2", "h3", "h4", "strong", "b", "em", "i", "u", "ul", "ol", "li", "blockquote",
    "pre", "code", "table", "thead", "tbody", "tr", "th", "td", "hr", "span", "div",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"th": {"align"}, "td": {"align"}, "table": {"cellpadding"}}


def sanitize_html(html: str) -> str:
    """The body as it will be stored and sent: nh3 (ammonia) with the small allow-list above."""
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, link_rel=None)


class SendEmailRequest(BaseModel):
    # `from` is accepted and ignored: mail always leaves from MAIL_FROM, so nobody can spoof a sender.
    model_config = ConfigDict(extra="ignore")

    to: list[str] = Field(min_length=1, max_length=10)
    subject: str = Field(min_length=1, max_length=998)
    html: str = Field(min_length=1, max_length=200_000)

    @field_validator("subject")
    @classmethod
    def _one_line(cls, value: str) -> str:
        # A line break in a header would let the caller write headers of their own (header injection).
        if any(ord(c) < 32 or c == "\x7f" for c in value):
            raise ValueError("The subject must be a single line without control characters")
        return value

    @field_validator("to", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value


@router.post(
    "/send-email",
    responses={200: {"description": "`{id}` of the stored message"}, 403: {}, 422: {}, 429: {}, 502: {}},
)
async def send_email_function(body: SendEmailRequest, session: SessionDep, request: Request) -> JSONResponse:
    """Store an e-mail in the outbox and deliver it over SMTP when configured.

    Only the support inbox may be addressed: the endpoint is public (the bug-report dialog of
    signed-out visitors uses it), so it must not be an open mail relay. Each client address may send
    `RATE_LIMIT_SEND_EMAIL` messages in `ABUSE_LIMIT_WINDOW` seconds, and the HTML is sanitised.
    """
    settings = get_settings()
    wait = await ratelimit.hit(
        "send_email",
        request.client.host if request.client else "",
        limit=settings.rate_limit_send_email,
        window=settings.abuse_limit_window,
    )
    if wait is not None:
        return JSONResponse(
            {"error": "Too many messages from this address, please try again later", "code": "rate_limited"},
            status_code=429,
            headers={"Retry-After": str(math.ceil(wait))},
        )
    support = flags.support_email().lower()
    if any(address.strip().lower() != support for address in body.to):
        return JSONResponse(
            {"error": "Recipients other than the support address are not allowed"}, status_code=403
        )
    message = await send_email(
        session=session, recipients=[support], subject=body.subject, html=sanitize_html(body.html)
    )
    if message.status == OutboxStatus.failed:
        return JSONResponse({"error": "The e-mail could not be delivered", "id": message.id}, status_code=502)
    return JSONResponse({"id": message.id})
