"""Provider Management (/staff/providers, manage_providers): every provider with standing, type, rating,
completed visits and nearest licence expiry, searched by name and filtered by standing, type and state (the
filters and page live in the URL); a provider's page (/staff/providers/<id>) with its profile, licences,
documents, visit summary and standing, suspend and reinstate (each with a reason), and the audit of every
decision for those who hold view_provider_logs. The rules are app.services.providers'.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_params, use_search_params

from app.services.enrollment import (
    PROVIDERS_TOPIC,
    get_managed_provider,
    list_managed_providers,
    list_provider_audit,
    reinstate_provider,
    suspend_provider,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    Dialog,
    Field,
    ListQuery,
    QueryView,
    Select,
    StaffCard,
    StatCard,
    TextArea,
    Tone,
    UserText,
    bullets,
    choice_param,
    dialog_actions,
    facts,
    filter_form,
    page_param,
    pill,
    staff_screen,
    stat_group,
    text_param,
)
from components.kit.list_screen import MorePages
from components.staff_frame import StaffFrame, StaffSection, use_staff_permissions
from models.enrollment import DocumentRead, DocumentStanding, LicenseRead
from models.provider import ProviderType
from models.staff import Permission
from models.standing import (
    MANAGED_PAGE_SIZE,
    MAX_REASON,
    MAX_SEARCH,
    ManagedProvider,
    ManagedProviderPage,
    ManagedProviderQuery,
    ManagedProviderRow,
    ProviderAuditEntry,
    ProviderStanding,
)

PATH = "/staff/providers"
STANDING_TONES: dict[ProviderStanding, Tone] = {
    ProviderStanding.listed: "success",
    ProviderStanding.suspended: "danger",
    ProviderStanding.lapsed: "warning",
    ProviderStanding.unverified: "neutral",
    ProviderStanding.inactive: "neutral",
}
DOCUMENT_TONES: dict[DocumentStanding, Tone] = {
    DocumentStanding.approved: "success",
    DocumentStanding.pending: "info",
    DocumentStanding.rejected: "danger",
    DocumentStanding.expiring: "warning",
    DocumentStanding.expired: "danger",
}
SUSPENDED, REINSTATED = "Provider suspended", "Provider reinstated"


def providers_query(params: dict[str, list[str]]) -> tuple[ListQuery, int]:
    """The list's filters (name, standing, type, licence state) and its page as the URL carries them
    (unknown values dropped)."""
    state = text_param(params, "state", limit=2, squash=True).upper()
    filters = {
        "q": text_param(params, "q", limit=MAX_SEARCH, squash=True),
        "status": choice_param(params, "status", ProviderStanding.__members__),
        "type": choice_param(params, "type", {t.value for t in ProviderType}),
        "state": state if state.isalpha() and len(state) == 2 else "",
    }
    return ListQuery(PATH, filters), page_param(params)


def managed_query(url: ListQuery, page: int) -> ManagedProviderQuery:
    """What the service lists for these filters."""
    standing, kind = url.filters["status"], url.filters["type"]
    return ManagedProviderQuery(
        search=url.filters["q"],
        standing=ProviderStanding(standing) if standing else None,
        provider_type=ProviderType(kind) if kind else None,
        state=url.filters["state"],
        page=page,
    )


def standing_badge(standing: ProviderStanding) -> VdomDict:
    return Badge(standing.label, tone=STANDING_TONES[standing])


def expiry_text(day: date | None) -> str:
    return format_date(day) if day else "None valid"


# ---- the list --------------------------------------------------------------------------------------------
@component
def ProvidersPage() -> Component:
    return StaffFrame(StaffSection(_Providers, slug="providers"), active="providers")


@component
def _Providers() -> VdomDict:
    url, page = providers_query(use_search_params())
    return staff_screen(
        "Provider Management",
        _FilterForm(url, key=url.href()),
        _List(url, page),
        lead="Every provider, their standing and credentials. Open one to see its licences, documents and "
        "visits, or to suspend or reinstate it.",
    )


@component
def _FilterForm(url: ListQuery) -> VdomDict:
    form = use_form(**url.filters)
    return filter_form(
        Field(
            "Name",
            "q",
            form=form,
            id="providers-search",
            type="search",
            max_length=MAX_SEARCH,
            placeholder="First or last name",
            class_name="team-field",
        ),
        Select(
            "Status",
            "status",
            form=form,
            id="providers-status",
            placeholder="Any status",
            options=[(s.value, s.label) for s in ProviderStanding],
            class_name="team-field",
        ),
        Select(
            "Type",
            "type",
            form=form,
            id="providers-type",
            placeholder="Any type",
            options=[(t.value, t.label) for t in ProviderType],
            class_name="team-field",
        ),
        Field(
            "Licence state",
            "state",
            form=form,
            id="providers-state",
            max_length=2,
            placeholder="e.g. NY",
            autocomplete="off",
            class_name="team-field providers-state",
        ),
        action=PATH,
        label="Find providers",
        class_name="form audit-filters provider-filters",
        clear_href=PATH,
        key=url.href(),
    )


@component
def _List(url: ListQuery, page: int) -> VdomDict:
    query = use_query(list_managed_providers, query=managed_query(url, page))
    use_topic(PROVIDERS_TOPIC, refetch=[query])
    return QueryView(query, lambda data: list_section(data, url), loading_label="Loading providers…")


def provider_columns() -> tuple[Column, ...]:
    return (
        Column(
            "name",
            "Name",
            render=lambda r: html.a(
                {"class_name": "provider-link", "href": f"{PATH}/{r.id}"}, UserText(r.name)
            ),
        ),
        Column("type", "Type", render=lambda r: r.provider_type.label),
        Column("status", "Status", render=lambda r: standing_badge(r.standing)),
        Column(
            "rating",
            "Rating",
            render=lambda r: f"{r.rating:.1f} ({r.review_count})" if r.review_count else "No reviews",
        ),
        Column("visits", "Visits", render=lambda r: str(r.visits)),
        Column("expiry", "Licence expires", render=lambda r: expiry_text(r.nearest_expiry)),
        Column("state", "State", render=lambda r: r.license_state or "—"),
    )


def list_section(page: ManagedProviderPage, url: ListQuery) -> VdomDict:
    count = f"{page.total:,}{'+' if page.more else ''}"
    return StaffCard(
        "Providers",
        DataTable(
            provider_columns(),
            page.items,
            caption="Providers",
            page_size=MANAGED_PAGE_SIZE,
            row_key=lambda r: r.id,
            row_class=row_class,
            empty="No provider matches these filters.",
            class_name="staff-table providers-table",
        ),
        MorePages(page.page, page.has_next, href=url.page_href, label="Provider pages"),
        title_id="providers-title",
        head=(pill(count),),
    )


def row_class(row: ManagedProviderRow) -> str:
    return "" if row.standing == ProviderStanding.listed else "provider-unlisted"


# ---- one provider ----------------------------------------------------------------------------------------
@component
def ProviderPage() -> Component:
    return StaffFrame(StaffSection(_Provider, slug="providers"), active="providers")


@component
def _Provider() -> VdomDict:
    provider_id = use_params().get("provider_id", "")[:36]
    query = use_query(get_managed_provider, provider_id=provider_id)
    use_topic(
        PROVIDERS_TOPIC, refetch=[query], on_event=lambda payload: payload.get("provider_id") == provider_id
    )
    data = query.data
    audit = Permission.view_provider_logs in use_staff_permissions()
    return staff_screen(
        UserText(data.name) if data else "Provider",
        QueryView(
            query,
            lambda provider: provider_view(provider, query.refetch, audit),
            loading_label="Loading…",
        ),
        lead=f"{data.provider_type.label} · {data.email or 'no account'}" if data else None,
        eyebrow=html.a({"href": PATH}, "Provider Management"),
        header=(standing_badge(data.standing) if data else "",),
    )


def provider_view(p: ManagedProvider, changed: Callable[[], None], audit: bool) -> VdomDict:
    return html._(
        _Standing(p, changed, key=f"{p.id}-{p.standing.value}"),
        stat_group(
            StatCard("Completed visits", str(p.visits.completed), key="completed"),
            StatCard(
                "Visits ahead",
                str(p.visits.upcoming),
                hint=f"Next {format_date(p.visits.next_visit_at)}"
                if p.visits.next_visit_at
                else "None booked",
                key="upcoming",
            ),
            StatCard("Cancelled", str(p.visits.cancelled), key="cancelled"),
            StatCard(
                "Rating",
                f"{p.rating:.1f}" if p.review_count else "—",
                hint=f"{p.review_count} review(s)",
                key="rating",
            ),
            label="Visits",
            class_name="provider-stats",
        ),
        profile_section(p),
        licences_section(p.licenses),
        documents_section(p.documents),
        _Audit(p.id, key=p.id) if audit else "",
    )


def profile_section(p: ManagedProvider) -> VdomDict:
    def row(label: str, value: object) -> tuple[str, object]:
        return label, value or "—"

    return StaffCard(
        "Profile",
        facts(
            row("Verified", "Yes" if p.is_verified else "No"),
            row("Active", "Yes" if p.is_active else "No"),
            row("Languages", ", ".join(p.languages)),
            row("Time zone", p.time_zone.replace("_", " ")),
            row("Services", ", ".join(p.services)),
            row("ZIP codes", ", ".join(p.zip_codes)),
            row(
                "Application",
                p.application_status.label if p.application_status else "None on record",
            ),
            class_name="provider-facts",
        ),
        UserText(p.bio, tag="p", class_name="provider-bio") if p.bio else "",
        title_id="profile-title",
    )


def licences_section(licences: list[LicenseRead]) -> VdomDict:
    today = date.today()
    columns = (
        Column("type", "Licence", render=lambda x: x.license_type),
        Column("state", "State", render=lambda x: x.state),
        Column("number", "Number", render=lambda x: x.number),
        Column(
            "expires",
            "Expires",
            render=lambda x: html._(
                format_date(x.expires_on),
                " ",
                Badge("Expired", tone="danger") if x.expires_on < today else "",
            ),
        ),
    )
    return StaffCard(
        "Licences",
        DataTable(
            columns, licences, caption="Licences", row_key=lambda x: x.id, empty="No licence on record."
        ),
        title_id="licences-title",
    )


def documents_section(documents: list[DocumentRead]) -> VdomDict:
    columns = (
        Column("kind", "Document", render=lambda d: d.kind.label),
        Column("file", "File", render=lambda d: UserText(d.filename)),
        Column(
            "expires", "Expires", render=lambda d: format_date(d.expires_on) if d.expires_on else "No expiry"
        ),
        Column(
            "status",
            "Status",
            render=lambda d: Badge(d.standing.value.capitalize(), tone=DOCUMENT_TONES[d.standing]),
        ),
    )
    return StaffCard(
        "Documents",
        DataTable(
            columns, documents, caption="Documents", row_key=lambda d: d.id, empty="No documents uploaded."
        ),
        title_id="documents-title",
    )


@component
def _Standing(p: ManagedProvider, changed: Callable[[], None]) -> VdomDict:
    session = use_session()
    dialog, set_dialog = use_state(False)
    suspended = p.suspended_at is not None
    form = use_form(reason="")
    action = use_action(reinstate_provider if suspended else suspend_provider)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        done = await action.run(provider_id=p.id, reason=form.values.get("reason", ""))
        if done is not None:
            if suspended:
                session.toaster.success(REINSTATED, f"{p.name} is back in search and can be booked.")
            else:
                told = (
                    f" {done.patients_told} patient(s) with visits ahead were told."
                    if done.upcoming_visits
                    else ""
                )
                session.toaster.success(SUSPENDED, f"{p.name} is hidden and can't be booked.{told}")
            form.reset(reason="")  # the next decision starts with an empty reason
            set_dialog(False)
            changed()

    verb = "Reinstate" if suspended else "Suspend"
    facts = []
    if p.suspended_at is not None:
        facts.append(f"Suspended on {format_date(p.suspended_at)}: {p.suspension_reason}")
    if p.credentials_lapsed_at:
        facts.append(f"Credentials lapsed on {format_date(p.credentials_lapsed_at)}.")
    facts += p.standing_problems
    return StaffCard(
        "Standing",
        bullets(facts, class_name="provider-standing")
        if facts
        else html.p({"class_name": "staff-card-lead"}, "In good standing: listed in search and bookable."),
        Dialog(
            f"{verb} {p.name}",
            html.form(
                {"class_name": "form", "on_submit": submit},
                TextArea(
                    "Reason (kept in the audit log)",
                    "reason",
                    form=form,
                    id="standing-reason",
                    rows=3,
                    required=True,
                    max_length=MAX_REASON,
                ),
                dialog_actions(
                    Button(
                        "Cancel", variant="ghost", on_click=lambda: set_dialog(False), disabled=action.pending
                    ),
                    Button(verb, type="submit", pending=action.pending, pending_label=f"{verb}ing…"),
                ),
            ),
            open=dialog,
            on_close=lambda: set_dialog(False),
            id="standing-dialog",
            busy=action.pending,
            description=(
                "The provider returns to search and can be booked again (unless their credentials have lapsed)."
                if suspended
                else f"The provider disappears from search and can't be booked. The patients of the "
                f"{p.visits.upcoming} visit(s) ahead are told, and the staff are asked to rearrange them."
            ),
        ),
        title_id="standing-title",
        head=(
            Button(
                f"{verb} provider",
                variant="outline" if suspended else "danger",
                icon="check" if suspended else "lock",
                on_click=lambda: set_dialog(True),
            ),
        ),
    )


@component
def _Audit(provider_id: str) -> VdomDict:
    query = use_query(list_provider_audit, provider_id=provider_id)
    use_topic(
        PROVIDERS_TOPIC, refetch=[query], on_event=lambda payload: payload.get("provider_id") == provider_id
    )
    return StaffCard(
        "Decisions (audit)",
        QueryView(query, audit_table, is_empty=lambda rows: rows is None, loading_label="Loading the audit…"),
        title_id="audit-title",
    )


def audit_table(entries: list[ProviderAuditEntry]) -> VdomDict:
    columns = (
        Column("when", "When", render=lambda e: format_date(e.at)),
        Column("what", "Decision", render=lambda e: e.action),
        Column("who", "By", render=lambda e: e.actor),
        Column("why", "Reason", render=lambda e: UserText(e.reason) if e.reason else "—"),
    )
    return DataTable(
        columns,
        entries,
        caption="Decisions about this provider",
        row_key=lambda e: f"{e.at.isoformat()}-{e.action}",
        empty="No decisions recorded yet.",
    )
