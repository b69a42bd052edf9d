"""Paths that only forward elsewhere: /signup replaces itself with /sign-up (SPEC §2)."""

from __future__ import annotations

from reactpy import component
from reactpy_router import navigate


@component
def SignupRedirect():  # noqa: ANN201
    return navigate("/sign-up", replace=True)
