"""Login under a password-guessing flood, with the production argon2 cost (64 MiB × 3 passes).

48 concurrent wrong-password sign-ins used to queue 48 argon2 hashes on the default thread pool, and a real
patient's sign-in took 12.6 s. Hashing now runs on a bounded pool, each client address may have only two
checks running (the others wait their turn), and addresses that keep failing wait behind everybody else: a
legitimate sign-in from another address stays under a second while the flood goes on, from one address or
from many. (The very first burst from addresses never seen before is served in arrival order: nothing tells
those apart from a patient yet.)
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.api.conftest import start_identity_server, unique_email
from tests.conftest import LiveServer, stop_server

TOKEN = "/auth/v1/token?grant_type=password"
FLOOD = 48


@pytest.fixture(scope="module")
def production_cost_server(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    _inbox, smtp_url = smtp_server
    server = start_identity_server(
        tmp_path_factory.mktemp("auth-flood"),
        smtp_url,
        PASSWORD_HASH_MEMORY_KIB="65536",
        PASSWORD_HASH_TIME_COST="3",
        MAILER_AUTOCONFIRM="true",
    )
    yield server
    stop_server(server)


async def _flood_and_sign_in(server: LiveServer, attacker_ips: list[str]) -> tuple[list[float], Counter]:
    email, password = unique_email("patient"), "Real-patient-1"
    async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as http:
        signup = await http.post(
            "/auth/v1/signup",
            json={"email": email, "password": password},
            headers={"X-Forwarded-For": "10.8.0.1"},
        )
        assert signup.is_success, signup.text
        stop, steady = asyncio.Event(), asyncio.Event()
        outcomes: Counter = Counter()
        failed_from: set[str] = set()

        async def attacker(n: int) -> None:
            ip = attacker_ips[n % len(attacker_ips)]
            while not stop.is_set():
                answer = await http.post(
                    TOKEN,
                    json={"email": unique_email("victim"), "password": "wrong-guess"},
                    headers={"X-Forwarded-For": ip},
                )
                outcomes[answer.status_code] += 1
                if answer.status_code == 400:
                    failed_from.add(ip)
                    if failed_from == set(attacker_ips):
                        steady.set()  # every attacking address has had a wrong password checked

        flood = [asyncio.create_task(attacker(n)) for n in range(FLOOD)]
        try:
            await asyncio.wait_for(steady.wait(), 60)
            timings = []
            for _ in range(3):
                started = time.monotonic()
                answer = await http.post(
                    TOKEN,
                    json={"email": email, "password": password},
                    headers={"X-Forwarded-For": "10.8.0.2"},
                )
                timings.append(time.monotonic() - started)
                assert answer.status_code == 200, answer.text
        finally:
            stop.set()
            await asyncio.gather(*flood)
    return timings, outcomes


@pytest.mark.parametrize("addresses", [1, FLOOD], ids=["from-one-address", "from-48-addresses"])
async def test_a_real_sign_in_stays_under_a_second_during_a_flood(production_cost_server, addresses) -> None:
    ips = [f"10.9.{addresses}.{n}" for n in range(addresses)]
    timings, outcomes = await _flood_and_sign_in(production_cost_server, ips)
    assert outcomes[400] >= 2, outcomes  # wrong passwords were really being checked all along
    assert max(timings) < 1.0, f"sign-in took {[round(t, 2) for t in timings]} s during the flood {outcomes}"
