"""`python -m medivisit users create|set-role` and `seed --demo` against the test database, then signing in
through /auth/v1/token. The password comes from standard input and is never printed.

The commands run in this process (`tests.conftest.run_cli`: the CLI's `main` with its own standard input,
output, error and environment); what only a real process shows is checked on real `python -m medivisit`
processes: the hidden prompt on a terminal and argparse's exit code."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.api.conftest import unique_email
from tests.conftest import CliResult, migrated_sqlite_database, run_cli

ROOT = Path(__file__).resolve().parents[2]
FAST = {"PASSWORD_HASH_MEMORY_KIB": "1024", "PASSWORD_HASH_TIME_COST": "1"}


def cli(database_url: str, *args: str, stdin: str = "", **env: str) -> CliResult:
    """`python -m medivisit *args` on `database_url`, in this process."""
    return run_cli(*args, stdin=stdin, env={"DATABASE_URL": database_url, **FAST, **env})


def cli_process(database_url: str, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess:
    """The same as a real `python -m medivisit` process."""
    process_env = {k: v for k, v in os.environ.items() if k not in {"SMTP_URL", "APP_ENV"}}
    process_env |= {"DATABASE_URL": database_url, **FAST, **env}
    return subprocess.run(
        [sys.executable, "-m", "medivisit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=process_env,
        cwd=ROOT,
        timeout=60,
    )


async def sign_in(client, email: str, password: str):  # noqa: ANN001, ANN201
    return await client.post(
        "/auth/v1/token?grant_type=password", json={"email": email, "password": password}
    )


async def test_create_reads_the_password_from_stdin_and_the_account_signs_in(
    auth_client, database_url
) -> None:
    email = unique_email("first-owner")
    password = f"pw-{uuid.uuid4().hex[:12]} with spaces "
    done = cli(
        database_url,
        "users",
        "create",
        "--email",
        email.upper(),
        "--role",
        "owner",
        "--name",
        "Ada Lovelace",
        stdin=password + "\n",
    )
    assert done.returncode == 0, done.stderr
    assert f"Created {email} with the owner role" in done.stdout
    assert password.strip() not in done.stdout + done.stderr

    response = await sign_in(auth_client, email, password)
    assert response.status_code == 200, response.text
    user = response.json()["user"]
    assert user["app_metadata"]["role"] == "owner" and "role" not in user["user_metadata"]
    assert (user["user_metadata"]["first_name"], user["user_metadata"]["last_name"]) == ("Ada", "Lovelace")
    assert user["email_confirmed_at"]

    again = cli(database_url, "users", "create", "--email", email, "--role", "patient", stdin="other-pass\n")
    assert again.returncode == 1 and "already exists" in again.stderr


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "A password is required"),
        ("\n", "A password is required"),
        ("abc\n", "at least 8 characters"),
        ("password1\n", "too easy to guess"),
    ],
)
def test_create_refuses_a_missing_or_weak_password(database_url, stdin, message) -> None:
    done = cli(
        database_url, "users", "create", "--email", unique_email("weak"), "--role", "patient", stdin=stdin
    )
    assert done.returncode == 1 and message in done.stderr
    assert "Created" not in done.stdout


def test_create_refuses_an_unknown_role(tmp_path) -> None:
    """A real process: argparse's refusal is the process's exit code 2, before any database is opened (so
    one run, not one per database)."""
    unused = f"sqlite:///{tmp_path / 'unused.db'}"
    done = cli_process(
        unused, "users", "create", "--email", unique_email(), "--role", "root", stdin="secret-1234\n"
    )
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_create_prompts_without_echo_on_a_terminal(tmp_path) -> None:
    """On a terminal the password is asked twice through getpass (hidden). The prompt is the process's, not
    the database's: one run on SQLite (creating the account is checked on every database above)."""
    database_url = migrated_sqlite_database(tmp_path / "tty.db")
    email = unique_email("tty")
    main, replica = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in {"SMTP_URL", "APP_ENV"}}
    env |= {"DATABASE_URL": database_url, **FAST}
    process = subprocess.Popen(
        [sys.executable, "-m", "medivisit", "users", "create", "--email", email, "--role", "support"],
        stdin=replica,
        stdout=replica,
        stderr=replica,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(replica)
    seen = b""

    def read_until(marker: bytes, timeout: float = 20) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(main, 1024)
                except OSError:
                    break
        assert marker in seen, seen

    try:
        read_until(b"Password: ")
        os.write(main, b"tty-secret-1\n")
        read_until(b"Repeat the password: ")
        os.write(main, b"tty-secret-1\n")
        read_until(b"Created")
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    assert b"tty-secret-1" not in seen  # not echoed
    assert f"Created {email} with the support role".encode() in seen


async def test_set_role(auth_client, database_url) -> None:
    email = unique_email("promoted")
    assert (
        cli(
            database_url, "users", "create", "--email", email, "--role", "patient", stdin="secret-1234\n"
        ).returncode
        == 0
    )
    done = cli(database_url, "users", "set-role", "--email", email, "--role", "management")
    assert done.returncode == 0, done.stderr
    assert f"{email} now has the management role." in done.stdout
    user = (await sign_in(auth_client, email, "secret-1234")).json()["user"]
    assert user["app_metadata"]["role"] == "management"

    missing = cli(database_url, "users", "set-role", "--email", unique_email("nobody"), "--role", "hr")
    assert missing.returncode == 1 and "No account" in missing.stderr


async def test_demo_seed_once_into_an_empty_database_prints_seven_accounts_that_sign_in(
    auth_client, database_url
) -> None:
    refused = cli(database_url, "seed", "--demo", APP_ENV="production")
    assert refused.returncode == 2 and "production" in refused.stderr

    done = cli(database_url, "seed", "--demo", "--if-empty")
    assert done.returncode == 0, done.stderr
    roles = ["patient", "provider", "owner", "admin", "management", "hr", "support"]
    lines = [line.split() for line in done.stdout.splitlines() if "@demo.medivisit.test" in line]
    assert [line[0] for line in lines] == roles
    assert [line[1] for line in lines] == [f"{role}@demo.medivisit.test" for role in roles]
    passwords = {line[2] for line in lines}
    assert len(passwords) == 1
    [password] = passwords
    again = cli(database_url, "seed", "--demo", "--if-empty")
    assert again.returncode == 0 and "nothing seeded" in again.stdout

    for role in roles:
        response = await sign_in(auth_client, f"{role}@demo.medivisit.test", password)
        assert response.status_code == 200, response.text
        user = response.json()["user"]
        assert user["app_metadata"]["role"] == role
        assert user["user_metadata"]["first_name"] and user["user_metadata"]["last_name"]
        assert user["app_metadata"].get("enrollment_complete", False) is (role == "provider")

    # Creating an owner works in production: that is how a production install gets its first owner.
    owner = cli(
        database_url,
        "users",
        "create",
        "--email",
        "boss@example.com",
        "--role",
        "owner",
        stdin="prod-secret-1\n",
        APP_ENV="production",
    )
    assert owner.returncode == 0, owner.stderr
