"""SMTP delivery: turns an outbox message into a MIME e-mail and hands it to the SMTP server in SMTP_URL.

SMTP_URL forms: `smtp://host:port`, `smtp://user:password@host:port` (STARTTLS when offered),
`smtps://host:465` (implicit TLS).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from html import unescape
from urllib.parse import unquote, urlsplit

import aiosmtplib

SMTP_TIMEOUT_SECONDS = 15


class DeliveryError(Exception):
    """The SMTP server could not be reached or refused the message."""


def _plain_text(html: str) -> str:
    text = re.sub(r"<(br|/p|/div|/h\d|/li|/tr)\b[^>]*>", "\n", html, flags=re.I)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"\n{3,}", "\n\n", unescape(text)).strip()


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (an invoice's PDF)."""

    filename: str
    content: bytes
    media_type: str = "application/pdf"


def build_message(
    *,
    sender: str,
    recipients: list[str],
    subject: str,
    html: str,
    attachments: Sequence[Attachment] = (),
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(recipients)
    # One line, whatever the caller passed: a CR or LF in a header is refused by the e-mail package.
    message["Subject"] = " ".join(subject.split())
    message["Message-ID"] = make_msgid(domain="medivisit.local")
    message.set_content(_plain_text(html))
    message.add_alternative(html, subtype="html")
    for attachment in attachments:
        maintype, _, subtype = attachment.media_type.partition("/")
        message.add_attachment(
            attachment.content, maintype=maintype, subtype=subtype, filename=attachment.filename
        )
    return message


async def deliver(smtp_url: str, message: EmailMessage) -> None:
    """Send one message; raises DeliveryError with a reason that is safe to store (no credentials)."""
    url = urlsplit(smtp_url)
    if url.scheme not in {"smtp", "smtps"} or not url.hostname:
        raise DeliveryError("SMTP_URL must look like smtp://host:port or smtps://host:port")
    implicit_tls = url.scheme == "smtps"
    try:
        await aiosmtplib.send(
            message,
            hostname=url.hostname,
            port=url.port or (465 if implicit_tls else 25),
            username=unquote(url.username) if url.username else None,
            password=unquote(url.password) if url.password else None,
            use_tls=implicit_tls,
            start_tls=None if not implicit_tls else False,
            timeout=SMTP_TIMEOUT_SECONDS,
        )
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        raise DeliveryError(f"{type(exc).__name__}: {exc}") from exc
