"""Unknown paths (/admin/not-found): the paths visitors asked for that the site does not have (the 404
counter), most requested first, 50 a page — broken links to fix or redirects to add."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.admin import list_unknown_paths
from components.admin_frame import admin_frame, moment_text
from components.context import use_session
from components.hooks import use_query
from components.kit import Column, DataTable, QueryView, StaffCard, page_param
from models.admin import UnknownPathPageRead

PATH = "/admin/not-found"


@component
def AdminNotFoundPage() -> VdomDict:
    return admin_frame(
        _Paths(page_param(use_search_params())),
        active="not-found",
        title="Unknown paths",
        lead="Addresses visitors asked for that the site does not have, most requested first: a broken link "
        "somewhere, or a page people expect.",
    )


@component
def _Paths(page: int) -> VdomDict:
    session = use_session()
    paths = use_query(list_unknown_paths, page=page)

    def table(data: UnknownPathPageRead) -> VdomDict:
        tz = session.time_zone
        columns = (
            Column("path", "Path", render=lambda p: html.code({"class_name": "admin-path"}, p.path)),
            Column("hits", "Requests", render=lambda p: f"{p.hits:,}", numeric=True),
            Column("first", "First seen", render=lambda p: moment_text(p.first_seen, tz)),
            Column("last", "Last seen", render=lambda p: moment_text(p.last_seen, tz)),
        )
        return StaffCard(
            "Counted paths",
            DataTable(
                columns,
                data.paths,
                caption="Counted paths",
                page=data.page,
                page_size=data.page_size,
                total=data.total,
                page_href=lambda n: f"{PATH}?page={n}" if n > 1 else PATH,
                row_key=lambda p: p.path,
                empty="No unknown path has been requested.",
                class_name="staff-table admin-paths-table",
            ),
            title_id="paths-title",
            head=(
                html.span(
                    {"class_name": "portal-pill"}, f"{data.total} path{'s' if data.total != 1 else ''}"
                ),
            ),
        )

    return QueryView(paths, table, is_empty=lambda d: d is None, loading_label="Loading unknown paths…")
