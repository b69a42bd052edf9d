"""`python -m medivisit …`: the command line (medivisit/cli.py)."""

from medivisit.cli import main

raise SystemExit(main())
