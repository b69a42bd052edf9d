"""The text of a Markdown article being written (the staff handbook's and the help center's editors): Write
and Preview tabs, the preview rendered and sanitised by the same code that shows the article."""

from __future__ import annotations

from collections.abc import Callable

from reactpy import html
from reactpy.types import Component, VdomDict

from app.services.handbook import render_markdown
from components.forms import Form
from components.kit import TabPanel, Tabs, TextArea


def markdown_body(
    form: Form,
    tab: str,
    set_tab: Callable[[str], None],
    *,
    id: str,
    max_length: int,
    label: str = "Article text",
    rows: int = 14,
) -> VdomDict:
    """The form's `body` field under Write / Preview tabs (`tab` is the one shown); ids start with `id`;
    `label` names the tab list (the text area is "Text (Markdown)")."""
    return html._(
        Tabs(
            (("write", "Write"), ("preview", "Preview")),
            tab,
            label=label,
            on_select=set_tab,
            id=f"{id}-body",
        ),
        TabPanel(
            tab,
            _write(form, id, max_length, rows)
            if tab == "write"
            else _preview(str(form.values.get("body", ""))),
            id=f"{id}-body",
        ),
    )


def _write(form: Form, id: str, max_length: int, rows: int) -> Component:
    return TextArea(
        "Text (Markdown)",
        "body",
        form=form,
        id=f"{id}-text",
        rows=rows,
        required=True,
        max_length=max_length,
        spell_check=True,
    )


def _preview(body: str) -> VdomDict:
    if not body.strip():
        return html.p({"class_name": "text-muted"}, "Nothing to preview yet.")
    return html.div(
        {"class_name": "handbook-preview prose", "dangerouslySetInnerHTML": {"__html": render_markdown(body)}}
    )
