"""Every path of SPEC §2 "Public and other paths seen" answers HTTP 200 and renders its screen inside the
site frame, without a JavaScript error and without the 'Unexpected Application Error!' fallback.

One browser page is shared by the whole module to keep this sweep fast.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, _page, page_errors
from tests.e2e.helpers import ROUTER_FALLBACK, expect_frame, wait_for_screen
from tests.spec_paths import PUBLIC_PATHS


@pytest.fixture(scope="module")
def shared_page(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, DESKTOP)


@pytest.mark.parametrize("path", PUBLIC_PATHS)
def test_public_path_renders_its_screen(live_server, shared_page: Page, path: str) -> None:
    page = shared_page
    page_errors(page).clear()
    response = page.goto(live_server.url(path))
    assert response is not None and response.status == 200

    wait_for_screen(page)
    expect_frame(page)
    expect(page.get_by_text(ROUTER_FALLBACK)).to_have_count(0)
    expect(page.get_by_role("heading", name="Page Not Found")).to_have_count(0)
    assert page_errors(page) == []
