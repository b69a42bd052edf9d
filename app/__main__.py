"""Command line: `python -m app serve|migrate|seed`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from app.settings import get_settings


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        proxy_headers=True,
    )
    return 0


def _migrate(_args: argparse.Namespace) -> int:
    from app.migrate import upgrade

    upgrade(get_settings().database_url)
    print("Database migrated to the newest revision.")
    return 0


def _seed(args: argparse.Namespace) -> int:
    from app.seed import seed

    settings = get_settings()
    if args.demo and settings.is_production:
        print("Refusing to create demo data with APP_ENV=production.", file=sys.stderr)
        return 2
    report = asyncio.run(seed(demo=args.demo, only_if_empty=args.if_empty))
    for line in report:
        print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app", description="MediVisit server and maintenance commands"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the site")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)

    commands.add_parser("migrate", help="apply database migrations").set_defaults(run=_migrate)

    seed = commands.add_parser("seed", help="create reference data, and demo data with --demo")
    seed.add_argument("--demo", action="store_true", help="also create demo data (never in production)")
    seed.add_argument("--if-empty", action="store_true", help="only when the database holds no data yet")
    seed.set_defaults(run=_seed)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
