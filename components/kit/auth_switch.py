"""`auth_switch`: the line under a sign-in, sign-up or password form that sends the person to the other
form ("New to MediVisit? Create an account", "Remembered it? Back to sign in"): `p.auth-switch`, the
question, then the link."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict


def auth_switch(*question: Any, label: str, href: str) -> VdomDict:
    """`p.auth-switch`: `question` (its parts in order), then an `a` to `href` reading `label`."""
    return html.p({"class_name": "auth-switch"}, *question, html.a({"href": href}, label))
