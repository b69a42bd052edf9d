"""Organizations (/staff/organizations, manage_services; issue 17 part 2): company clients and provider
agencies by name (searched, paginated, with member counts); set up a new one with its first admin (joined at
once, or invited by e-mail); open one (`?id=`) to see its members, rename it or remove a member (never its
last admin). app/services/organizations checks and audits each change."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.organizations import (
    MAX_ORG_NAME,
    create_organization_for,
    get_organization,
    list_organizations,
    rename_organization,
    staff_remove_member,
)
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Field,
    PageLinks,
    QueryView,
    SearchForm,
    Select,
    ServerForm,
    StaffCard,
    UserText,
    browser_field,
    dialog_actions,
    form_error,
    hint,
    list_href,
    member_item,
    page_param,
    staff_screen,
)
from components.staff_frame import StaffFrame, StaffSection
from models.organization import MemberRole, OrganizationKind, OrganizationPage, TeamRead

PATH = "/staff/organizations"


def _href(**params: Any) -> str:
    return list_href(PATH, **params)


@component
def OrganizationsPage() -> Component:
    return StaffFrame(StaffSection(_Organizations, slug="organizations"), active="organizations")


@component
def _Organizations() -> VdomDict:
    params = use_search_params()
    search = (params.get("q") or [""])[0][:80]
    chosen = (params.get("id") or [""])[0][:36]
    page = page_param(params)
    found = use_query(list_organizations, search=search, page=page)
    return staff_screen(
        "Organizations",
        SearchForm(
            browser_field("Name", "q", value=search, type="search", id_prefix="orgs", max_length=80),
            action=PATH,
            label="Find an organization",
            key=f"search {search}",
            class_name="form corp-row",
            actions_class="modal-actions",
        ),
        _Organization(chosen, key=chosen) if chosen else _NewOrganization(found),
        QueryView(found, lambda data: _list(data, search), loading_label="Loading organizations…"),
        lead="Company clients and provider agencies, and the people in each.",
        body_class="corp-list",
    )


def _list(data: OrganizationPage, search: str) -> VdomDict:
    if not data.items:
        return hint("No organization matches." if search else "No organizations yet.")
    return html._(
        html.ul(
            {"class_name": "corp-member-list staff-card"},
            *[
                member_item(
                    UserText(o.name),
                    f"{o.kind.label} · {o.member_count} member" + ("" if o.member_count == 1 else "s"),
                    key=o.id,
                    href=_href(q=search, id=o.id),
                )
                for o in data.items
            ],
        ),
        PageLinks(
            data.page,
            data.total,
            data.page_size,
            href=lambda n: _href(q=search, page=n),
            label="Pages of organizations",
        ),
    )


@component
def _NewOrganization(query: Query) -> Any:
    session = use_session()
    form = use_form(name="", kind=OrganizationKind.agency.value, admin_email="")
    problem, set_problem = use_state("")

    def created(team: TeamRead) -> None:
        set_problem("")
        form.reset(name="", kind=OrganizationKind.agency.value, admin_email="")
        joined = "joined" if team.members else "was invited by e-mail"
        session.toaster.success("Organization created", f"{team.organization.name}: its admin {joined}")

    create = use_action(create_organization_for, refetch=[query], on_success=created, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        await create.run(
            name=str(values.get("name", ""))[: MAX_ORG_NAME + 1],
            kind=str(values.get("kind", ""))[:16],
            admin_email=str(values.get("admin_email", ""))[:320],
        )

    return StaffCard(
        "New organization",
        hint(
            "Company clients are also created from won corporate leads. The admin joins at once if they have "
            "an account and no organization; otherwise we e-mail them an invitation."
        ),
        form_error(problem),
        ServerForm(
            Field("Name", "name", form=form, id="org-new-name", required=True, max_length=MAX_ORG_NAME),
            Select(
                "Kind",
                "kind",
                form=form,
                options=[(k.value, k.label) for k in OrganizationKind],
                id="org-new-kind",
            ),
            Field(
                "Admin's e-mail",
                "admin_email",
                form=form,
                type="email",
                id="org-new-admin",
                required=True,
                max_length=320,
            ),
            dialog_actions(Button("Create", type="submit", pending=create.pending)),
            on_submit=submit,
            class_name="corp-row",
        ),
        title_id="org-new-title",
    )


@component
def _Organization(organization_id: str) -> Any:
    query = use_query(get_organization, organization_id=organization_id)
    return QueryView(query, lambda team: _Members(team, query), loading_label="Loading the organization…")


@component
def _Members(team: TeamRead, query: Query) -> Any:
    session = use_session()
    form = use_form(name=team.organization.name)
    problem, set_problem = use_state("")

    def done(title: str) -> Any:
        def after(_result: Any) -> None:
            set_problem("")
            session.toaster.success(title, team.organization.name)

        return after

    rename = use_action(
        rename_organization, refetch=[query], on_success=done("Organization renamed"), on_error=set_problem
    )
    remove = use_action(
        staff_remove_member, refetch=[query], on_success=done("Member removed"), on_error=set_problem
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await rename.run(
            organization_id=team.organization.id,
            name=str(form.values.get("name", ""))[: MAX_ORG_NAME + 1],
        )

    return StaffCard(
        UserText(team.organization.name),
        form_error(problem),
        ServerForm(
            Field("Name", "name", form=form, id="org-name", required=True, max_length=MAX_ORG_NAME),
            dialog_actions(Button("Rename", type="submit", pending=rename.pending)),
            on_submit=submit,
            class_name="corp-row",
        ),
        html.h3(f"Members ({len(team.members)})"),
        html.ul(
            {"class_name": "corp-member-list"},
            *[
                member_item(
                    UserText(m.name),
                    m.email,
                    html.div(
                        {"class_name": "corp-actions"},
                        Badge(m.role.label, tone="info" if m.role == MemberRole.admin else "neutral"),
                        Button(
                            "Remove",
                            size="sm",
                            variant="outline",
                            disabled=remove.pending,
                            aria_label=f"Remove {m.name} from {team.organization.name}",
                            on_click=lambda m=m: remove.run(
                                organization_id=team.organization.id, user_id=m.user_id
                            ),
                        ),
                    ),
                    key=m.user_id,
                )
                for m in team.members
            ]
            or [html.li("No members.")],
        ),
        title_id="org-title",
        head=(Badge(team.organization.kind.label, tone="neutral"),),
    )
