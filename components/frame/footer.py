"""The footer: brand column with social links, three link columns, copyright and Report Bug. The columns
never change: they are one frozen element (components/kit/static.py), shared by every tab."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import cache

from reactpy import html
from reactpy.types import VdomDict

from components.frame.links import FOOTER_COLUMNS, SOCIAL
from components.frame.nav import LEGAL_SUFFIX, logo
from components.icons import icon
from components.kit import frozen


def footer(brand: str, on_report_bug: Callable[[dict], None]) -> VdomDict:
    return html.footer(
        {"class_name": "site-footer"},
        _columns(brand),
        html.div(
            {"class_name": "container footer-bottom"},
            html.p(f"© {date.today().year} {brand} {LEGAL_SUFFIX}. All rights reserved."),
            html.button(
                {"class_name": "btn btn-ghost btn-sm", "type": "button", "on_click": on_report_bug},
                icon("bug", size=16),
                "Report Bug",
            ),
        ),
    )


@cache
def _columns(brand: str) -> VdomDict:
    columns = [
        html.div(
            {"class_name": "footer-col", "key": title},
            html.h2({"class_name": "footer-heading"}, title),
            html.ul(
                *(html.li({"key": link.label}, html.a({"href": link.href}, link.label)) for link in links)
            ),
        )
        for title, links in FOOTER_COLUMNS
    ]
    brand_column = html.div(
        {"class_name": "footer-col footer-brand"},
        logo(brand),
        html.p(
            {"class_name": "footer-tagline"},
            "Licensed nurses, phlebotomists and clinicians who come to your home or office.",
        ),
        html.div(
            {"class_name": "social-links"},
            *(
                html.a(
                    {
                        "href": link.href,
                        "aria-label": link.label,
                        "target": "_blank",
                        "rel": "noopener noreferrer",
                        "key": link.label,
                        "class_name": "social-link",
                    },
                    icon(link.icon, size=18),
                )
                for link in SOCIAL
            ),
        ),
    )
    return frozen(html.div({"class_name": "container footer-grid"}, brand_column, *columns))
