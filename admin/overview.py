"""Admin (/admin): owner and admin only. The console's overview (its navigation, components/admin_frame.py,
leads to users, the mail outbox, unknown paths and system health): the way into the staff portal and the
dashboard, the feature toggles (sign-ups open or on the waitlist, the flash sale and its day: switched for
every server process at once, no restart) and the sign-up waitlist (approve an entry to e-mail the person
an invitation).

The screen guard only decides what is shown: the services check the actor themselves.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from reactpy import component, event, html
from reactpy.types import VdomDict

from app import flags
from app.services.accounts import approve_waitlist_entry, list_waitlist
from app.services.features import list_features, reset_feature, set_feature
from components.admin_frame import admin_frame
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Action, Query, use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Field,
    QueryView,
    Region,
    Select,
    ServerForm,
    empty_state,
    error_state,
    loading_state,
)
from models.feature import FeatureRead
from models.waitlist import WaitlistEntryRead


@component
def AdminPage() -> VdomDict:
    return admin_frame(
        html.ul(
            {"class_name": "portal-links"},
            _portal_link("/staff", "users", "Staff Portal", key="staff"),
            _portal_link("/dashboard", "dashboard", "Dashboard", key="dashboard"),
        ),
        _Administration(),
        active="",
        title="Admin",
    )


def _portal_link(href: str, icon_name: str, label: str, *, key: str) -> VdomDict:
    return html.li(
        {"key": key},
        html.a(
            {"class_name": "portal-link", "href": href},
            html.span({"class_name": "portal-link-icon"}, icon(icon_name, size=20)),
            html.span({"class_name": "portal-link-label"}, label),
            icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
        ),
    )


# ---- feature toggles -----------------------------------------------------------------------------------
@component
def _Administration() -> VdomDict:
    features = use_query(list_features)
    signups = next((f.value for f in features.data or [] if f.key == "signups"), flags.signups_mode())
    return html._(_feature_toggles(features), WaitlistSection(waitlist_on=signups == "waitlist"))


def _feature_toggles(features: Query) -> VdomDict:
    return Region(
        "Feature toggles",
        html.p(
            {"class_name": "waitlist-intro"},
            "Changes apply to every visitor within seconds, without a restart, and are recorded in the audit log.",
        ),
        QueryView(
            features,
            lambda rows: html.ul(
                {"class_name": "feature-list"},
                *(_Toggle(feature, features, key=f"{feature.key}:{feature.value}") for feature in rows),
            ),
            loading_label="Loading feature toggles…",
        ),
        title_id="features-title",
        class_name="admin-features",
        title_class="portal-group-title",
    )


def _shown(feature: FeatureRead, value: Any) -> str:
    if feature.kind == "switch":
        return "On" if value else "Off"
    if feature.kind == "choice":
        return dict(feature.choices).get(value, str(value))
    return format_date(date.fromisoformat(value)) if value else "Every day"


@component
def _Toggle(feature: FeatureRead, features: Query) -> VdomDict:
    session = use_session()
    initial = ("on" if feature.value else "off") if feature.kind == "switch" else str(feature.value or "")
    form = use_form(value=initial)

    def done(result: FeatureRead) -> None:
        session.toaster.success(f"{result.label}: {_shown(result, result.value)}")

    save = use_action(set_feature, refetch=[features], on_success=done)
    reset = use_action(reset_feature, refetch=[features], on_success=done)
    ids = f"feature-{feature.key}"

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        raw = str(form.values.get("value", ""))
        value: Any = raw == "on" if feature.kind == "switch" else raw
        await save.run(key=feature.key, value=value)

    if feature.kind == "date":
        control = Field(feature.label, "value", form=form, id=ids, type="date")
    else:
        options = [("on", "On"), ("off", "Off")] if feature.kind == "switch" else feature.choices
        control = Select(feature.label, "value", form=form, id=ids, options=options)
    origin = (
        f"Set by {feature.updated_by_name or 'an administrator'} on {format_date(feature.updated_at)}; "
        f"the server's setting is {_shown(feature, feature.default)}."
        if feature.overridden and feature.updated_at
        else "The server's setting."
    )
    return html.li(
        {"class_name": "feature-row"},
        ServerForm(
            html.div(
                {"class_name": "feature-text"},
                control,
                html.p({"class_name": "text-muted feature-description"}, feature.description),
                html.p({"class_name": "feature-origin"}, origin),
            ),
            html.div(
                {"class_name": "button-row feature-actions"},
                Button(
                    "Save", type="submit", size="sm", pending=save.pending, aria_label=f"Save {feature.label}"
                ),
                Button(
                    "Use server setting",
                    variant="ghost",
                    size="sm",
                    pending=reset.pending,
                    on_click=lambda: reset.run(key=feature.key),
                    aria_label=f"{feature.label}: use the server's setting",
                )
                if feature.overridden
                else "",
            ),
            on_submit=submit,
            class_name="feature-form",
        ),
    )


@component
def WaitlistSection(waitlist_on: bool) -> VdomDict:
    session = use_session()
    entries = use_query(list_waitlist)

    def approved(entry: WaitlistEntryRead) -> None:
        session.toaster.success("Invitation sent", f"{entry.email} can now finish signing up.")

    approve = use_action(approve_waitlist_entry, refetch=[entries], on_success=approved)
    intro = (
        "Sign-ups go through the waitlist. Approving someone e-mails them a link to choose a password."
        if waitlist_on
        else "Sign-ups are open, so nobody new joins the waitlist."
    )

    if entries.error:
        body = error_state(entries.error, entries.refetch)
    elif entries.data is None:
        body = loading_state("Loading the waitlist…")
    elif not entries.data:
        body = empty_state("Nobody is waiting.")
    else:
        body = html.ul(
            {"class_name": "waitlist", "aria_label": "Pending sign-ups"},
            [_waitlist_row(entry, approve) for entry in entries.data],
        )
    return Region(
        "Waitlist",
        html.p({"class_name": "waitlist-intro"}, intro),
        body,
        title_id="waitlist-title",
        class_name="waitlist-section",
        title_class="portal-group-title",
    )


def _waitlist_row(entry: WaitlistEntryRead, approve: Action[WaitlistEntryRead]) -> VdomDict:
    joined = f"{entry.created_at:%b} {entry.created_at.day}, {entry.created_at.year}"
    return html.li(
        {"key": entry.id, "class_name": "waitlist-row"},
        html.div(
            {"class_name": "waitlist-who"},
            html.strong(entry.name or entry.email),
            html.span(
                {"class_name": "waitlist-meta"},
                f"{entry.email} · joined {joined}" if entry.name else f"Joined {joined}",
            ),
        ),
        Button(
            "Approve",
            size="sm",
            disabled=approve.pending,
            aria_label=f"Approve {entry.email}",
            on_click=lambda: approve.run(entry_id=entry.id),
        ),
    )
