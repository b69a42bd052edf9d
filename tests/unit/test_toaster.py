"""The toaster keeps only the toasts a page can show (components/context.py)."""

from __future__ import annotations

from components.context import TOAST_LIMIT, Toaster


def test_the_toaster_keeps_only_the_newest_toasts_it_can_show() -> None:
    toaster = Toaster()
    shown: list[tuple] = [()]
    toaster.bind(lambda update: shown.append(update(shown[-1])))
    for n in range(7):
        toaster.success(f"Added visit {n}")
    assert [toast.title for toast in shown[-1]] == [f"Added visit {n}" for n in range(7 - TOAST_LIMIT, 7)]
