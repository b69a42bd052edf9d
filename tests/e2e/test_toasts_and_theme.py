"""Toasts (SPEC §9: bottom-right, 356 px wide, 4000 ms, at most 3 visible, Alt+T) and the theme toggle
(light → dark → system, kept in localStorage 'theme', default 'system', applied as html[data-theme])."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_page
from tests.e2e.helpers import bounds, report_bug, toasts

SUCCESS = "Bug report submitted successfully"
NOTIFICATIONS = 'section[aria-label^="Notifications"]'

# Page time at which each toast was added, keyed by its text.
_TOAST_ARRIVALS = """() => {
  const arrivals = window.__toastArrivals = {};
  new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (node.nodeType === 1 && node.matches(".toast")) arrivals[node.textContent.trim()] ??= performance.now();
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""

# Resolves with how long the toast showing `text` stayed visible (waits until it is hidden).
_TIME_VISIBLE = """(text) => new Promise((resolve) => {
  const hidden = (el) => {
    if (!el.isConnected) return true;
    const style = getComputedStyle(el);
    return style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0;
  };
  const poll = () => {
    const toast = [...document.querySelectorAll(".toast")].find((el) => el.textContent.includes(text));
    if (!toast || hidden(toast)) resolve(performance.now() - window.__toastArrivals[text]);
    else setTimeout(poll, 20);
  };
  poll();
})"""


def theme_state(page: Page) -> tuple[str | None, str | None, str | None]:
    """(stored preference, html[data-theme], html[data-theme-pref])."""
    return tuple(
        page.evaluate(
            "[localStorage.getItem('theme'), document.documentElement.dataset.theme,"
            " document.documentElement.dataset.themePref]"
        )
    )


def theme_toggle(page: Page):  # noqa: ANN201
    return page.get_by_role("button", name="Change theme")


# ---- toasts -------------------------------------------------------------------------------------
def test_toast_is_356px_wide_bottom_right_and_hides_after_about_4s(live_server, page, smtp) -> None:
    open_page(page, live_server.url("/"))
    page.evaluate(_TOAST_ARRIVALS)
    report_bug(page)
    toast = toasts(page, SUCCESS)
    expect(toast).to_be_visible()
    page.mouse.move(10, 400)  # hovering a toast would pause its timer

    assert round(bounds(toast)["width"]) == 356
    region = bounds(page.get_by_role("region", name=re.compile("^Notifications")))
    assert (round(1280 - region["x"] - region["width"]), round(800 - region["y"] - region["height"])) == (
        32,
        32,
    )

    shown_ms = page.evaluate(_TIME_VISIBLE, SUCCESS)
    assert 3600 <= shown_ms <= 5500, f"the toast stayed {shown_ms:.0f} ms, expected about 4000 ms"
    expect(toast).to_be_hidden()


def test_alt_t_moves_focus_to_the_notifications(live_server, page, smtp) -> None:
    open_page(page, live_server.url("/"))
    report_bug(page)
    expect(toasts(page, SUCCESS)).to_be_visible()
    assert not page.evaluate(f"!!document.activeElement.closest('{NOTIFICATIONS}')")

    page.keyboard.press("Alt+t")
    page.wait_for_function(f"!!document.activeElement.closest('{NOTIFICATIONS}')")
    focused_text = page.evaluate("document.activeElement.textContent")
    assert SUCCESS in focused_text


def test_at_most_three_toasts_are_visible(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    for _ in range(4):
        theme_toggle(page).click()
    theme_toasts = toasts(page, re.compile(r"^Theme: "))
    expect(theme_toasts).to_have_count(4)
    expect(theme_toasts.filter(visible=True)).to_have_count(3)


# ---- theme ----------------------------------------------------------------------------------------
def test_theme_toggle_cycles_light_dark_system_and_persists(live_server, page) -> None:
    page.emulate_media(color_scheme="light")
    open_page(page, live_server.url("/"))
    assert theme_state(page) == (None, "light", "system")

    theme_toggle(page).click()
    assert theme_state(page) == ("light", "light", "light")
    theme_toggle(page).click()
    assert theme_state(page) == ("dark", "dark", "dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 255, 255)", "dark theme did not change the page colours"

    page.reload()
    page.get_by_role("banner").wait_for()
    assert theme_state(page) == ("dark", "dark", "dark")

    theme_toggle(page).click()
    assert theme_state(page) == ("system", "light", "system")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.reload()
    page.get_by_role("banner").wait_for()
    assert theme_state(page) == ("system", "dark", "system")
