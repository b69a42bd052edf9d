"""The notification centre's screens, shared by the dashboard (/dashboard/notifications,
/dashboard/notification-settings) and the staff portal (/staff/notifications): `NotificationInbox` and
`NotificationSettings`.

The inbox's tab and page live in the URL (`?tab=all&page=2`), so a reload or a reconnect shows the same
view; it listens to the person's notification topic, so a new notification, or one read or archived in
another tab, shows at once. Each item links to its object; following the link marks it read.

The settings are a real form: one row per category, a labelled checkbox per channel (in-app, e-mail) and,
where the category may wait, "daily digest"; critical rows are shown checked, disabled, with the reason.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.notifications import (
    archive_notification,
    get_notification_preferences,
    list_notifications,
    mark_all_read,
    mark_read,
    notifications_topic,
    unarchive_notification,
    update_notification_preferences,
)
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query, use_topic
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Checkbox,
    NewerOlderLinks,
    QueryView,
    TabPanel,
    Tabs,
    empty_state,
    param_href,
)
from components.tickets import time_tag, when
from models.notification import (
    InboxTab,
    NotificationPageRead,
    NotificationRead,
    PreferenceRead,
    PreferencesUpdate,
    PreferenceUpdate,
)

TABS_ID = "inbox"
TABS = ((InboxTab.unread.value, "Unread"), (InboxTab.all.value, "All"), (InboxTab.archived.value, "Archived"))
EMPTY = {
    InboxTab.unread: (
        "You're all caught up",
        "New notifications about your visits and requests appear here.",
    ),
    InboxTab.all: ("No notifications yet", "Notifications about your visits and requests appear here."),
    InboxTab.archived: ("Nothing archived", "Archive a notification to keep it out of your inbox."),
}
SAVED = "Notification settings saved"
MAX_PAGE_PARAM = 1000


def _param(params: dict[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0].strip()[:20]


def _page_number(text: str) -> int:
    return min(int(text), MAX_PAGE_PARAM) if text.isdigit() and int(text) > 0 else 1


# ---- the inbox ------------------------------------------------------------------------------------
@component
def NotificationInbox(path: str, settings_path: str = "/dashboard/notification-settings") -> VdomDict:
    session = use_session()
    params = use_search_params()
    tab_text = _param(params, "tab")
    tab = InboxTab(tab_text) if tab_text in InboxTab.__members__ else InboxTab.unread
    page = _page_number(_param(params, "page"))
    inbox = use_query(list_notifications, tab=tab.value, page=page)
    use_topic(notifications_topic(session.signed_in_user.id), refetch=[inbox])
    all_read = use_action(mark_all_read, refetch=[inbox])
    unread = inbox.data.unread if inbox.data else 0

    async def read_all() -> None:
        await all_read.run()

    return html.section(
        {"class_name": "inbox card", "aria-labelledby": "inbox-title"},
        html.div(
            {"class_name": "inbox-head"},
            html.h2({"id": "inbox-title", "class_name": "inbox-title"}, "Inbox"),
            html.p({"class_name": "inbox-count", "aria-live": "polite"}, f"{unread} unread"),
            html.div(
                {"class_name": "inbox-actions"},
                Button(
                    "Mark all as read",
                    on_click=read_all,
                    variant="outline",
                    size="sm",
                    icon="check",
                    pending=all_read.pending,
                    pending_label="Marking…",
                    disabled=unread == 0,
                ),
                html.a(
                    {"class_name": "btn btn-ghost btn-sm", "href": settings_path},
                    icon("settings", size=16),
                    "Settings",
                ),
            ),
        ),
        Tabs(
            TABS,
            tab.value,
            label="Notifications",
            href=param_href(path, params, default=InboxTab.unread.value),
            id=TABS_ID,
            class_name="inbox-tabs",
            tab_class="inbox-tab",
        ),
        TabPanel(
            tab.value,
            QueryView(
                inbox,
                lambda data: _page(data, inbox, path, params),
                empty=empty_state(*EMPTY[tab], icon_name="bell"),
                is_empty=lambda data: data is None or (not data.items and data.page == 1),
                loading_label="Loading notifications…",
            ),
            id=TABS_ID,
        ),
    )


def _page(data: NotificationPageRead, inbox: Query, path: str, params: dict[str, list[str]]) -> VdomDict:
    pages = param_href(path, params, name="page", default="1", drop=())
    return html.div(
        {"class_name": "inbox-page", "aria-busy": "true" if inbox.loading else "false"},
        html.ul(
            {"class_name": "inbox-list", "aria-label": "Notifications"},
            *(_Item(item, inbox, key=item.id) for item in data.items),
        ),
        NewerOlderLinks(
            data.page, data.has_more, href=lambda n: pages(str(n)), label="Pages of notifications"
        ),
    )


@component
def _Item(item: NotificationRead, inbox: Query) -> VdomDict:
    session = use_session()
    read = use_action(mark_read, refetch=[inbox])
    archive = use_action(archive_notification, refetch=[inbox])
    restore = use_action(unarchive_notification, refetch=[inbox])
    busy = read.pending or archive.pending or restore.pending

    async def mark() -> None:
        await read.run(notification_id=item.id)

    @event
    async def opened(_event: dict) -> None:  # the link navigates; reading it is recorded meanwhile
        if not item.read:
            await read.run(notification_id=item.id)

    async def put_away() -> None:
        await archive.run(notification_id=item.id)

    async def bring_back() -> None:
        await restore.run(notification_id=item.id)

    title_id = f"notification-{item.id}"
    return html.li(
        {"class_name": "inbox-item" + ("" if item.read else " is-unread"), "aria-labelledby": title_id},
        html.span({"class_name": "inbox-dot", "aria-hidden": "true"}),
        html.div(
            {"class_name": "inbox-text"},
            html.a(
                {"id": title_id, "class_name": "inbox-link", "href": item.link, "on_click": opened},
                item.title,
            ),
            html.p({"class_name": "inbox-body"}, item.body) if item.body else "",
            html.p(
                {"class_name": "inbox-meta"},
                "" if item.read else html.span({"class_name": "inbox-unread"}, "Unread · "),
                time_tag(item.created_at, when(item.created_at, session.time_zone)),
            ),
        ),
        html.div(
            {"class_name": "inbox-item-actions"},
            ""
            if item.read
            else Button(
                "Mark read",
                on_click=mark,
                variant="ghost",
                size="sm",
                disabled=busy,
                aria_label=f"Mark read: {item.title}",
            ),
            Button(
                "Restore",
                on_click=bring_back,
                variant="ghost",
                size="sm",
                disabled=busy,
                aria_label=f"Restore: {item.title}",
            )
            if item.archived
            else Button(
                "Archive",
                on_click=put_away,
                variant="ghost",
                size="sm",
                disabled=busy,
                aria_label=f"Archive: {item.title}",
            ),
        ),
    )


# ---- the settings ---------------------------------------------------------------------------------
@component
def NotificationSettings() -> VdomDict:
    session = use_session()
    preferences = use_query(get_notification_preferences)
    use_topic(
        notifications_topic(session.signed_in_user.id),
        refetch=[preferences],
        on_event=lambda payload: payload.get("change") == "preferences",
    )
    return html.section(
        {"class_name": "prefs card", "aria-labelledby": "prefs-title"},
        html.h2({"id": "prefs-title", "class_name": "prefs-title"}, "What reaches you, and how"),
        html.p(
            {"class_name": "prefs-lead"},
            "In-app notifications show under the bell; turning them off mutes a category (it no longer "
            "counts in the badge). A daily digest gathers a category's e-mails into one message each morning.",
        ),
        QueryView(
            preferences,
            lambda rows: _PreferencesForm(rows, preferences, key=_version(rows)),
            loading_label="Loading your settings…",
        ),
    )


def _version(rows: tuple[PreferenceRead, ...]) -> str:
    return "".join(f"{int(r.in_app)}{int(r.email)}{int(r.digest)}" for r in rows)


def _name(row: PreferenceRead, channel: str) -> str:
    return f"{row.category.value}-{channel}"


@component
def _PreferencesForm(rows: tuple[PreferenceRead, ...], preferences: Query) -> VdomDict:
    session = use_session()
    form = use_form(
        **{_name(r, c): getattr(r, c) for r in rows for c in ("in_app", "email", "digest")},
    )
    save = use_action(
        update_notification_preferences,
        refetch=[preferences],
        on_success=lambda _rows: session.toaster.success(SAVED),
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        changes = PreferencesUpdate(
            rows=tuple(
                PreferenceUpdate(
                    category=r.category,
                    in_app=bool(form.values.get(_name(r, "in_app"))),
                    email=bool(form.values.get(_name(r, "email"))),
                    digest=bool(form.values.get(_name(r, "digest"))) and r.digest_eligible,
                )
                for r in rows
                if not r.critical
            )
        )
        await save.run(changes=changes)

    return html.form(
        {"class_name": "prefs-form", "on_submit": submit, "aria-label": "Notification settings"},
        html.table(
            {"class_name": "prefs-table"},
            html.caption({"class_name": "sr-only"}, "Notification channels by category"),
            html.thead(
                html.tr(
                    html.th({"scope": "col"}, "Category"),
                    html.th({"scope": "col"}, "In-app"),
                    html.th({"scope": "col"}, "E-mail"),
                    html.th({"scope": "col"}, "Daily digest"),
                )
            ),
            html.tbody(*(_row(row, form) for row in rows)),
        ),
        html.div(
            {"class_name": "prefs-actions"},
            Button("Save settings", type="submit", pending=save.pending, pending_label="Saving…"),
        ),
    )


def _cell(row: PreferenceRead, channel: str, label: str, form: Any, *, enabled: bool = True) -> VdomDict:
    return html.td(
        {"class_name": "prefs-cell", "data-label": label},
        Checkbox(
            f"{label} for {row.label}",
            _name(row, channel),
            form=form,
            default=getattr(row, channel),
            disabled=row.critical or not enabled,
            hide_label=True,
            id_prefix="prefs",
        ),
    )


def _row(row: PreferenceRead, form: Any) -> VdomDict:
    head: list[Any] = [
        html.span({"class_name": "prefs-label", "id": f"prefs-{row.category.value}"}, row.label),
        html.span({"class_name": "prefs-desc"}, row.description),
    ]
    if row.critical:
        head += [
            Badge("Always on", tone="info", icon="lock", class_name="prefs-lock"),
            html.span({"class_name": "prefs-reason"}, row.locked_reason),
        ]
    digest = (
        _cell(row, "digest", "Daily digest", form)
        if row.digest_eligible and not row.critical
        else html.td({"class_name": "prefs-cell prefs-none", "data-label": "Daily digest"}, "Not offered")
    )
    return html.tr(
        {"key": row.category.value, "class_name": "prefs-row" + (" is-locked" if row.critical else "")},
        html.th({"scope": "row", "class_name": "prefs-head"}, *head),
        _cell(row, "in_app", "In-app", form),
        _cell(row, "email", "E-mail", form),
        digest,
    )
