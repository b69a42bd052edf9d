"""A draft form (components/forms.py `use_form(draft=...)`) keeps what was typed in the database: the
layout is thrown away (a restart or a reconnect to another worker loses every in-memory value) and a new one
shows the text again, to the same person only; sending deletes it (hardening issue, finding 12)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from reactpy import component, html
from reactpy.types import VdomDict

from app.services.drafts import load_draft
from app.settings import get_settings
from components.context import CartHandle, Disclosure, SessionContext, Toaster, UiSession
from components.forms import Form, use_form
from components.kit import TextArea
from medivisit.reactpy_compat import hook_stack
from models.account import Role
from tests.factories import Person, person, run
from tests.ui.harness import Mounted, attrs, mount

KEY = "support:reply:ticket-1"
TIMEOUT = 10


@pytest.fixture
def identity(configured, monkeypatch, tmp_path) -> Iterator[None]:
    """Signed-in people on the test database (a signing key of their own), drafts saved 20 ms after typing."""
    hook_stack.install()  # as the server does at startup
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    monkeypatch.setenv("DRAFT_SAVE_DELAY_MS", "20")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


class Probe:
    form: Form | None = None  # set by the reply box as it renders

    def mounted_form(self) -> Form:
        assert self.form is not None, "the reply box has not rendered"
        return self.form

    async def saved(self) -> None:
        """Wait until the draft's writes are done."""
        draft = self.mounted_form()._draft
        assert draft is not None, "the form keeps no draft"
        await asyncio.wait_for(draft.idle(), TIMEOUT)


def reply_box(someone: Person, probe: Probe):  # noqa: ANN201 - a component
    @component
    def Reply() -> VdomDict:
        form = use_form(draft=KEY, content="")
        probe.form = form
        return html.form(TextArea("Message", "content", form=form, id="reply"))

    session = UiSession(
        user=someone.account,
        actor=someone.actor,
        toaster=Toaster(),
        cart=CartHandle(),
        bug_report=Disclosure(),
        visitor_id="",
    )
    return lambda: SessionContext(Reply(), value=session)


async def shown(ui: Mounted) -> str:
    """The text area's value once the draft load (if any) has been rendered."""
    for _ in range(20):
        await ui.settle()
        loads = [t for t in asyncio.all_tasks() if "use_draft" in getattr(t.get_coro(), "__qualname__", "")]
        if not loads:
            break
        await asyncio.wait_for(asyncio.gather(*loads), TIMEOUT)
    await ui.settle()
    return attrs(ui.find("textarea"))["default_value"]


async def test_typing_survives_a_new_layout_for_its_author_only(identity) -> None:
    jordan, sam = await person(Role.patient), await person(Role.support)
    probe = Probe()
    async with mount(reply_box(jordan, probe)) as ui:
        assert await shown(ui) == ""
        await ui.type(ui.find("textarea"), "My arm still hurts where the blood was drawn")
        await probe.saved()
    # Everything in memory is gone with that layout; the database still has the draft.
    async with mount(reply_box(jordan, Probe())) as ui:
        assert await shown(ui) == "My arm still hurts where the blood was drawn"
    async with mount(reply_box(sam, Probe())) as ui:
        assert await shown(ui) == ""  # another user, the same form key: nothing


async def test_sending_or_emptying_deletes_the_draft(identity) -> None:
    jordan = await person(Role.patient)
    probe = Probe()
    async with mount(reply_box(jordan, probe)) as ui:
        await ui.type(ui.find("textarea"), "Draft one")
        await probe.saved()
        assert await run(load_draft, actor=jordan.actor, form_key=KEY) == {"content": "Draft one"}
        probe.mounted_form().reset(content="")  # what a reply box does once the reply is sent
        await probe.saved()
        assert await run(load_draft, actor=jordan.actor, form_key=KEY) is None

        await ui.type(ui.find("textarea"), "Draft two")
        await probe.saved()
        await ui.type(ui.find("textarea"), "")  # typed away again
        await probe.saved()
        assert await run(load_draft, actor=jordan.actor, form_key=KEY) is None

        await ui.type(ui.find("textarea"), "Draft three")
        probe.mounted_form().discard_draft()  # a form that closes once sent
        await probe.saved()
        assert await run(load_draft, actor=jordan.actor, form_key=KEY) is None
