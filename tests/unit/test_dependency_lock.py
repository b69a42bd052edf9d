"""The lock file and pyproject.toml agree (requirements.lock, installed by `make install` with `-c`): every
dependency is locked at a version its range allows, the framework is pinned exactly at the locked version,
and the ReactPy patches were written for the locked ReactPy and reactpy-router."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from medivisit.reactpy_compat import client, router_internals

ROOT = Path(__file__).resolve().parents[2]
PINNED = {"reactpy", "reactpy-router", "fastapi", "starlette", "uvicorn"}


def _locked() -> dict[str, str]:
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    pairs = (line.split("==") for line in lines if line and not line.startswith("#"))
    return {canonicalize_name(name): version for name, version in pairs}


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = [project["dependencies"], *project["optional-dependencies"].values()]
    return [Requirement(line) for group in groups for line in group]


def test_every_dependency_is_locked_at_a_version_its_range_allows() -> None:
    locked = _locked()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is not in requirements.lock"
        assert requirement.specifier.contains(locked[name], prereleases=True), (requirement, locked[name])


def test_the_framework_is_pinned_exactly_and_the_patches_fit_it() -> None:
    locked = _locked()
    pins = {canonicalize_name(r.name): r for r in _declared() if canonicalize_name(r.name) in PINNED}
    assert set(pins) == PINNED
    for name, requirement in pins.items():
        assert str(requirement.specifier) == f"=={locked[name]}", requirement
    assert locked["reactpy"] == client.PATCH.version
    assert locked["reactpy-router"] == router_internals.PATCH.version
