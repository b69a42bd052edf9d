"""Secrets the server must read back later (TOTP seeds), encrypted at rest with Fernet (AES-128-CBC +
HMAC-SHA256, from `cryptography`).

The key is `DATA_ENCRYPTION_KEY` (a Fernet key: 32 url-safe base64 bytes) when set; otherwise it is derived
from the identity service's signing-key secret, so that every worker and host sharing the signing key also
shares this one. A value stored before encryption existed (no `enc:v1:` prefix) is still read as it is.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet

from app.auth.keys import get_key_ring
from app.settings import get_settings

PREFIX = "enc:v1:"


@lru_cache
def _fernet(configured: str | None, derived_from: bytes) -> Fernet:
    if configured:
        return Fernet(configured.encode())
    key = hashlib.sha256(b"medivisit-data-encryption\x00" + derived_from).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def _cipher() -> Fernet:
    return _fernet(get_settings().data_encryption_key, get_key_ring().secret)


def seal(value: str) -> str:
    """The value as stored: `enc:v1:` and the Fernet token."""
    return PREFIX + _cipher().encrypt(value.encode()).decode()


def unseal(stored: str) -> str:
    """The value back from what `seal` stored (or from a plain value stored before sealing)."""
    if not stored.startswith(PREFIX):
        return stored
    return _cipher().decrypt(stored.removeprefix(PREFIX).encode()).decode()
