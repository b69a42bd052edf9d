"""SPEC §3's four workflow templates as n8n workflows to import (Workflows → Import from File): a Webhook
trigger at `/webhook/medivisit-<template>`, a filter on the event type and the template's steps, with SPEC's
workflow settings (execution timeout 3600 s, execution progress and manual executions saved).

The steps end in the message to send (a Set node with its fields): the channel (e-mail, SMS, a CRM) is the
administrator's own n8n node and credentials, added after import. Events carry ids, so a step that needs
a name or an address looks it up on the administrator's side.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.automation._access import require_administrator
from app.services.errors import NotFound
from models.automation import WorkflowTemplateRead

SETTINGS = {
    "executionOrder": "v1",
    "executionTimeout": 3600,
    "saveExecutionProgress": True,
    "saveManualExecutions": True,
}
NO_TEMPLATE = "No workflow template has this id."
_NAMESPACE = uuid.UUID("6f1d2c9e-3b57-4a86-9c0e-5d2f7a1b8e44")


@dataclass(frozen=True)
class _Step:
    name: str
    type: str
    version: float
    parameters: dict[str, Any]


def _if(name: str, event_type: str) -> _Step:
    return _Step(
        name,
        "n8n-nodes-base.if",
        1,
        {"conditions": {"string": [{"value1": "={{ $json.body.eventType }}", "value2": event_type}]}},
    )


def _wait_for(name: str, amount: int, unit: str) -> _Step:
    return _Step(name, "n8n-nodes-base.wait", 1, {"resume": "timeInterval", "amount": amount, "unit": unit})


def _message(name: str, fields: dict[str, str]) -> _Step:
    return _Step(
        name,
        "n8n-nodes-base.set",
        1,
        {
            "keepOnlySet": True,
            "values": {"string": [{"name": k, "value": v} for k, v in fields.items()]},
            "options": {},
        },
    )


@dataclass(frozen=True)
class _Template:
    id: str
    name: str
    description: str
    difficulty: str
    steps: tuple[_Step, ...]  # after the trigger, each feeding the next (an IF's "true" output)


TEMPLATES: tuple[_Template, ...] = (
    _Template(
        "appointment-reminder",
        "Appointment reminder",
        "When a visit is booked, wait until 24 hours before it starts and prepare the patient's reminder.",
        "easy",
        (
            _if("Is it a booking?", "appointment.created"),
            _Step(
                "Wait until 24 h before",
                "n8n-nodes-base.wait",
                1,
                {
                    "resume": "specificTime",
                    "dateTime": "={{ DateTime.fromISO($json.body.startsAt).minus({ hours: 24 }).toISO() }}",
                },
            ),
            _message(
                "Reminder to send",
                {
                    "appointmentId": "={{ $('MediVisit event').item.json.body.appointmentId }}",
                    "patientId": "={{ $('MediVisit event').item.json.body.patientId }}",
                    "startsAt": "={{ $('MediVisit event').item.json.body.startsAt }}",
                    "message": "Reminder: your MediVisit home visit is tomorrow.",
                },
            ),
        ),
    ),
    _Template(
        "patient-onboarding",
        "Patient onboarding",
        "Welcome each new patient, then two days later nudge those who have not completed their profile.",
        "medium",
        (
            _if("Is it a signup?", "patient.signup"),
            _message(
                "Welcome message",
                {
                    "userId": "={{ $json.body.userId }}",
                    "message": "Welcome to MediVisit! Book a licensed provider who comes to you.",
                },
            ),
            _wait_for("Wait 2 days", 2, "days"),
            _message(
                "Profile nudge",
                {
                    "userId": "={{ $('MediVisit event').item.json.body.userId }}",
                    "message": "Complete your profile so providers know how to reach you.",
                },
            ),
        ),
    ),
    _Template(
        "feedback-collection",
        "Feedback collection",
        "Two hours after a visit is completed, prepare a request for the patient's review.",
        "easy",
        (
            _if("Is the visit completed?", "appointment.completed"),
            _wait_for("Wait 2 hours", 2, "hours"),
            _message(
                "Feedback request",
                {
                    "appointmentId": "={{ $('MediVisit event').item.json.body.appointmentId }}",
                    "patientId": "={{ $('MediVisit event').item.json.body.patientId }}",
                    "message": "How was your visit? Leave a review under My Appointments.",
                },
            ),
        ),
    ),
    _Template(
        "referral-program",
        "Referral program",
        "After a patient's first completed visit, give them a personal referral code and invite them to share it.",
        "advanced",
        (
            _if("Is the visit completed?", "appointment.completed"),
            _Step(
                "Make referral code",
                "n8n-nodes-base.code",
                2,
                {
                    "mode": "runOnceForEachItem",
                    "jsCode": (
                        "const id = $json.body.patientId || '';\n"
                        "let hash = 0;\n"
                        "for (const c of id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;\n"
                        "return { json: { patientId: id, referralCode: 'MV-' + hash.toString(36).toUpperCase() } };"
                    ),
                },
            ),
            _wait_for("Wait 1 day", 1, "days"),
            _message(
                "Referral invitation",
                {
                    "patientId": "={{ $json.patientId }}",
                    "referralCode": "={{ $json.referralCode }}",
                    "message": "Share your code: friends get $20 off their first visit, you get $20 credit.",
                },
            ),
        ),
    ),
)
_BY_ID = {t.id: t for t in TEMPLATES}
TRIGGER = "MediVisit event"


def _node_id(template_id: str, name: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{template_id}/{name}"))


def workflow_json(template_id: str) -> dict[str, Any]:
    """The importable n8n workflow of one template."""
    template = _BY_ID.get(template_id)
    if template is None:
        raise NotFound(NO_TEMPLATE)
    path = f"medivisit-{template.id}"
    nodes: list[dict[str, Any]] = [
        {
            "parameters": {"httpMethod": "POST", "path": path, "responseMode": "onReceived", "options": {}},
            "id": _node_id(template.id, TRIGGER),
            "name": TRIGGER,
            "type": "n8n-nodes-base.webhook",
            "typeVersion": 1,
            "position": [240, 300],
            "webhookId": _node_id(template.id, "webhook"),
        }
    ]
    connections: dict[str, Any] = {}
    previous = TRIGGER
    for index, step in enumerate(template.steps, start=1):
        nodes.append(
            {
                "parameters": step.parameters,
                "id": _node_id(template.id, step.name),
                "name": step.name,
                "type": step.type,
                "typeVersion": step.version,
                "position": [240 + 220 * index, 300],
            }
        )
        connections[previous] = {"main": [[{"node": step.name, "type": "main", "index": 0}]]}
        previous = step.name
    return {
        "name": f"MediVisit – {template.name}",
        "nodes": nodes,
        "connections": connections,
        "active": False,
        "settings": dict(SETTINGS),
        "pinData": {},
        "meta": {"templateId": f"medivisit-{template.id}", "difficulty": template.difficulty},
        "tags": [],
    }


def _read(template: _Template) -> WorkflowTemplateRead:
    return WorkflowTemplateRead(
        id=template.id,
        name=template.name,
        description=template.description,
        difficulty=template.difficulty,
        nodes=len(template.steps) + 1,
        webhook_path=f"/webhook/medivisit-{template.id}",
    )


async def list_workflow_templates(*, session: AsyncSession, actor: Principal) -> list[WorkflowTemplateRead]:
    await require_administrator(session=session, actor=actor)
    return [_read(t) for t in TEMPLATES]


async def get_workflow_template(
    *, session: AsyncSession, actor: Principal, template_id: str
) -> dict[str, Any]:
    """The template's n8n workflow JSON (owners and admins)."""
    await require_administrator(session=session, actor=actor)
    return workflow_json((template_id or "")[:64])
