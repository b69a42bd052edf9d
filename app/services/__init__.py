"""The domain: one package per area, keyword-only async functions taking the session first, then the actor.

Commands are named after what a user means to do (`submit_bug_report`); queries are `get_*` / `list_*`.
Every command takes one actor type, `app.principal.Principal`, and re-checks it; services check permissions
themselves and return pydantic `*Read` objects (models/), never ORM rows. They never commit: the caller's
unit of work does.

Each package's `__init__` is its public surface: screens, HTTP routes and the assembly import these names
from there only (an import contract holds them to it); the `_*` modules are private, and other domains
import from them directly. The names load on first use (PEP 562, `_surface.py`), so domains that call each
other (a visit confirmed from the staff dashboard, a hold checked against appointments) never meet a
half-imported package.
"""
