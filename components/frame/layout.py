"""The page frame around every public screen: banner, top nav, content, footer and the bottom bar (the
small-screen menu and drawer are mounted at the root only while open: components/frame/mobile.py)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from components.context import use_session
from components.frame.banner import flash_sale_banner
from components.frame.footer import footer
from components.frame.mobile import BottomBar
from components.frame.nav import TopNav


@component
def SiteFrame(*children: Any) -> VdomDict:
    session = use_session()
    return html.div(
        {"class_name": "site"},
        html.a({"class_name": "skip-link", "href": "#main"}, "Skip to content"),
        flash_sale_banner(),
        TopNav(),
        html.main({"id": "main", "class_name": "site-main", "tab_index": -1}, *children),
        footer(session.brand_name, lambda _e: session.bug_report.open()),
        BottomBar(),
    )
