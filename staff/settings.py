"""Settings (/staff/settings; issue 15 item 5): the member's own preferences — the time zone the portal shows
times in (pinned, or the browser's) and the signature under their help-desk replies — and where their
notification channels are chosen. Owners also see the business settings an administrator may change at run
time (app/services/features, group "business": numbers, e-mail addresses, percentages and dollar amounts such
as the store's fee, shipping and sales tax, and choices such as who pays for discounts) and the policies that are fixed by our published terms.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html
from reactpy.types import Component, VdomDict

from app.services.features import list_features, set_feature
from app.services.staff import get_my_staff_preferences, update_my_staff_preferences
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Button,
    Field,
    QueryView,
    Region,
    Select,
    ServerForm,
    TextArea,
    bullets,
    button_row,
    staff_screen,
)
from components.staff_frame import StaffFrame, StaffSection, use_staff_access
from models.feature import FeatureRead
from models.staff import MAX_SIGNATURE, STAFF_TIME_ZONES, StaffPreferencesRead, StaffPreferencesUpdate

NOTIFICATION_SETTINGS = "/dashboard/notification-settings"
NUMBERS = {"minutes": (0, 240), "count": (1, 20)}  # the number kinds of business settings: (min, max)
# Typed as text (a number input would drop "$" and refuse "8.875" with step 1); the service checks them.
DECIMALS = {"percent": "e.g. 2.5 (0 to 25)", "money": "e.g. 6.95"}


@component
def SettingsPage() -> Component:
    return StaffFrame(StaffSection(_Settings, slug="settings"), active="settings")


@component
def _Settings() -> VdomDict:
    access = use_staff_access().access
    preferences = use_query(get_my_staff_preferences)
    return staff_screen(
        "Settings",
        QueryView(
            preferences,
            lambda data: _Preferences(data, preferences, key=f"{data.time_zone}:{data.signature}"),
            loading_label="Loading your settings…",
        ),
        _Business() if access and access.is_owner else "",
        lead="Your own preferences for the portal"
        + (", and the business settings you manage as an owner." if access and access.is_owner else "."),
        body_class="staff-settings",
    )


@component
def _Preferences(data: StaffPreferencesRead, query: Query) -> VdomDict:
    session = use_session()
    form = use_form(time_zone=data.time_zone or "", signature=data.signature)
    save = use_action(
        update_my_staff_preferences,
        refetch=[query],
        on_success=lambda _r: session.toaster.success("Settings saved"),
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await save.run(
            data=StaffPreferencesUpdate(
                time_zone=str(form.values.get("time_zone", "")),
                signature=str(form.values.get("signature", "")),
            ),
        )

    browser_zone = session.time_zone.replace("_", " ")
    return Region(
        "Your preferences",
        ServerForm(
            Select(
                "Time zone",
                "time_zone",
                form=form,
                id="prefs-time-zone",
                placeholder=f"Follow my browser ({browser_zone})",
                options=list(STAFF_TIME_ZONES),
                hint="Visit times, due times and the audit log in the portal are shown in this zone.",
            ),
            TextArea(
                "Help-desk signature",
                "signature",
                form=form,
                id="prefs-signature",
                rows=4,
                max_length=MAX_SIGNATURE,
                hint="Added under your replies to customers (never under internal notes). Up to six lines.",
            ),
            button_row(Button("Save settings", type="submit", pending=save.pending)),
            on_submit=submit,
            class_name="staff-settings-form",
        ),
        html.div(
            {"class_name": "staff-settings-aside"},
            html.h3("Notification channels"),
            html.p(
                "Choose which notifications also reach you by e-mail, and when you get a daily digest, in ",
                html.a({"href": NOTIFICATION_SETTINGS}, "Notification settings"),
                ".",
            ),
        ),
        title_id="prefs-title",
        class_name="staff-card",
    )


# ---- business settings (owners) ------------------------------------------------------------------------
@component
def _Business() -> VdomDict:
    settings = use_query(list_features, group="business")
    return Region(
        "Business settings",
        html.p(
            {"class_name": "text-muted"},
            "Changes apply at once across the site and are recorded in the audit log.",
        ),
        QueryView(
            settings,
            lambda rows: html.div(
                {"class_name": "staff-settings-business"},
                *(_BusinessSetting(row, settings, key=f"{row.key}:{row.value}") for row in rows),
            ),
            loading_label="Loading business settings…",
        ),
        html.h3("Fixed by our published terms"),
        bullets(
            (
                "Platform fee on visits: 5 % of each visit's price, shown to patients at checkout "
                "(store products carry the fee set above, none by default).",
                "Free cancellation and rescheduling: up to 24 hours before a visit.",
                "To change them, update the Terms of Service first: patients agreed to these terms.",
            ),
            class_name="staff-settings-facts",
        ),
        title_id="business-title",
        class_name="staff-card",
    )


@component
def _BusinessSetting(row: FeatureRead, query: Query) -> VdomDict:
    session = use_session()
    form = use_form(value=str(row.value))
    save = use_action(
        set_feature, refetch=[query], on_success=lambda r: session.toaster.success(f"{r.label} saved")
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        value: Any = str(form.values.get("value", ""))
        await save.run(key=row.key, value=value)

    control = (
        Select(
            row.label,
            "value",
            form=form,
            id=f"business-{row.key}",
            options=[(key, label) for key, label in row.choices],
            hint=row.description,
        )
        if row.kind == "choice"
        else Field(
            row.label,
            "value",
            form=form,
            id=f"business-{row.key}",
            type="email" if row.kind == "email" else "number" if row.kind in NUMBERS else "text",
            hint=row.description,
            max_length=16 if row.kind in DECIMALS else 320,
            min=str(NUMBERS[row.kind][0]) if row.kind in NUMBERS else None,
            max=str(NUMBERS[row.kind][1]) if row.kind in NUMBERS else None,
            input_mode="decimal" if row.kind in DECIMALS else None,
            placeholder=DECIMALS.get(row.kind),
        )
    )
    return ServerForm(
        control,
        Button("Save", type="submit", size="sm", pending=save.pending, aria_label=f"Save {row.label}"),
        on_submit=submit,
        class_name="staff-settings-row",
    )
