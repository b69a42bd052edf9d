"""Password hashing (argon2id) and GoTrue's password rules (`checkPasswordStrength`).

Hashing runs in a worker thread: argon2 is deliberately slow and must not stall the event loop.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from app.auth.errors import AuthApiError, unprocessable, validation_failed
from app.settings import get_settings

MAX_PASSWORD_BYTES = 72  # bcrypt's limit, kept by GoTrue for every hash


def _hasher() -> PasswordHasher:
    settings = get_settings()
    return _hasher_for(settings.password_hash_memory_kib, settings.password_hash_time_cost)


@lru_cache
def _hasher_for(memory_kib: int, time_cost: int) -> PasswordHasher:
    return PasswordHasher(memory_cost=memory_kib, time_cost=time_cost)  # argon2id


@lru_cache
def _dummy_hash_for(memory_kib: int, time_cost: int) -> str:
    return _hasher_for(memory_kib, time_cost).hash("medivisit-timing-equaliser")


def _dummy_hash() -> str:
    settings = get_settings()
    return _dummy_hash_for(settings.password_hash_memory_kib, settings.password_hash_time_cost)


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher().hash, password)


async def verify_password(encoded: str | None, password: str) -> bool:
    """Constant work whether or not the account has a password (no user enumeration by timing)."""

    def check() -> bool:
        try:
            return _hasher().verify(encoded or _dummy_hash(), password) and encoded is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


def weakness(password: str) -> tuple[list[str], str] | None:
    """Reasons (`length`, `characters`) and the message, or None if the password passes the rules."""
    settings = get_settings()
    reasons: list[str] = []
    messages: list[str] = []
    if len(password) < settings.password_min_length:
        reasons.append("length")
        messages.append(f"Password should be at least {settings.password_min_length} characters.")
    sets = [chars for chars in settings.password_required_characters.split(":") if chars]
    if sets and not all(any(c in chars for c in password) for chars in sets):
        reasons.append("characters")
        messages.append("Password should contain at least one character of each: " + ", ".join(sets) + ".")
    if not reasons:
        return None
    return reasons, " ".join(messages)


def weak_password_error(password: str) -> AuthApiError | None:
    found = weakness(password)
    if found is None:
        return None
    reasons, message = found
    return unprocessable("weak_password", message, extra={"weak_password": {"reasons": reasons}})


def check_new_password(password: str) -> None:
    """Rules for sign-up and password changes: 400 over 72 bytes, 422 `weak_password` with reasons."""
    if len(password.encode()) > MAX_PASSWORD_BYTES:
        raise validation_failed(f"Password cannot be longer than {MAX_PASSWORD_BYTES} characters")
    error = weak_password_error(password)
    if error is not None:
        raise error
