"""Password hashing (argon2id) and GoTrue's password rules (`checkPasswordStrength`).

argon2 is deliberately slow (64 MiB × 3 passes by default), so hashing is a resource an attacker can
exhaust: it runs on its own small thread pool (`PASSWORD_HASH_CONCURRENCY` threads, one per core by default)
so concurrent attempts queue instead of all competing for the CPU, never stalls the event loop, and never
takes the threads the rest of the app uses. `password_check_slot(ip)` bounds how many checks one client
address may have queued or running at once, so a single client cannot fill that queue.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from app.auth.errors import AuthApiError, too_many_requests, unprocessable, validation_failed
from app.settings import get_settings

MAX_PASSWORD_BYTES = 72  # bcrypt's limit, kept by GoTrue for every hash

T = TypeVar("T")


class _HashingGate:
    """At most `capacity` hashes run at once; the others wait in line, and checks from client addresses
    that failed a sign-in recently wait behind everybody else, so an attack delays the attacker, not a
    patient signing in from anywhere else."""

    def __init__(self) -> None:
        self._running = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    async def acquire(self, capacity: int, rank: int) -> None:
        if self._running < capacity and not self._waiting:
            self._running += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (rank, next(self._arrivals), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(capacity)  # given a turn just as it was cancelled: pass it on
            raise

    def release(self, capacity: int) -> None:
        self._running -= 1
        while self._waiting and self._running < capacity:
            _rank, _arrival, turn = heapq.heappop(self._waiting)
            if not turn.done():
                self._running += 1
                turn.set_result(None)


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _HashingGate] = weakref.WeakKeyDictionary()


@lru_cache
def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="argon2")


async def _on_hashing_pool(work: Callable[[], T], *, ip: str = "") -> T:
    threads = get_settings().password_hash_concurrency or os.cpu_count() or 1
    loop = asyncio.get_running_loop()
    gate = _gates.setdefault(loop, _HashingGate())
    await gate.acquire(threads, rank=1 if ip in _recent_failures else 0)
    try:
        return await loop.run_in_executor(_pool(threads), work)
    finally:
        gate.release(threads)


# Client addresses whose last password check failed (oldest first), for the hashing line's order.
_recent_failures: dict[str, None] = {}
_RECENT_FAILURES_KEPT = 10_000


def note_failed_check(ip: str) -> None:
    """Remember that `ip` just failed a password check (until it passes one, or 10,000 newer addresses
    have failed since)."""
    if not ip:
        return
    _recent_failures.pop(ip, None)
    _recent_failures[ip] = None
    while len(_recent_failures) > _RECENT_FAILURES_KEPT:
        del _recent_failures[next(iter(_recent_failures))]


def note_passed_check(ip: str) -> None:
    _recent_failures.pop(ip, None)


class _AddressLine:
    """One client address's password checks: a few at once, the rest wait their turn (holding nothing
    but a connection), and beyond the waiting room the address is told to slow down."""

    def __init__(self, at_once: int) -> None:
        self.turns = asyncio.Semaphore(at_once)
        self.present = 0


_lines: dict[str, _AddressLine] = {}


@asynccontextmanager
async def password_check_slot(ip: str) -> AsyncIterator[None]:
    """Hold one of the client address's `PASSWORD_CHECKS_PER_IP` turns while its password is checked.

    Further checks from that address wait for a turn, so a flood from one address is served two at a time
    instead of crowding the hashing line; past `PASSWORD_CHECKS_WAITING_PER_IP` waiting, 429 at once."""
    settings = get_settings()
    at_once = settings.password_checks_per_ip
    if at_once <= 0 or not ip:
        yield
        return
    line = _lines.setdefault(ip, _AddressLine(at_once))
    if line.present >= at_once + settings.password_checks_waiting_per_ip:
        raise too_many_requests("over_request_rate_limit", "Request rate limit reached", retry_after=1)
    line.present += 1
    try:
        async with line.turns:
            yield
    finally:
        line.present -= 1
        if line.present == 0:
            del _lines[ip]


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
    return await _on_hashing_pool(lambda: _hasher().hash(password))


async def verify_password(encoded: str | None, password: str, *, ip: str = "") -> bool:
    """Constant work whether or not the account has a password (no user enumeration by timing).

    `ip`, the client's address, places the check in the hashing line (see `_HashingGate`)."""

    def check() -> bool:
        try:
            return _hasher().verify(encoded or _dummy_hash(), password) and encoded is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await _on_hashing_pool(check, ip=ip)


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
