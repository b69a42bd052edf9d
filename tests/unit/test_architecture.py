"""The conventions of DESIGN.md that a reviewer would otherwise have to remember.

- Every service function a screen or shared component can reach takes the one actor type, `Principal`,
  non-optional: never `None`, never an account snapshot, never a bare user id from the UI.
- The import-linter contracts really hold: a screen that opens a unit of work or imports sqlalchemy, and a
  service that imports fastapi or reactpy, break them.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from app.principal import Principal
from models.account import AccountRead

ROOT = Path(__file__).resolve().parents[2]
UI_PACKAGES = ("pages", "staff", "helpdesk", "admin", "components")
FORBIDDEN_ACTOR_PARAMETERS = {"actor_id", "viewer", "user", "account"}


def _ui_modules() -> list[str]:
    names = []
    for package in UI_PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}.")]
    return names


def _services_reached_from_ui() -> dict[str, typing.Callable]:
    found: dict[str, typing.Callable] = {}
    for name in _ui_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isfunction(value) and value.__module__.startswith("app.services."):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_the_screens_reach_the_domain() -> None:
    assert len(_services_reached_from_ui()) > 40  # the walk below would pass vacuously otherwise


@pytest.mark.parametrize("name", sorted(_services_reached_from_ui()))
def test_every_service_a_screen_calls_takes_a_non_optional_principal(name: str) -> None:
    fn = _services_reached_from_ui()[name]
    hints = typing.get_type_hints(fn)
    parameters = inspect.signature(fn).parameters
    assert not FORBIDDEN_ACTOR_PARAMETERS & set(parameters), f"{name} takes who acts as a bare value"
    for parameter, hint in hints.items():
        assert hint is not AccountRead, f"{name}({parameter}) takes an account snapshot"
        if parameter == "actor":
            assert hint is Principal, f"{name}(actor) is {hint}, not a non-optional Principal"
            assert parameters["actor"].default is inspect.Parameter.empty, f"{name}(actor) has a default"


def test_no_screen_passes_an_account_snapshot_as_the_actor() -> None:
    snapshot = re.compile(r"actor=(session\.user|.*\.account\b|None\b)")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in UI_PACKAGES
        for path in (ROOT / package).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if snapshot.search(line)
    ]
    assert offenders == []


# ---- the import contracts -----------------------------------------------------------------------
PROBES = {
    "pages/_probe_database.py": (
        "from app.db import unit_of_work\n\n\nasync def peek():\n    async with unit_of_work() as s:\n"
        "        return s\n"
    ),
    "pages/_probe_sqlalchemy.py": "from sqlalchemy import select\n\nQUERY = select\n",
    "components/_probe_orm.py": "from components._probe_helper import rows\n\nROWS = rows\n",
    "components/_probe_helper.py": "from app.db import get_database\n\nrows = get_database\n",
    "pages/_probe_private.py": "from app.services.support._tickets import list_tickets\n\nFN = list_tickets\n",
    # a screen calling a domain's internal command (the assembly may: medivisit/_probe_internal.py is allowed)
    "pages/_probe_internal.py": "from app.services.notifications.internal import notify\n\nFN = notify\n",
    "medivisit/_probe_internal.py": "from app.services.notifications.internal import notify\n\nFN = notify\n",
    "medivisit/_probe_private.py": "from app.services.support._tickets import list_tickets\n\nFN = list_tickets\n",
    "app/services/_probe_http.py": "from fastapi import APIRouter\n\nROUTER = APIRouter\n",
    "app/services/_probe_ui.py": "from reactpy import html\n\nDIV = html.div\n",
    # a domain reaching into another's private module, and a cycle: forum already imports safety
    "app/services/forum/_probe_private.py": "from app.services.support._tickets import list_tickets\n\nFN = list_tickets\n",
    "app/services/safety/_probe_cycle.py": "from app.services.forum import list_topics\n\nFN = list_topics\n",
    "app/services/shared/_probe_domain.py": "from app.services.cart import platform_fee\n\nFN = platform_fee\n",
}


def _lint(tree: Path) -> str:
    env = {"PYTHONPATH": str(tree), "PATH": str(Path(sys.executable).parent)}
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout + result.stderr


def test_the_contracts_fail_on_a_screen_that_reaches_the_database_and_a_service_that_imports_ui(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    for package in ("admin", "api", "app", "components", "pages", "staff", "helpdesk", "models", "medivisit"):
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    assert "Contracts: 9 kept, 0 broken." in _lint(tree)

    for path, source in PROBES.items():
        (tree / path).write_text(source)
    report = _lint(tree)
    assert "0 broken" not in report
    for needle in (
        "pages._probe_database -> app.db",
        "pages._probe_sqlalchemy -> sqlalchemy",
        "components._probe_helper -> app.db",
        "pages._probe_private -> app.services.support._tickets",
        "pages._probe_internal -> app.services.notifications.internal",
        "medivisit._probe_private -> app.services.support._tickets",
        "app.services._probe_http -> fastapi",
        "app.services._probe_ui -> reactpy",
        "app.services.forum._probe_private -> app.services.support._tickets",
        "No cycles are allowed in app.services.",
        "app.services.shared._probe_domain -> app.services.cart",
    ):
        assert needle in report, needle
    assert "medivisit._probe_internal" not in report


def test_screens_and_shared_ui_import_no_orm_class() -> None:
    """models/ holds tables and schemas side by side; screens may use the schemas and enums only."""
    from models.base import Base

    offenders = []
    for package in UI_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("models"):
                    module = importlib.import_module(node.module)
                    for alias in node.names:
                        value = getattr(module, alias.name, None)
                        if inspect.isclass(value) and issubclass(value, Base):
                            offenders.append(f"{path.relative_to(ROOT)}: {node.module}.{alias.name}")
    assert offenders == []


def test_every_private_domain_module_imports_first() -> None:
    """Whichever module a process happens to import first must not meet a half-imported one (an import
    cycle). No two domains depend on each other (the import contract), so a cycle can only run through one
    domain's own modules: each module is imported first with its own domain's modules unloaded (the domains
    below it stay loaded, which keeps the probe to seconds instead of re-importing every domain 220 times)."""
    probe = (
        "import importlib, pkgutil, sys\n"
        "import app.services\n"
        "names = [i.name for i in pkgutil.walk_packages(app.services.__path__, 'app.services.')]\n"
        "failed = []\n"
        "for name in names:\n"
        "    group = '.'.join(name.split('.')[:3])\n"
        "    for loaded in [m for m in sys.modules if m == group or m.startswith(group + '.')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        failed.append(f'{name}: {exc}')\n"
        "print(len(names)); print('\\n'.join(failed))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    count, *failed = result.stdout.strip().splitlines()
    assert int(count) > 40 and failed == [], result.stderr or failed
