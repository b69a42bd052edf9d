"""Admin (/admin): owner and admin only. A heading and the way into the staff portal and the dashboard;
the administration tools themselves come in later releases."""

from __future__ import annotations

from reactpy import component, html

from components.guards import admin_rule, use_guard
from components.icons import icon


@component
def AdminPage() -> dict:
    redirect = use_guard(admin_rule)
    if redirect is not None:
        return redirect
    return _admin_view()


def _admin_view() -> dict:
    return html.div(
        {"class_name": "portal"},
        html.section(
            {"class_name": "portal-header"},
            html.div(
                {"class_name": "container"},
                html.p({"class_name": "eyebrow"}, "Administration"),
                html.h1("Admin"),
            ),
        ),
        html.div(
            {"class_name": "container portal-body"},
            html.ul(
                {"class_name": "portal-links"},
                html.li(
                    {"key": "staff"},
                    html.a(
                        {"class_name": "portal-link", "href": "/staff"},
                        html.span({"class_name": "portal-link-icon"}, icon("users", size=20)),
                        html.span({"class_name": "portal-link-label"}, "Staff Portal"),
                        icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
                    ),
                ),
                html.li(
                    {"key": "dashboard"},
                    html.a(
                        {"class_name": "portal-link", "href": "/dashboard"},
                        html.span({"class_name": "portal-link-icon"}, icon("dashboard", size=20)),
                        html.span({"class_name": "portal-link-label"}, "Dashboard"),
                        icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
                    ),
                ),
            ),
        ),
    )
