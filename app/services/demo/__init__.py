"""Demo data: a living marketplace for `make run` (providers in three metros, patients, visits with
reviews, help-desk tickets, the store, job postings). Deterministic, idempotent, refused in production.

Its commands are internal (`internal.py`): the assembly's `seed --demo` runs them; screens have nothing to call.
"""

__all__: list[str] = []
