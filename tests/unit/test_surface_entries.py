"""One way into a unit of work per surface, and the actor supplied by the hooks (issue 28, items 5 and 7).

- A unit of work (`app.db.unit_of_work`, `Database.unit_of_work`, a session from the session factory) is
  opened only by the entries: the hooks for screens (components/hooks.py), the HTTP dependency and
  transaction (api/deps.py), the job runner (app/jobs.py), and app/db.py itself. Anything else goes
  through one of them.
- Screens never pass `actor=session.actor` to a hook: the hooks supply it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("admin", "api", "app", "components", "pages", "staff", "helpdesk", "medivisit", "models")
ENTRIES = {"app/db.py", "components/hooks.py", "api/deps.py", "app/jobs.py"}
OPENERS = {"unit_of_work", "sessions"}  # a call of either opens a unit of work or a bare session
UI = ("components", "pages", "staff", "helpdesk", "admin")


def _python_files(packages: tuple[str, ...]) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _openings() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for path in _python_files(PRODUCT):
        tree = ast.parse(path.read_text(), filename=str(path))
        lines = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _called_name(node) in OPENERS
        ]
        if lines:
            found[path.relative_to(ROOT).as_posix()] = sorted(lines)
    return found


def test_units_of_work_are_opened_only_by_the_entries_of_each_surface() -> None:
    elsewhere = {module: lines for module, lines in _openings().items() if module not in ENTRIES}
    assert not elsewhere, (
        f"units of work opened outside the entries (use the hooks, api.deps or app.jobs): {elsewhere}"
    )


def test_screens_leave_the_actor_to_the_hooks() -> None:
    handed: list[str] = []
    for path in _python_files(UI):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call) and _called_name(node) in {
                "use_query",
                "use_action",
                "run",
                "use_draft",
            }:
                for keyword in node.keywords:
                    if keyword.arg == "actor" and ast.unparse(keyword.value) == "session.actor":
                        handed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not handed, f"the hooks supply the connection's actor; do not pass it: {handed}"
