"""Shared fixtures: migrated temporary databases (SQLite, and PostgreSQL when TEST_DATABASE_URL is set),
a real SMTP server (aiosmtpd) and settings pointed at them."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import secrets
import shutil
import socket
import sqlite3
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import TypeVar, cast

import pytest
from aiosmtpd.controller import Controller

from app import db as app_db
from app import ratelimit
from app.migrate import upgrade
from app.settings import get_settings
from medivisit.subscribers import wire_subscribers
from tests.server_forker import ForkedProcess, Forker

wire_subscribers()  # the domain events' subscribers, wired as create_app and the CLI wire them

ARTIFACTS = Path(__file__).parent / "artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- SMTP --------------------------------------------------------------------------------------
class SmtpInbox:
    """Messages a real aiosmtpd server received, in arrival order."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, _server, _session, envelope) -> str:  # noqa: ANN001, N802 - aiosmtpd hook
        with self._arrived:
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.messages.append(message_from_bytes(envelope.original_content or envelope.content))
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = 10) -> list[Message]:
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.messages) >= count, timeout)
        assert len(self.messages) >= count, f"expected {count} e-mails, got {len(self.messages)}"
        return self.messages

    def clear(self) -> None:
        with self._arrived:
            self.messages.clear()
            self.envelopes.clear()


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[tuple[SmtpInbox, str]]:
    inbox = SmtpInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, f"smtp://127.0.0.1:{controller.port}"
    controller.stop()


@pytest.fixture
def paid_ahead(monkeypatch) -> None:
    """Pay at visit's gateway made to collect the money at checkout, as the card gateway does once Stripe
    confirms: visits paid ahead, with earnings to release, refund and pay out."""
    from app.services.payments import GATEWAYS, PayAtVisit

    class PaidAhead(PayAtVisit):
        collects_at_order = True

    monkeypatch.setitem(GATEWAYS, "pay_at_visit", PaidAhead)


@pytest.fixture
def smtp(smtp_server) -> SmtpInbox:
    inbox, _url = smtp_server
    inbox.clear()
    return inbox


def html_part(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/html":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes), "a text part decodes to bytes"
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("message has no HTML part")


# ---- databases ---------------------------------------------------------------------------------
# Every test that asks for `configured` gets a database of its own, cloned from one migrated template:
# a copy of the template file on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL (about 40 ms). No test
# sees another's rows, so none needs random ZIP codes or far-off dates to stay out of another's way.
# On PostgreSQL a database a test is done with is emptied in the background (its connections ended, every
# table but alembic_version deleted, as migrated) and given to a later test, rather than dropped: each
# DROP DATABASE forces a checkpoint (0.5–5 s on a busy server), and a run used to drop ~700 at its end.
# Each process keeps one database ready beside the one in use, so that a test never waits for the previous
# one's database to be emptied; the clones commit without waiting for the disk (synchronous_commit off:
# only a crash of the server could lose a commit, and a test's database does not outlive the run).
FAST_HASHING = {"PASSWORD_HASH_MEMORY_KIB": "1024", "PASSWORD_HASH_TIME_COST": "1"}


def _database_urls() -> list[str]:
    urls = ["sqlite"]
    if os.environ.get("TEST_DATABASE_URL"):
        urls.append("postgresql")
    return urls


async def _postgres(admin_dsn: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_dsn)
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


def create_postgres_database(base_url: str) -> str:
    """A fresh database on the test server for this run (`drop_later` removes it)."""
    name = f"medivisit_test_{secrets.token_hex(4)}"
    asyncio.run(_postgres(base_url.replace("+asyncpg", ""), f'CREATE DATABASE "{name}"'))
    prefix, _, _db = base_url.rpartition("/")
    return f"{prefix}/{name}"


_DROP_SCRIPT = """
import asyncio, sys
import asyncpg

async def main(dsn, names):
    conn = await asyncpg.connect(dsn)
    try:
        for name in names:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()

asyncio.run(main(sys.argv[1], sys.argv[2:]))
"""


def drop_later(admin_dsn: str, names: list[str]) -> None:
    """Drop the run's PostgreSQL databases in a process of their own that outlives this one: each DROP
    DATABASE forces a checkpoint (0.5–5 s on a busy server), which the suite need not wait for."""
    import subprocess
    import sys

    subprocess.Popen(
        [sys.executable, "-c", _DROP_SCRIPT, admin_dsn.replace("+asyncpg", ""), *names],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


class Template:
    """A migrated database that each test's database is cloned from. On PostgreSQL a database released by
    an earlier test is emptied in the background while the next test runs, and handed out again."""

    def __init__(self, kind: str, url: str, tmp: Path) -> None:
        self.kind, self.url, self.tmp = kind, url, tmp
        self.clones: list[str] = []
        self._maker = ThreadPoolExecutor(max_workers=2)  # emptying one database while creating another
        self._ready: deque[Future[str]] = deque()  # databases being created or emptied, or ready
        self._tables: list[str] | None = None

    def clone(self) -> str:
        if self.kind == "sqlite":
            target = self.tmp / f"test-{secrets.token_hex(4)}.db"
            shutil.copyfile(self.url.removeprefix("sqlite:///"), target)
            return f"sqlite:///{target}"
        if not self._ready:
            self._ready.append(self._maker.submit(self._create_postgres_clone))
        ready = next((future for future in self._ready if future.done()), self._ready[0])
        self._ready.remove(ready)
        if not self._ready:  # a spare for the next test, made while this one runs
            self._ready.append(self._maker.submit(self._create_postgres_clone))
        return ready.result()

    def copy_of(self, source_url: str) -> str:
        """A new database of this kind holding what `source_url` holds (on PostgreSQL nobody may be connected
        to the source); `release` it like a clone."""
        if self.kind == "sqlite":
            target = self.tmp / f"test-{secrets.token_hex(4)}.db"
            # SQLite's backup reads through the write-ahead log (a plain file copy could miss what is in it).
            with (
                contextlib.closing(sqlite3.connect(source_url.removeprefix("sqlite:///"))) as source,
                contextlib.closing(sqlite3.connect(target)) as copy,
            ):
                source.backup(copy)
            return f"sqlite:///{target}"
        prefix, _, template = source_url.rpartition("/")
        return f"{prefix}/{self._create_postgres_database(template)}"

    def release(self, url: str) -> None:
        """The test of `url` is over: on PostgreSQL, empty it in the background for a later test; on SQLite,
        delete the file (it lives in memory, see `memory_directory`)."""
        if self.kind == "postgresql":
            self._ready.append(self._maker.submit(lambda: asyncio.run(self._empty(url)) or url))
            return
        path = url.removeprefix("sqlite:///")
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path + suffix)

    async def _empty(self, url: str) -> None:
        """Back to the migrated template's state: no connection left (a test may leave one behind, and a
        test that counts backends of its database must see only its own), every table empty. Replica mode
        skips the foreign keys and the append-only audit trigger; the template holds no rows but the
        migration revision and no sequences, so that is all a fresh clone would hold."""
        import asyncpg

        name = url.rpartition("/")[2]
        await _postgres(
            self._admin_dsn,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{name}' AND pid <> pg_backend_pid()",
        )
        conn = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            if self._tables is None:
                self._tables = [
                    row[0]
                    for row in await conn.fetch(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                        "AND tablename <> 'alembic_version' ORDER BY tablename"
                    )
                ]
                assert not await conn.fetchval(
                    "SELECT count(*) FROM pg_sequences WHERE schemaname = 'public'"
                )
            used = await conn.fetch(
                " UNION ALL ".join(f"SELECT '{t}' WHERE EXISTS (SELECT 1 FROM \"{t}\")" for t in self._tables)
            )
            if used:
                async with conn.transaction():
                    await conn.execute("SET LOCAL session_replication_role = replica")
                    for (table,) in used:
                        await conn.execute(f'DELETE FROM "{table}"')
        finally:
            await conn.close()

    def _create_postgres_clone(self) -> str:
        prefix, _, template = self.url.rpartition("/")
        return f"{prefix}/{self._create_postgres_database(template)}"

    def _create_postgres_database(self, source: str) -> str:
        name = f"{self.url.rpartition('/')[2]}_{secrets.token_hex(3)}"
        self.clones.append(name)
        asyncio.run(
            _postgres(
                self._admin_dsn,
                f'CREATE DATABASE "{name}" TEMPLATE "{source}"',
                f'ALTER DATABASE "{name}" SET synchronous_commit = off',
            )
        )
        return name

    @property
    def _admin_dsn(self) -> str:
        return os.environ["TEST_DATABASE_URL"].replace("+asyncpg", "")

    def drop_clones(self) -> list[str]:
        """Stop handing out databases; the names of every clone made (for `drop_later`)."""
        self._maker.shutdown(wait=True, cancel_futures=True)  # a database being made is listed
        return self.clones


@contextlib.contextmanager
def memory_directory(tmp_path_factory, name: str) -> Iterator[Path]:
    """A directory on /dev/shm (tmpfs) when there is one, else under pytest's tmp_path: SQLite in WAL mode
    fsyncs at every commit, which on a busy disk costs more than most tests' own work. Removed afterwards."""
    import tempfile

    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        path = Path(tempfile.mkdtemp(prefix=f"medivisit-{name}-", dir=shm))
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp(name)


@pytest.fixture(scope="session", params=_database_urls())
def template_database(request, tmp_path_factory) -> Iterator[Template]:
    """The migrated template: a SQLite file, and (when TEST_DATABASE_URL is set) a PostgreSQL database."""
    if request.param == "sqlite":
        with memory_directory(tmp_path_factory, "db") as tmp:
            url = f"sqlite:///{tmp / 'template.db'}"
            upgrade(url)
            yield Template("sqlite", url, tmp)
        return
    tmp = tmp_path_factory.mktemp("db")
    url = create_postgres_database(os.environ["TEST_DATABASE_URL"])
    upgrade(url)
    template = Template("postgresql", url, tmp)
    yield template
    drop_later(template._admin_dsn, [*template.drop_clones(), url.rpartition("/")[2]])


@pytest.fixture
def database_url(template_database) -> Iterator[str]:
    """This test's own migrated database (cloned from the template; on PostgreSQL, emptied for a later test
    once this one is over)."""
    with ThreadPoolExecutor(max_workers=1) as pool:  # no event loop of pytest-asyncio's in the way
        url = pool.submit(template_database.clone).result()
    yield url
    template_database.release(url)


async def _stop_event_listener() -> None:
    """End this process's PostgreSQL LISTEN connection (app/events.py), like the test's engine: it follows the
    process database, and a later test may be handed this database again once it is emptied."""
    from app import events

    listener, events._listener = events._listener, None
    if listener is not None and listener.task.get_loop() is asyncio.get_running_loop():
        listener.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await listener.task


@pytest.fixture
async def configured(database_url, smtp_server) -> AsyncIterator[None]:
    """Settings and the process database pointed at this test's database and the SMTP server, with fast
    password hashing (the identity tests of hashing set their own parameters)."""
    _inbox, smtp_url = smtp_server
    saved = dict(os.environ)
    os.environ.update(
        DATABASE_URL=database_url, SMTP_URL=smtp_url, SUPPORT_EMAIL="support@medivisit.test", **FAST_HASHING
    )
    get_settings.cache_clear()
    ratelimit.reset()
    database = app_db.use_database(database_url)
    yield
    await _stop_event_listener()
    await database.dispose()
    ratelimit.reset()
    os.environ.clear()
    os.environ.update(saved)
    get_settings.cache_clear()


@pytest.fixture
async def session(configured) -> AsyncIterator:
    """A unit of work on the test database, committed at the end of the test."""
    async with app_db.unit_of_work() as session:
        yield session


# ---- a module's world, built once -------------------------------------------------------------------
T = TypeVar("T")


@pytest.fixture(scope="module")
def _worlds(template_database) -> Iterator[dict[str, tuple[str, object]]]:
    """The worlds built in this module on this kind of database: a copy of the database each was built in,
    and what its builder returned."""
    worlds: dict[str, tuple[str, object]] = {}
    yield worlds
    for url, _world in worlds.values():
        template_database.release(url)


async def _let_go(database: app_db.Database) -> None:
    """Close every connection of this process to `database` (PostgreSQL copies a database nobody is
    connected to), its LISTEN connection included; the engine reconnects when next used."""
    await _stop_event_listener()
    await database.dispose()


@pytest.fixture
async def world_once(configured, database_url, template_database, _worlds) -> AsyncIterator[Callable]:
    """`await world_once(build)`: the world `build()` makes (accounts, providers, visits …), built once per
    module and database kind. The first test builds it in its own database and keeps a copy; every later test
    gets a copy of that copy and the same return value (the ids and actors in it are the copy's rows): the
    process database then points at that copy, so such a test reads its URL from `app_db.get_database()`, not
    from the `database_url` fixture. It is for worlds that cost more than the test: a test must not change what
    `build()` returned."""
    moved: list[app_db.Database] = []

    def in_thread(fn: Callable[[], T]) -> T:
        with ThreadPoolExecutor(max_workers=1) as pool:  # copying on PostgreSQL runs an event loop of its own
            return pool.submit(fn).result()

    async def world_once(build: Callable[[], Awaitable[T]]) -> T:
        key = f"{build.__module__}.{build.__qualname__}"
        if key not in _worlds:
            world = await build()
            await _let_go(app_db.get_database())
            _worlds[key] = (in_thread(lambda: template_database.copy_of(database_url)), world)
            return world
        kept, world = _worlds[key]
        await _let_go(app_db.get_database())
        url = in_thread(lambda: template_database.copy_of(kept))
        os.environ["DATABASE_URL"] = url
        get_settings.cache_clear()
        moved.append(app_db.use_database(url))
        return cast(T, world)

    yield world_once
    for database in moved:
        await _let_go(database)
        template_database.release(database.url)


# ---- the command line, in this process ---------------------------------------------------------
class CliResult:
    """What `subprocess.run(..., capture_output=True, text=True)` answers, for `run_cli`."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run_cli(*args: str, stdin: str = "", env: dict[str, str]) -> CliResult:
    """`python -m medivisit *args` run in this process: `medivisit.cli.main(args)` with standard input,
    output and error captured and `env` (plus the process's environment without SMTP_URL and APP_ENV) as
    the environment, the way a real subprocess would see it, without paying ~2 s of imports per command.
    It runs on a thread of its own, since the CLI starts its own event loops (asyncio.run). The tests of
    the process itself (the terminal prompt, an exit code) still start a real `python -m medivisit`."""
    import contextlib
    import io
    import sys

    from medivisit.cli import main

    def call() -> CliResult:
        out, err = io.StringIO(), io.StringIO()
        saved_env, saved_stdin, saved_database = dict(os.environ), sys.stdin, app_db._database
        for name in ("SMTP_URL", "APP_ENV"):
            os.environ.pop(name, None)
        os.environ.update(env)
        get_settings.cache_clear()
        app_db._database = None  # the command opens (and closes) its own engine, as a new process would
        sys.stdin = io.StringIO(stdin)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(list(args))
                except SystemExit as exit_:  # argparse's refusals
                    code = exit_.code if isinstance(exit_.code, int) else 1
            if app_db._database is not None:
                asyncio.run(app_db._database.dispose())
        finally:
            sys.stdin = saved_stdin
            app_db._database = saved_database
            os.environ.clear()
            os.environ.update(saved_env)
            get_settings.cache_clear()
        return CliResult(code, out.getvalue(), err.getvalue())

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


# ---- live server -------------------------------------------------------------------------------
class LiveServer:
    def __init__(self, base_url: str, log_path: Path, process, database_url: str = "") -> None:  # noqa: ANN001
        self.base_url = base_url
        self.log_path = log_path
        self.process = process
        self.database_url = database_url  # checked by `stop_server`: its ledger must hold

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


_FORKER = Forker()
atexit.register(_FORKER.close)


def start_server(
    tmp_dir: Path,
    *,
    port: int | None = None,
    fresh_process: bool = False,
    environment: Mapping[str, str] | None = None,
    **env: str,
) -> LiveServer:
    """`python -m medivisit serve` on a free port with a fresh, migrated SQLite database: forked from this
    test process's forker (tests/server_forker.py), or with `fresh_process` a new interpreter. Its
    environment variables: `environment` (a mapping) and `env` (by name)."""
    env = {**(environment or {}), **env}
    import subprocess
    import sys
    import time
    import urllib.request

    database_url = env.pop("DATABASE_URL", f"sqlite:///{tmp_dir / 'live.db'}")
    path = Path(database_url.removeprefix("sqlite:///")) if database_url.startswith("sqlite:///") else None
    if path is not None and not path.exists():
        app_db.ensure_sqlite_directory(database_url)  # the directory, and the file with mode 0600
        shutil.copyfile(_migrated_sqlite_file(), path)  # what `upgrade` would make of the new file, at once
    else:
        # Migrations run their own event loop (asyncio.run), which cannot start on a thread that already runs
        # one, such as the thread Playwright's sync API drives: run them on a worker thread.
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(upgrade, database_url).result()
    port = port or free_port()
    log_path = tmp_dir / "server.log"
    process_env = {k: v for k, v in os.environ.items() if k not in {"SMTP_URL", "TEST_DATABASE_URL"}}
    process_env |= {"DATABASE_URL": database_url, "SUPPORT_EMAIL": "support@medivisit.test", **env}
    _copy_demo_uploads(process_env)
    argv = ["serve", "--port", str(port), "--log-level", "warning"]
    root = Path(__file__).parent.parent
    process: subprocess.Popen[bytes] | ForkedProcess
    if fresh_process:
        process = subprocess.Popen(
            [sys.executable, "-m", "medivisit", *argv],
            env=process_env,
            stdout=log_path.open("w"),
            stderr=subprocess.STDOUT,
            cwd=root,
        )
    else:
        process = _FORKER.start(argv, process_env, root, log_path)
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a busy machine imports slowly
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(base_url + "/readyz", timeout=1) as response:
                if response.status == 200:
                    return LiveServer(base_url, log_path, process, database_url)
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError(f"server did not become ready:\n{log_path.read_text()}")


def seed_demo(database_url: str, *, demo: bool = True) -> None:
    """`python -m medivisit seed --demo` on a database: the catalog, demo providers and one account per role;
    with `demo=False`, the reference catalog only (what every install has)."""
    seeded = run_cli("seed", *(["--demo"] if demo else []), env={"DATABASE_URL": database_url})
    assert seeded.returncode == 0, seeded.stderr


_migrated_template: list[Path] = []


def _migrated_sqlite_file() -> Path:
    """A newly migrated SQLite database, made once per test process: a server's new database is a copy of
    it (migrating each one costs a second of CPU and, with a commit per revision, many seconds of fsync on
    a busy disk)."""
    if not _migrated_template:
        import tempfile

        directory = Path(tempfile.mkdtemp(prefix="medivisit-migrated-"))
        atexit.register(shutil.rmtree, directory, True)
        path = directory / "migrated.db"
        with ThreadPoolExecutor(max_workers=1) as pool:  # upgrade runs an event loop of its own
            pool.submit(upgrade, f"sqlite:///{path}").result()
        _migrated_template.append(path)
    return _migrated_template[0]


def migrated_sqlite_database(path: Path) -> str:
    """A newly migrated SQLite database at `path` (a copy of the per-process one); its URL."""
    url = f"sqlite:///{path}"
    app_db.ensure_sqlite_directory(url)
    shutil.copyfile(_migrated_sqlite_file(), path)
    return url


def _run_directory() -> Path:
    """A directory all processes of this pytest run share: xdist's workers are children of the process that
    started them, which makes it empty at the start (`pytest_configure`) and removes it at the end."""
    owner = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
    import tempfile

    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())
    return base / f"medivisit-run-{owner}"


def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001
    """PostgreSQL runs the domain tests (tests/unit: the services and their queries); the API and headless
    UI tests, which reach the same services through HTTP or a layout, run on SQLite only."""
    elsewhere = [
        item
        for item in items
        if getattr(item, "callspec", None) is not None
        and item.callspec.params.get("template_database") == "postgresql"
        and "tests/unit/" not in str(item.fspath)
    ]
    if elsewhere:
        dropped = set(elsewhere)
        items[:] = [item for item in items if item not in dropped]
        config.hook.pytest_deselected(items=elsewhere)


def pytest_configure(config) -> None:  # noqa: ANN001
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(_run_directory(), ignore_errors=True)  # a run killed earlier may have left its own


def pytest_unconfigure(config) -> None:  # noqa: ANN001
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(_run_directory(), ignore_errors=True)


_demo_template: list[Path] = []


def _seeded_demo_file() -> Path:
    """One SQLite database seeded with the demo data per test run: the first process to need it seeds it
    (about 9 s of CPU with its money through the ledger, 12 s on a quiet machine) while the others wait on
    a lock, and each demo server gets a copy of it instead of seeding its own (a dozen times in the browser
    tests)."""
    if not _demo_template:
        import fcntl

        directory = _run_directory()
        directory.mkdir(exist_ok=True)
        path = directory / "demo.db"
        with (directory / "demo.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                seeding = directory / "demo-seeding.db"
                app_db.ensure_sqlite_directory(f"sqlite:///{seeding}")
                shutil.copyfile(_migrated_sqlite_file(), seeding)
                # The demo's uploads (the store's product pictures) beside it: each server gets a copy.
                seeded = run_cli(
                    "seed",
                    "--demo",
                    env={
                        "DATABASE_URL": f"sqlite:///{seeding}",
                        "UPLOAD_DIR": str(directory / "demo-uploads"),
                    },
                )
                assert seeded.returncode == 0, seeded.stderr
                with contextlib.closing(sqlite3.connect(seeding)) as db:  # one file, nothing left in the log
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                seeding.rename(path)
        _demo_template.append(path)
    return _demo_template[0]


def _copy_demo_uploads(process_env: Mapping[str, str]) -> None:
    """The seeded demo's uploads (its product pictures, `_seeded_demo_file`) into a server's upload
    directory, so a server on a copy of the demo database serves them; nothing before the demo is seeded."""
    seeded = _run_directory() / "demo-uploads"
    if not seeded.is_dir():
        return
    var_dir = Path(process_env.get("VAR_DIR") or Path(__file__).parent.parent / "var")
    target = Path(process_env.get("UPLOAD_DIR") or var_dir / "uploads")
    shutil.copytree(seeded, target, dirs_exist_ok=True)  # each file under its key's first two characters


def demo_database(path: Path) -> str:
    """A copy of the seeded demo database at `path` (mode 0600); its URL."""
    # SQLite's backup reads through the write-ahead log (a plain file copy could miss what is still in it).
    with (
        contextlib.closing(sqlite3.connect(_seeded_demo_file())) as source,
        contextlib.closing(sqlite3.connect(path)) as target,
    ):
        source.backup(target)
    path.chmod(0o600)
    return f"sqlite:///{path}"


def start_demo_server(tmp_dir: Path, **env: str) -> tuple[LiveServer, str]:
    """`start_server` on a database seeded with the demo data; returns the server and its database URL."""
    database_url = env.pop("DATABASE_URL", None)
    if database_url is None:
        database_url = demo_database(tmp_dir / "demo.db")
        return start_server(tmp_dir, environment={"DATABASE_URL": database_url, **env}), database_url
    server = start_server(tmp_dir, environment={"DATABASE_URL": database_url, **env})
    seed_demo(database_url)
    return server, database_url


def stop_server(server: LiveServer) -> None:
    """Stop the server; then the money its tests moved must add up (`python -m medivisit ledger check`'s
    invariants on its database): every whole-path test of a module ends with the ledger checked."""
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except Exception:  # noqa: BLE001
        server.process.kill()
    if server.database_url:
        breaks = ledger_breaks(server.database_url)
        assert not breaks, "the ledger does not hold after this module's tests:\n" + "\n".join(breaks)


def ledger_breaks(database_url: str) -> list[str]:
    """What `check_ledger` finds wrong in the database at `database_url` (run off any running event loop)."""
    from app.services.ledger.internal import check_ledger

    async def check() -> list[str]:
        database = app_db.Database(database_url)
        try:
            async with database.unit_of_work() as session:
                found = await check_ledger(session=session)
        finally:
            await database.dispose()
        return [f"{b.rule} {b.subject}: {b.detail}" for b in found.breaks]

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, check()).result()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, smtp_server) -> Iterator[LiveServer]:
    _inbox, smtp_url = smtp_server
    tmp = tmp_path_factory.mktemp("live")
    database_url = f"sqlite:///{tmp / 'live.db'}"
    # A new interpreter, as `python -m medivisit serve` runs in production (the other servers are forked).
    server = start_server(tmp, fresh_process=True, SMTP_URL=smtp_url, DATABASE_URL=database_url)
    seed_demo(database_url, demo=False)  # the service catalog, as every install has it
    yield server
    stop_server(server)
