"""/services/<slug> for a service of the catalog (issue 11, flow 7): the service's category page with the
service named, and 'Service not found' for a slug the catalog does not have; headless, on the test database."""

from __future__ import annotations

import asyncio

import pytest

from components.context import CartHandle, Disclosure, SessionContext, Toaster, UiSession
from medivisit.reactpy_compat import hook_stack
from pages.service_detail import _ServicePage
from tests import factories
from tests.ui.harness import text

pytestmark = pytest.mark.usefixtures("configured")


@pytest.fixture(autouse=True)
def _task_local_hook_stack() -> None:
    hook_stack.install()  # as the server does at startup


def page(slug: str):  # noqa: ANN201
    session = UiSession(
        user=None, toaster=Toaster(), cart=CartHandle(), bug_report=Disclosure(), visitor_id="visitor-test"
    )
    return lambda: SessionContext(_ServicePage(slug), value=session)


async def shown(mount, slug: str, expected: str) -> str:
    async with mount(page(slug)) as ui:
        async with asyncio.timeout(10):
            while expected not in text(ui.model):
                await ui.render()
        return text(ui.model)


async def test_a_service_slug_shows_its_category_page(mount) -> None:
    await factories.provider()  # seeds the reference catalog
    body = await shown(mount, "routine-blood-draw", "Routine blood draw")
    assert "Mobile Phlebotomy" in body and "Service not found" not in body


async def test_an_unknown_slug_is_not_found(mount) -> None:
    await factories.provider()
    assert "Service not found" in await shown(mount, "no-such-service", "Service not found")
