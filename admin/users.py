"""Users (/admin/users): find accounts by name or e-mail, with a role filter, 50 a page, newest first. The
search, the role and the page live in the URL (a shared link shows the same list, a reconnect keeps it);
each name opens the account (/admin/users/{id}). Administrators only (the route's guard; the service checks
again)."""

from __future__ import annotations

from urllib.parse import urlencode

from reactpy import component, html
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.admin import list_users
from components.admin_frame import admin_frame, moment_text
from components.context import use_session
from components.forms import use_form
from components.hooks import use_query
from components.kit import (
    Badge,
    Column,
    DataTable,
    Field,
    QueryView,
    SearchForm,
    Select,
    StaffCard,
    UserText,
    page_param,
)
from components.staff_frame import role_label
from models.account import Role
from models.admin import UserPageRead, UserSummaryRead

PATH = "/admin/users"


def _filters(params: dict[str, list[str]]) -> tuple[str, str]:
    query = (params.get("q") or [""])[0].strip()[:200]
    role = (params.get("role") or [""])[0]
    return query, role if role in Role.__members__ else ""


def _href(query: str, role: str, page: int = 1) -> str:
    params = {k: v for k, v in {"q": query, "role": role, "page": str(page) if page > 1 else ""}.items() if v}
    return f"{PATH}?{urlencode(params)}" if params else PATH


@component
def AdminUsersPage() -> VdomDict:
    params = use_search_params()
    query, role = _filters(params)
    page = page_param(params)
    return admin_frame(
        _SearchForm(query, role, key=_href(query, role)),
        _Results(query, role, page),
        active="users",
        title="Users",
        lead="Find an account by name or e-mail to change its role, its VIP and free-access flags, disable it "
        "or sign it out everywhere.",
    )


@component
def _SearchForm(query: str, role: str) -> VdomDict:
    # Submitting navigates (the fields land in the URL); the URL's filters key the form, so Clear, Back
    # and a shared link show their own values.
    form = use_form(q=query, role=role)
    return SearchForm(
        Field(
            "Name or e-mail",
            "q",
            form=form,
            id="users-q",
            type="search",
            max_length=200,
            placeholder="e.g. Jordan or @example.com",
            class_name="admin-search-field",
        ),
        Select(
            "Role",
            "role",
            form=form,
            id="users-role",
            placeholder="All roles",
            options=[(r.value, role_label(r)) for r in Role],
            class_name="admin-search-role",
        ),
        action=PATH,
        label="Search users",
        key=_href(query, role),
        clear_href=PATH if query or role else None,
        class_name="form admin-search",
        actions_class="admin-search-actions",
    )


@component
def _Results(query: str, role: str, page: int) -> VdomDict:
    session = use_session()
    users = use_query(list_users, query=query, role=role or None, page=page)
    return QueryView(
        users,
        lambda data: _table(data, query, role, session.time_zone),
        is_empty=lambda data: data is None,
        loading_label="Loading accounts…",
    )


def _name_cell(user: UserSummaryRead) -> VdomDict:
    return html.div(
        {"class_name": "admin-user-cell"},
        html.a({"href": f"{PATH}/{user.id}", "class_name": "admin-user-name"}, UserText(user.name)),
        html.span({"class_name": "admin-user-email"}, user.email or "No e-mail address"),
    )


def _role_cell(user: UserSummaryRead) -> VdomDict:
    return html.span(
        {"class_name": "admin-badges"},
        Badge(role_label(user.role), tone="info" if user.role in (Role.owner, Role.admin) else "neutral"),
        Badge("Master admin", tone="info") if user.is_master_admin else "",
    )


def _table(data: UserPageRead, query: str, role: str, time_zone: str) -> VdomDict:
    found = f"{data.total} account{'s' if data.total != 1 else ''}"
    columns = (
        Column("name", "Name", render=_name_cell),
        Column("role", "Role", render=_role_cell),
        Column("created", "Joined", render=lambda u: moment_text(u.created_at, time_zone)),
        Column("last", "Last sign-in", render=lambda u: moment_text(u.last_sign_in_at, time_zone)),
        Column(
            "status",
            "Status",
            render=lambda u: (
                Badge("Disabled", tone="danger") if u.disabled else Badge("Active", tone="success")
            ),
        ),
    )
    return StaffCard(
        "Accounts",
        DataTable(
            columns,
            data.users,
            caption="Accounts",
            page=data.page,
            page_size=data.page_size,
            total=data.total,
            page_href=lambda n: _href(query, role, n),
            row_key=lambda u: u.id,
            empty="No account matches this search." if query or role else "There are no accounts yet.",
            class_name="staff-table admin-users-table",
        ),
        title_id="users-title",
        head=(html.span({"class_name": "portal-pill", "role": "status"}, found),),
    )
