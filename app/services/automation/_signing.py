"""Standard Webhooks v1 signatures (standard-webhooks spec): `v1,<base64 HMAC-SHA256>` over
`{webhook-id}.{webhook-timestamp}.{body}` with a `whsec_<base64 key>` secret. While a secret is being
rotated out, every message is signed with both (space-separated), so receivers switch without a gap."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import uuid

PREFIX = "whsec_"
KEY_BYTES = 32


def new_secret() -> str:
    """A fresh signing secret: `whsec_` and 32 random bytes in base64."""
    return PREFIX + base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode()


def new_message_id() -> str:
    return "msg_" + uuid.uuid4().hex


def sign(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """One `v1,` signature of `body` as sent with this id and timestamp."""
    key = base64.b64decode(secret.removeprefix(PREFIX))
    content = f"{message_id}.{timestamp}.{body}".encode()
    return "v1," + base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode()


def webhook_headers(*, message_id: str, timestamp: int, body: str, secrets_: list[str]) -> dict[str, str]:
    """The three Standard Webhooks headers (plus the JSON content type) for one request."""
    return {
        "content-type": "application/json",
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(sign(s, message_id, timestamp, body) for s in secrets_),
    }


def hint(secret: str) -> str:
    """Enough of a secret to tell two apart on screen, never enough to use: `whsec_…AbCd`."""
    return f"{PREFIX}…{secret[-4:]}" if secret else ""
