"""The signed-in home's welcome (issue 12), rendered headless against a real database: the VIP welcome is
an accessible dialog shown once (Continue records it on the server, so a new layout — another browser —
does not show it), nothing for a non-VIP; the getting-started checklist is a labelled card (never a modal)
with the role's items, and Dismiss hides it for good."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from reactpy import html
from sqlalchemy import update

from app import db as app_db
from app.settings import get_settings
from components.context import CartHandle, Disclosure, SessionContext, Toaster, UiSession
from components.onboarding import OnboardingChecklist
from components.vip_welcome import CONTINUE, TITLE, VipWelcome
from medivisit.reactpy_compat import hook_stack
from models.account import Role
from models.identity import User
from tests.factories import Person, person, sign_in
from tests.ui.harness import Mounted, attrs, find_all, mount, text

TIMEOUT = 10


@pytest.fixture
def identity(configured, monkeypatch, tmp_path) -> Iterator[None]:
    hook_stack.install()
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def within(someone: Person, child, actor=None):  # noqa: ANN001, ANN201 - a component factory
    session = UiSession(
        user=someone.account,
        actor=actor or someone.actor,
        toaster=Toaster(),
        cart=CartHandle(),
        bug_report=Disclosure(),
        visitor_id="",
    )
    return lambda: SessionContext(html.div(child()), value=session)


async def loaded(ui: Mounted) -> None:
    """Settle until the hooks' database work (queries, actions) has finished and been rendered."""
    for _ in range(20):
        await ui.settle()
        work = [t for t in asyncio.all_tasks() if "use_query" in getattr(t.get_coro(), "__qualname__", "")]
        if not work:
            break
        await asyncio.wait_for(asyncio.gather(*work), TIMEOUT)
    await ui.settle()


async def committed() -> None:
    """Wait for the commands' units of work (each runs on a task of its own) to commit."""
    work = [t for t in asyncio.all_tasks() if "in_unit_of_work" in getattr(t.get_coro(), "__qualname__", "")]
    await asyncio.wait_for(asyncio.gather(*work), TIMEOUT)


async def vip() -> Person:
    someone = await person(name="Vera Important")
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(User)
            .where(User.id == someone.id)
            .values(raw_app_meta_data={"role": "patient", "is_vip": True})
        )
    return Person(someone.actor, someone.account.model_copy(update={"is_vip": True}))


async def test_vip_welcome_is_a_dialog_shown_once(identity) -> None:
    someone = await vip()
    async with mount(within(someone, VipWelcome)) as ui:
        await loaded(ui)
        [dialog] = find_all(ui.model, "div", role="dialog")
        assert attrs(dialog)["aria-modal"] == "true"
        assert TITLE in text(dialog)
        button = ui.find("button", text=CONTINUE)
        assert "data-initial-focus" in attrs(button)
        await ui.fire(button)
        await loaded(ui)
        assert find_all(ui.model, "div", role="dialog") == []
    await committed()
    another_browser = await sign_in(someone.id)
    async with mount(within(someone, VipWelcome, another_browser)) as ui:
        await loaded(ui)
        assert find_all(ui.model, "div", role="dialog") == []
        assert find_all(ui.model, "span", **{"data-vip-welcome": "seen"})


async def test_no_vip_welcome_for_others(identity) -> None:
    someone = await person()
    async with mount(within(someone, VipWelcome)) as ui:
        await loaded(ui)
        assert text(ui.model) == "" and find_all(ui.model, "div", role="dialog") == []


async def test_checklist_is_a_card_with_the_roles_items_and_can_be_dismissed(identity) -> None:
    patient = await person()
    async with mount(within(patient, OnboardingChecklist)) as ui:
        await loaded(ui)
        [card] = find_all(ui.model, "section", **{"aria-labelledby": "onboarding-title"})
        assert "aria-modal" not in attrs(card) and "role" not in attrs(card)
        assert [attrs(a)["href"] for a in find_all(card, "a")] == ["/dashboard/settings#address", "/services"]
        assert "0 of 2 done" in text(card)
        await ui.fire(ui.find("button", text="Dismiss"))
        assert find_all(ui.model, "section") == []
    await committed()
    async with mount(within(patient, OnboardingChecklist)) as ui:
        await loaded(ui)
        assert find_all(ui.model, "section") == []
    provider = await person(Role.provider)
    async with mount(within(provider, OnboardingChecklist)) as ui:
        await loaded(ui)
        hrefs = [attrs(a)["href"] for a in find_all(ui.model, "a")]
        assert hrefs == ["/provider-enrollment", "/dashboard/services"]
