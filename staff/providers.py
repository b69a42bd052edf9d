"""Provider Management (/staff/providers, manage_providers): every provider with standing, type, rating,
completed visits and nearest licence expiry, searched by name and filtered by standing, type and state (the
filters and page live in the URL); a provider's page (/staff/providers/<id>) with its profile, licences,
documents, visit summary and standing, suspend and reinstate (each with a reason), and the audit of every
decision for those who hold view_provider_logs. The rules are app.services.providers'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlencode

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
    QueryView,
    Select,
    StaffCard,
    StatCard,
    TextArea,
    Tone,
    UserText,
    bullets,
    dialog_actions,
    facts,
    filter_form,
    pager,
    pill,
    staff_screen,
    stat_group,
)
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


@dataclass(frozen=True)
class Filters:
    """The list's filters as the URL carries them (unknown values dropped)."""

    search: str = ""
    standing: str = ""
    provider_type: str = ""
    state: str = ""
    page: int = 1

    @classmethod
    def from_params(cls, params: dict[str, list[str]]) -> Filters:
        def first(name: str, limit: int) -> str:
            return " ".join((params.get(name) or [""])[0].split())[:limit]

        standing, kind = first("status", 20), first("type", 40)
        state = first("state", 2).upper()
        page = first("page", 5)
        return cls(
            search=first("q", MAX_SEARCH),
            standing=standing if standing in ProviderStanding.__members__ else "",
            provider_type=kind if kind in {t.value for t in ProviderType} else "",
            state=state if state.isalpha() and len(state) == 2 else "",
            page=int(page) if page.isdigit() and 0 < int(page) <= 10_000 else 1,
        )

    def query(self) -> ManagedProviderQuery:
        return ManagedProviderQuery(
            search=self.search,
            standing=ProviderStanding(self.standing) if self.standing else None,
            provider_type=ProviderType(self.provider_type) if self.provider_type else None,
            state=self.state,
            page=self.page,
        )

    def href(self, **changes: object) -> str:
        values = {"q": self.search, "status": self.standing, "type": self.provider_type, "state": self.state}
        values["page"] = str(changes.pop("page", self.page))
        values |= {k: str(v) for k, v in changes.items()}
        query = urlencode({k: v for k, v in values.items() if v and not (k == "page" and v == "1")})
        return f"{PATH}?{query}" if query else PATH


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
    params = use_search_params()
    filters = Filters.from_params(params)
    return staff_screen(
        "Provider Management",
        _FilterForm(filters, key=filters.href(page=1)),
        _List(filters),
        lead="Every provider, their standing and credentials. Open one to see its licences, documents and "
        "visits, or to suspend or reinstate it.",
    )


@component
def _FilterForm(filters: Filters) -> VdomDict:
    form = use_form(
        q=filters.search, status=filters.standing, type=filters.provider_type, state=filters.state
    )
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
        key=filters.href(page=1),
    )


@component
def _List(filters: Filters) -> VdomDict:
    query = use_query(list_managed_providers, query=filters.query())
    use_topic(PROVIDERS_TOPIC, refetch=[query])
    return QueryView(query, lambda page: list_section(page, filters), loading_label="Loading providers…")


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


def list_section(page: ManagedProviderPage, filters: Filters) -> VdomDict:
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
        pager(
            "Provider pages",
            previous=filters.href(page=page.page - 1) if page.page > 1 else None,
            following=filters.href(page=page.page + 1) if page.has_next else None,
        ),
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
