"""Command line: `python -m medivisit serve|migrate|seed|users|reminders|ledger check`.

`users create` is how the first owner of a production install is made: the password is read from standard
input (a hidden prompt on a terminal, one line when piped) and never printed or logged.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from app.settings import get_settings


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    if args.workers > 1 and not get_settings().database_url.startswith("postgresql"):
        print(
            "Several workers need PostgreSQL (DATABASE_URL=postgresql://…): SQLite's events and rate limits "
            "stay inside one process.",
            file=sys.stderr,
        )
        return 2

    from medivisit.reactpy_compat import websocket_compression

    uvicorn.run(
        "medivisit.main:create_app",
        ws=websocket_compression.install(),
        factory=True,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        workers=args.workers,
        proxy_headers=True,
        forwarded_allow_ips=args.forwarded_allow_ips,
        ws_max_size=get_settings().max_websocket_message_bytes,
    )
    return 0


def _migrate(_args: argparse.Namespace) -> int:
    from app.migrate import upgrade

    upgrade(get_settings().database_url)
    print("Database migrated to the newest revision.")
    return 0


def _seed(args: argparse.Namespace) -> int:
    from medivisit.seed import seed

    settings = get_settings()
    if (args.demo or args.providers) and settings.is_production:
        print("Refusing to create demo data with APP_ENV=production.", file=sys.stderr)
        return 2
    from app.services.providers import progress_bar

    report = asyncio.run(
        seed(
            demo=args.demo,
            only_if_empty=args.if_empty,
            providers=max(0, args.providers),
            random_seed=args.random_seed,
            progress=progress_bar(sys.stderr),
        )
    )
    for line in report:
        print(line)
    return 0


def _read_password() -> str | None:
    """A hidden prompt (asked twice) on a terminal; otherwise the first line of standard input."""
    if sys.stdin.isatty():
        from getpass import getpass

        password = getpass("Password: ")
        if getpass("Repeat the password: ") != password:
            print("The passwords do not match.", file=sys.stderr)
            return None
        return password
    line = sys.stdin.readline()
    return line.rstrip("\r\n")


def _run(command, /, **kwargs):  # noqa: ANN001, ANN202 - a service command and its arguments; its result
    """Run one service command with the job runner (its own unit of work, as SYSTEM), then let go of the
    database."""
    from app.db import get_database
    from app.jobs import run_command

    async def run():  # noqa: ANN202
        try:
            return await run_command(command, **kwargs)
        finally:
            await get_database().dispose()

    return asyncio.run(run())


def _run_account_command(describe, command, /, **kwargs) -> int:  # noqa: ANN001 - (account) -> str, a command
    """Run one account command; a refusal is a message and exit code 1."""
    from app.services.errors import ServiceError

    try:
        account = _run(command, **kwargs)
    except ServiceError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print(describe(account))
    return 0


def _reminders(_args: argparse.Namespace) -> int:
    """Send the due 24-hour visit reminders once (what the server's background task does every minute)."""
    from app.services.appointments.internal import send_due_reminders

    print(f"Sent {_run(send_due_reminders)} visit reminder(s).")
    return 0


def _ledger_check(_args: argparse.Namespace) -> int:
    """Prove the ledger's invariants over the whole journal: exit 0 when they hold, 1 with every break."""
    from collections import Counter

    from app.services.ledger.internal import BREAKS_LISTED, check_ledger

    checked = _run(check_ledger)
    for found in checked.breaks:
        print(f"{found.rule}: {found.subject}: {found.detail}")
    summary = f"{checked.entries} journal entries, {checked.postings} postings"
    if checked.holds:
        print(f"Ledger check passed: {summary}; every invariant holds.")
        return 0
    rules = Counter(found.rule for found in checked.breaks)
    capped = [rule for rule, count in rules.items() if count >= BREAKS_LISTED]
    more = f" (the first {BREAKS_LISTED} of each of: {', '.join(capped)})" if capped else ""
    print(f"Ledger check failed: {len(checked.breaks)} break(s){more} in {summary}.", file=sys.stderr)
    return 1


def _users_create(args: argparse.Namespace) -> int:
    from app.services.accounts.internal import create_account

    password = _read_password()
    if password is None:
        return 1
    if not password:
        print("A password is required on standard input.", file=sys.stderr)
        return 1
    return _run_account_command(
        lambda account: f"Created {account.email} with the {account.role.value} role (id {account.id}).",
        create_account,
        email=args.email,
        password=password,
        role=args.role,
        name=args.name,
    )


def _users_set_role(args: argparse.Namespace) -> int:
    from app.services.accounts import set_role

    return _run_account_command(
        lambda account: f"{account.email} now has the {account.role.value} role.",
        set_role,
        email=args.email,
        role=args.role,
    )


def main(argv: list[str] | None = None) -> int:
    from medivisit.subscribers import wire_subscribers

    wire_subscribers()  # the domain events' subscribers, as create_app wires them
    parser = argparse.ArgumentParser(
        prog="python -m medivisit", description="MediVisit server and maintenance commands"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the site")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--workers", type=int, default=1, help="worker processes (PostgreSQL; share REDIS_URL across hosts)"
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="proxies trusted for X-Forwarded-For/-Proto (default: FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )
    serve.set_defaults(run=_serve)

    commands.add_parser("migrate", help="apply database migrations").set_defaults(run=_migrate)

    seed = commands.add_parser("seed", help="create reference data, and demo data with --demo")
    seed.add_argument("--demo", action="store_true", help="also create demo data (never in production)")
    seed.add_argument("--if-empty", action="store_true", help="only when the database holds no data yet")
    seed.add_argument(
        "--providers", type=int, default=0, metavar="N", help="also create N random sample providers"
    )
    seed.add_argument("--random-seed", type=int, help="make the sample providers reproducible")
    seed.set_defaults(run=_seed)

    commands.add_parser(
        "reminders", help="e-mail the reminders of visits starting within 24 hours (once)"
    ).set_defaults(run=_reminders)

    ledger = commands.add_parser("ledger", help="the money ledger").add_subparsers(
        dest="ledger_command", required=True
    )
    ledger.add_parser(
        "check",
        help="prove the ledger's invariants (balanced entries, balances, settled visits, booked payments)",
    ).set_defaults(run=_ledger_check)

    from models.account import Role

    roles = [role.value for role in Role]
    users = commands.add_parser("users", help="create accounts and change roles").add_subparsers(
        dest="users_command", required=True
    )
    create = users.add_parser(
        "create", help="create a confirmed account; the password is read from standard input"
    )
    create.add_argument("--email", required=True)
    create.add_argument("--role", required=True, choices=roles)
    create.add_argument("--name", help='"First Last"')
    create.set_defaults(run=_users_create)
    set_role = users.add_parser("set-role", help="change the role of an existing account")
    set_role.add_argument("--email", required=True)
    set_role.add_argument("--role", required=True, choices=roles)
    set_role.set_defaults(run=_users_set_role)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
