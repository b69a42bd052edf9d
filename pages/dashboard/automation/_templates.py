"""SPEC §3's four workflow templates, each downloadable as an n8n workflow to import (the file comes from
/api/automation/templates/{id}.json: a websocket cannot hand over a file)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.automation import list_workflow_templates
from components.hooks import use_query
from components.kit import Badge, QueryView, SettingsPanel, Tone, button_link
from models.automation import WorkflowTemplateRead

TONES: dict[str, Tone] = {"easy": "success", "medium": "info", "advanced": "warning"}


@component
def TemplatesCard() -> VdomDict:
    templates = use_query(list_workflow_templates)
    return SettingsPanel(
        "Workflow templates",
        QueryView(
            templates,
            lambda rows: html.ul({"class_name": "automation-templates"}, *(_template(t) for t in rows)),
            loading_label="Loading templates…",
        ),
        lead="Import one in n8n (Workflows → Import from File), add your e-mail or SMS step and activate it. "
        "Each runs for at most an hour and saves its progress and manual executions.",
        title_id="automation-templates",
    )


def _template(template: WorkflowTemplateRead) -> VdomDict:
    return html.li(
        {"class_name": "automation-template", "key": template.id},
        html.div(
            {"class_name": "automation-template-head"},
            html.h3({"class_name": "automation-subtitle"}, template.name),
            Badge(template.difficulty.capitalize(), tone=TONES.get(template.difficulty, "neutral")),
        ),
        html.p({"class_name": "settings-text"}, template.description),
        html.p(
            {"class_name": "automation-template-meta"},
            f"{template.nodes} nodes · listens on ",
            html.code(template.webhook_path),
        ),
        button_link(
            "Download JSON",
            f"/api/automation/templates/{template.id}.json",
            variant="outline",
            size="sm",
            download=f"medivisit-{template.id}.json",
            **{"aria-label": f"Download the {template.name} workflow (JSON)"},
        ),
    )
