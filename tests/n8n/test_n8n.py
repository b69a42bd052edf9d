"""`make test-n8n` (opt-in, not part of `make test`): a real n8n from npm (tests/n8n/package.json) imports the
appointment-reminder template as MediVisit serves it, activates it, and a real booking (the checkout service
the site uses, on a test database) reaches it through the outbox and the delivery job; n8n's own database
then shows the execution its Webhook trigger started, with the booking's appointment id.

n8n 1.123.x is pinned: the last line that runs on Node 20 (n8n 2.x needs Node 24). Its first start
migrates its SQLite database (about a minute on two cores)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.services.automation import connect_webhook, workflow_json
from app.services.automation.internal import deliver_due_webhooks
from app.services.booking import CheckoutLine, hold_slot, place_order
from models.account import Role
from models.catalog import ServiceLocation
from tests.conftest import free_port
from tests.factories import ZIP, person, provider, run

HERE = Path(__file__).parent
N8N = HERE / "node_modules" / ".bin" / "n8n"
NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)
TEMPLATE = "appointment-reminder"

pytestmark = pytest.mark.skipif(not N8N.exists(), reason="n8n is not installed: run `make test-n8n`")


def _env(folder: Path, port: int) -> dict[str, str]:
    return {
        **os.environ,
        "N8N_USER_FOLDER": str(folder),
        "N8N_PORT": str(port),
        "N8N_LISTEN_ADDRESS": "127.0.0.1",
        "N8N_HOST": "127.0.0.1",
        "N8N_DIAGNOSTICS_ENABLED": "false",
        "N8N_VERSION_NOTIFICATIONS_ENABLED": "false",
        "N8N_PERSONALIZATION_ENABLED": "false",
        "N8N_TEMPLATES_ENABLED": "false",
        "N8N_SECURE_COOKIE": "false",
        "N8N_RUNNERS_ENABLED": "false",
        "N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS": "false",
        "DB_TYPE": "sqlite",
        "EXECUTIONS_MODE": "regular",
    }


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(N8N), *args], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"n8n {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def n8n(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """n8n with the template imported and active; yields its base URL and its SQLite database."""
    folder = tmp_path_factory.mktemp("n8n")
    port = free_port()
    env = _env(folder, port)
    workflow = folder / f"{TEMPLATE}.json"
    workflow.write_text(json.dumps(workflow_json(TEMPLATE)))
    _cli(env, "import:workflow", f"--input={workflow}")
    _cli(env, "update:workflow", "--all", "--active=true")
    log = (folder / "n8n.log").open("w")
    process = subprocess.Popen([str(N8N), "start"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 240
        # /healthz answers before the active workflows' webhooks are registered: wait for n8n to say so.
        while "Activated workflow" not in (folder / "n8n.log").read_text():
            assert process.poll() is None, (folder / "n8n.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "n8n did not start within 4 minutes"
            time.sleep(0.5)  # a process that is starting: nothing to wait on but what it writes
        assert urllib.request.urlopen(f"{base}/healthz", timeout=5).status == 200
        yield base, folder / ".n8n" / "database.sqlite"
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


def _executions(database: Path) -> list[tuple[str, str, str]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT e.id, e.mode, e.status FROM execution_entity AS e ORDER BY e.id").fetchall()


def _execution_data(database: Path, execution_id: str) -> str:
    with contextlib.closing(sqlite3.connect(database)) as db:
        (data,) = db.execute(
            "SELECT data FROM execution_data WHERE executionId = ?", (execution_id,)
        ).fetchone()
    return data


async def test_a_booking_starts_the_imported_appointment_reminder(identity, n8n) -> None:
    base, database = n8n
    owner = await person(Role.owner)
    patient = await person(name="Jordan Park")
    ana = await provider(
        "Ana Reyes", zip_codes=[ZIP], offers={"routine-blood-draw": ("85", (ServiceLocation.home,))}
    )
    url = f"{base}/webhook/medivisit-{TEMPLATE}"
    connected = await run(connect_webhook, actor=owner.actor, webhook_url=url)
    assert connected.message == "Successfully connected to n8n", connected.detail

    held = await run(
        hold_slot,
        actor=patient.actor,
        service_slug="routine-blood-draw",
        provider_id=ana,
        starts_at=NINE,
        zip_code=ZIP,
        location=ServiceLocation.home,
        now=NOW,
    )
    line = CheckoutLine(
        hold_id=held.id,
        location=ServiceLocation.home,
        address_line="12 Main St",
        city="New York",
        state="NY",
        zip_code=ZIP,
    )
    order = await run(place_order, actor=patient.actor, lines=[line], now=NOW)
    assert await deliver_due_webhooks(now=NOW) == 1

    appointment_id = order.appointments[0].id
    deadline = time.monotonic() + 60
    found = None
    while found is None:
        for execution_id, mode, status in _executions(database):
            # Started by the event, past the event-type filter, now waiting until 24 hours before the visit.
            if (
                mode == "webhook"
                and status == "waiting"
                and appointment_id in _execution_data(database, execution_id)
            ):
                found = execution_id
        assert found or time.monotonic() < deadline, _executions(database)
        if found is None:
            await asyncio.sleep(0.5)  # n8n writes the execution from its own process: poll its database
    print(f"n8n execution {found} started by appointment {appointment_id}")
