"""Staff settings in Chromium (/staff/settings, issue 15 item 5) on a demo server: a support agent pins a
time zone and a help-desk signature (and sees no business settings); the owner changes the travel time
between visits. axe in light and dark at 1280 and 375 px; screenshots in tests/artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, start_demo_server, stop_server
from tests.e2e.accessibility import NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, screenshot
from tests.e2e.helpers import toasts
from tests.e2e.test_staff_portal import staff_sign_in


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[LiveServer]:
    server, _database_url = start_demo_server(tmp_path_factory.mktemp("staff-settings"))
    yield server
    stop_server(server)


def looks(page, name: str) -> list[str]:  # noqa: ANN001 - Page
    problems = check_every_look(page, name)
    if not SCREENSHOTS:
        return problems
    for width, scheme in NAMED_LOOKS:
        set_look(page, WIDTHS[width], scheme)
        screenshot(page, f"{name}-{width}-{scheme}", full_page=True)
    set_look(page, DESKTOP, "light")
    return problems


def test_a_member_saves_preferences_and_the_owner_a_business_setting(
    browser: Browser, demo: LiveServer
) -> None:
    agent = browser.new_page(viewport=DESKTOP)
    staff_sign_in(agent, demo, "support", "/staff/settings")
    expect(agent.get_by_role("heading", name="Settings", level=1)).to_be_visible()
    expect(agent.get_by_role("heading", name="Business settings")).to_have_count(0)
    agent.get_by_label("Time zone").select_option("America/Chicago")
    agent.get_by_label("Help-desk signature").fill("Sam Rivera\nMediVisit Support")
    agent.get_by_role("button", name="Save settings").click()
    expect(toasts(agent, "Settings saved")).to_be_visible()
    agent.reload()
    expect(agent.get_by_label("Time zone")).to_have_value("America/Chicago")
    expect(agent.get_by_label("Help-desk signature")).to_have_value("Sam Rivera\nMediVisit Support")
    agent.close()

    owner = browser.new_page(viewport=DESKTOP)
    staff_sign_in(owner, demo, "owner", "/staff/settings")
    business = owner.get_by_role("region", name="Business settings")
    buffer = business.get_by_label("Travel time between visits (minutes)", exact=True)
    expect(buffer).to_have_value("30")
    loaded(owner)
    problems = looks(owner, "staff-settings")
    buffer.fill("500")
    business.get_by_role("button", name="Save Travel time between visits (minutes)").click()
    expect(toasts(owner, "Enter a whole number of minutes from 0 to 240.")).to_be_visible()
    buffer.fill("45")
    business.get_by_role("button", name="Save Travel time between visits (minutes)").click()
    expect(toasts(owner, "Travel time between visits (minutes) saved")).to_be_visible()
    owner.reload()
    expect(
        owner.get_by_role("region", name="Business settings").get_by_label(
            "Travel time between visits (minutes)", exact=True
        )
    ).to_have_value("45")
    # A choice is a select of its options: who pays for a sale's discount (MediVisit unless the owner says).
    funding = owner.get_by_role("region", name="Business settings").get_by_label(
        "Who pays for discounts", exact=True
    )
    expect(funding).to_have_value("platform")
    funding.select_option(label="The provider (their earning is the discounted price)")
    owner.get_by_role("button", name="Save Who pays for discounts").click()
    expect(toasts(owner, "Who pays for discounts saved")).to_be_visible()
    owner.reload()
    expect(
        owner.get_by_role("region", name="Business settings").get_by_label(
            "Who pays for discounts", exact=True
        )
    ).to_have_value("provider")
    owner.close()
    assert not problems, "\n".join(problems)
