"""Password hashing (argon2id) and the rules every new password meets (GoTrue's `checkPasswordStrength`
wire format, NIST SP 800-63B's content): at least PASSWORD_MIN_LENGTH (8) characters, at most 72 bytes, no
composition rules unless an operator sets PASSWORD_REQUIRED_CHARACTERS, and not a common, breached or
otherwise easily guessed password. That last check is zxcvbn's estimate of the guesses an attacker needs
(frequency lists from leaked passwords, common words and names, keyboard patterns, dates, repeats, and the
person's own e-mail and name); below 10^6 guesses, its scores 0 and 1, the password is refused with
`weak_password` and the reason `pwned`. 10^6 is where zxcvbn stops calling a guess count "too guessable":
it is out of reach of an online attack throttled as this service throttles sign-ins, while a list of the
commonest hundred thousand passwords — what NIST asks to refuse — is far inside it. zxcvbn takes up to a
quarter of a second on a long password, so it runs on the hashing pool below, like argon2.

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
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from zxcvbn import zxcvbn

from app.auth.errors import AuthApiError, too_many_requests, unprocessable, validation_failed
from app.settings import get_settings

MAX_PASSWORD_BYTES = 72  # bcrypt's limit, kept by GoTrue for every hash
MIN_GUESSES = 10**6  # see the module's docstring
GUESSABLE = "This password is too easy to guess."
GUESSABLE_HINT = "Try a few unrelated words, or let your password manager make one."

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
    """Reasons (`length`, `characters`) and the message, or None if the password passes the cheap rules
    (also reported, as GoTrue does, when a password signs in: so an old `123456` is told to change)."""
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


def guessable(password: str, user_inputs: Iterable[str] = ()) -> str | None:
    """The message refusing a password zxcvbn finds under MIN_GUESSES guesses away, or None. Slow: call it
    through `check_new_password`, which runs it on the hashing pool. `user_inputs` (the person's e-mail,
    names) count as words an attacker would try first."""
    words = [word for text in user_inputs if text for word in {text, *text.replace("@", " ").split()}]
    result = zxcvbn(password[:MAX_PASSWORD_BYTES], user_inputs=[*words[:20], "medivisit"])
    if result["guesses"] >= MIN_GUESSES:
        return None
    warning = (result.get("feedback") or {}).get("warning") or ""
    return " ".join(part for part in (GUESSABLE, warning, GUESSABLE_HINT) if part)


def weak_password_error(password: str) -> AuthApiError | None:
    found = weakness(password)
    if found is None:
        return None
    reasons, message = found
    return unprocessable("weak_password", message, extra={"weak_password": {"reasons": reasons}})


async def check_new_password(password: str, *, user_inputs: Iterable[str] = (), ip: str = "") -> None:
    """The one rule for every new password (sign-up, PUT /user, recovery, invitations, the CLI): 400 over
    72 bytes; 422 `weak_password` with reasons `length`/`characters`, or `pwned` when it is easy to guess."""
    if len(password.encode()) > MAX_PASSWORD_BYTES:
        raise validation_failed(f"Password cannot be longer than {MAX_PASSWORD_BYTES} characters")
    error = weak_password_error(password)
    if error is not None:
        raise error
    inputs = list(user_inputs)
    refusal = await _on_hashing_pool(lambda: guessable(password, inputs), ip=ip)
    if refusal is not None:
        raise unprocessable("weak_password", refusal, extra={"weak_password": {"reasons": ["pwned"]}})
