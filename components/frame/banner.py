"""The flash-sale banner, shown only while the sale runs (FLASH_SALE_ENABLED, FLASH_SALE_DAY: unset = every
day). The countdown to the end of the visitor's day ticks in the browser."""

from __future__ import annotations

import functools

from reactpy import html
from reactpy.types import VdomDict

from app.services.catalog import flash_sale_running
from components import browser
from components.icons import icon
from components.kit import button_link, frozen

SALE_TEXT = "24-HOUR FLASH SALE: 30% off IV therapies today only!"
SALE_HREF = "/services/iv-therapy"


def flash_sale_banner() -> VdomDict | str:
    """The banner, or nothing on a day the sale does not run."""
    return _banner() if flash_sale_running() else ""


@functools.cache
def _banner() -> VdomDict:
    """The same for everyone, and driven by the browser (static/js/app.js: the countdown, the close
    button): one `frozen` element shared by every tab."""
    return frozen(
        html.div(
            {"class_name": "flash-banner", "role": "region", "aria-label": "Flash sale"},
            html.div(
                {"class_name": "container flash-banner-inner"},
                html.span({"class_name": "flash-icon"}, icon("zap", size=18)),
                html.p({"class_name": "flash-text"}, SALE_TEXT),
                html.span(
                    {"class_name": "flash-countdown", "aria-label": "Time left today"},
                    html.span({"class_name": "sr-only"}, "Ends in "),
                    html.time({**browser.countdown("end-of-day"), "class_name": "countdown"}),
                ),
                button_link("Book Now", SALE_HREF, variant="light", size="sm"),
                html.button(
                    {
                        "class_name": "icon-button flash-close",
                        "type": "button",
                        "aria-label": "Close flash sale banner",
                        **browser.banner_close(),
                    },
                    icon("x", size=18),
                ),
            ),
        )
    )
