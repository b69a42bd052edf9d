"""Provider enrollment (/provider-enrollment, signed in): the applicant's resumable wizard and status page.

Five steps (who you are, credentials, what you offer, documents, review and submit), each saved on its own
by the enrollment domain; the wizard opens at the first step not saved yet, so leaving half-way and coming
back (or a reconnect) resumes there. Typing is kept in drafts (`use_form(draft=…)`) until a step is saved.
A step sent with mistakes shows the error summary, each line linked to its field. Documents go to
/api/enrollment/documents from the browser (static/js/uploads.js) with their kind and dates. Once sent,
the page shows the application's status: submitted, in review, needs information (the reviewer's reasons,
what to fix, and the wizard again), approved, rejected (reasons, and when to apply again).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from reactpy import component, html, use_state
from reactpy.types import Component, State, VdomDict

from app.principal import Principal
from app.services.catalog import list_catalog
from app.services.enrollment import (
    STATE_CODES,
    StepInvalid,
    completeness_errors,
    get_my_application,
    has_npi,
    list_decision_reasons,
    remove_document,
    remove_photo,
    save_credentials,
    save_identity,
    save_offering,
    start_application,
    status_summary,
    submit_application,
    withdraw_application,
)
from app.settings import get_settings
from components import browser
from components.forms import Form, use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Checkbox,
    ErrorSummary,
    Field,
    QueryView,
    Region,
    Select,
    TextArea,
    button_link,
    button_row,
    facts,
    field_group,
    field_ids,
    file_button,
    file_input,
    notice,
    public_page,
    section,
    titled_card,
    upload_receiver,
)
from models.enrollment import (
    EDITABLE_STATUSES,
    ApplicationRead,
    ApplicationStatus,
    CredentialsUpdate,
    DocumentKind,
    HoursCreate,
    IdentityUpdate,
    LicenseCreate,
    OfferCreate,
    OfferingUpdate,
    WizardStep,
)
from models.provider import ProviderType

PREFIX = "enroll"
DOCUMENT_ACCEPT = ".pdf,.png,.jpg,.jpeg,.webp"
TIME_ZONES = (
    ("America/New_York", "Eastern"),
    ("America/Chicago", "Central"),
    ("America/Denver", "Mountain"),
    ("America/Phoenix", "Arizona"),
    ("America/Los_Angeles", "Pacific"),
    ("America/Anchorage", "Alaska"),
    ("Pacific/Honolulu", "Hawaii"),
    ("America/Puerto_Rico", "Atlantic (Puerto Rico)"),
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_LICENSE_ROWS = 5


def fid(name: str) -> str:
    return field_ids(name, id_prefix=PREFIX)[0]


def _hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _minute(text: str) -> int:
    hours, _, minutes = (text or "").partition(":")
    try:
        return min(1440, int(hours) * 60 + int(minutes or 0))
    except ValueError:
        return -1


async def attempt(
    *, session: Any, actor: Principal, fn: Callable[..., Awaitable[Any]], **kwargs: Any
) -> dict:
    """Run a step's command; its field errors come back as data (the summary lists them) instead of a toast."""
    try:
        return {"ok": await fn(session=session, actor=actor, **kwargs)}
    except StepInvalid as exc:
        return {"errors": exc.errors}


# ---- the page -----------------------------------------------------------------------------------------------
@component
def ProviderEnrollmentPage() -> VdomDict:
    application = use_query(get_my_application)
    return public_page(
        "Provider Enrollment",
        section(
            QueryView(
                application,
                lambda data: _Application(data, application.refetch),
                empty=_Start(application.refetch),
            )
        ),
        lead="Apply to see patients with MediVisit. Your application is saved at every step: you can stop and "
        "come back at any time.",
        eyebrow="For providers",
    )


@component
def _Start(reload: Callable[[], None]) -> VdomDict:
    start = use_action(start_application, on_success=lambda _a: reload())
    return titled_card(
        "Apply as a provider",
        html.p(
            "You will need your legal name, your NPI (if your profession has one), your licences, the services "
            "you offer with your prices, the ZIP codes you travel to, your weekly hours, and a scan or photo of "
            "your licence, a government ID, your malpractice insurance and your CPR/BLS certificate."
        ),
        Button(
            "Start my application",
            on_click=lambda: start.run(),
            pending=start.pending,
            icon="arrow-right",
        ),
        class_name="enroll-start",
    )


def _first_open_step(app: ApplicationRead) -> WizardStep:
    return WizardStep(min(app.step + 1, int(WizardStep.review)))


@component
def _Application(app: ApplicationRead, reload: Callable[[], None]) -> VdomDict:
    reasons = use_query(list_decision_reasons)
    step, set_step = use_state(lambda: _first_open_step(app))
    summary = status_summary(app, {r.code: r for r in reasons.data or []}, datetime.now(UTC))
    withdraw = use_action(withdraw_application, on_success=lambda _a: reload())
    header = html.div(
        {
            "class_name": f"enroll-status notice notice-{summary.tone}",
            "role": "status",
            "id": "enroll-status",
        },
        html.div(
            html.p({"class_name": "enroll-status-title"}, html.strong("Status: "), summary.title),
            html.p(summary.text),
            html.ul(
                {"class_name": "enroll-reasons"},
                *(
                    html.li({"key": label}, html.strong(label), html.br(), advice)
                    if advice
                    else html.li({"key": label}, label)
                    for label, advice in summary.reasons
                ),
            )
            if summary.reasons
            else "",
            html.p(
                {"class_name": "enroll-message"}, html.strong("Message from our reviewer: "), summary.message
            )
            if summary.message
            else "",
        ),
    )
    if app.status not in EDITABLE_STATUSES:
        actions: VdomDict | Component | str = (
            Button(
                "Take back to edit",
                variant="outline",
                on_click=lambda: withdraw.run(),
                pending=withdraw.pending,
            )
            if app.status == ApplicationStatus.submitted
            else ""
        )
        if app.status == ApplicationStatus.approved:
            actions = button_link("Go to my services", "/dashboard/services")
        elif app.status == ApplicationStatus.rejected:
            actions = (
                _Reapply(reload)
                if summary.reapply_after is None or summary.reapply_after <= datetime.now(UTC)
                else ""
            )
        return html.div({"class_name": "enroll"}, header, _Recap(app), button_row(actions))

    def go(to: WizardStep) -> Callable[[], None]:
        def open_step() -> None:
            if to == WizardStep.review:
                # The review lists what is missing from the application as stored: read it again, in case a
                # change (an upload the browser posted) has not reached this tab's copy yet.
                reload()
            set_step(to)

        return open_step

    def saved(_app: ApplicationRead) -> None:
        reload()
        set_step(WizardStep(min(int(step) + 1, int(WizardStep.review))))

    steps = html.nav(
        {"class_name": "enroll-stepper", "aria-label": "Application steps"},
        html.ol(
            *(
                html.li(
                    {
                        "key": s.name,
                        "class_name": "enroll-stepper-item" + (" is-done" if app.step >= s else ""),
                    },
                    html.button(
                        {
                            "type": "button",
                            "class_name": "enroll-stepper-button",
                            "aria-current": "step" if s == step else None,
                            "disabled": s > _first_open_step(app) and s > step,
                            "on_click": lambda _e, s=s: set_step(s),
                        },
                        html.span(
                            {"class_name": "enroll-stepper-number", "aria-hidden": "true"}, str(int(s))
                        ),
                        html.span(
                            {"class_name": "enroll-stepper-label"},
                            s.label,
                            html.span({"class_name": "sr-only"}, " (saved)") if app.step >= s else "",
                        ),
                    ),
                )
                for s in WizardStep
            )
        ),
    )
    body = {
        WizardStep.identity: lambda: _Identity(app, saved, reload),
        WizardStep.credentials: lambda: _Credentials(app, saved),
        WizardStep.offering: lambda: _Offering(app, saved),
        WizardStep.documents: lambda: _Documents(app, reload, go(WizardStep.review)),
        WizardStep.review: lambda: _Review(app, reload, go),
    }[step]()
    return html.div({"class_name": "enroll"}, header, steps, html.div({"key": step.name}, body))


@component
def _Reapply(reload: Callable[[], None]) -> VdomDict:
    start = use_action(start_application, on_success=lambda _a: reload())
    return Button("Apply again", on_click=lambda: start.run(), pending=start.pending)


# ---- a step's frame -----------------------------------------------------------------------------------------
def _errors_of(errors: dict[str, str], order: list[str]) -> list[tuple[str | None, str]]:
    ranked = sorted(errors.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return [(fid(name), message) for name, message in ranked]


def _step_form(
    title: str, lead: str, errors: list, attempt_no: int, *children: Any, actions: Any
) -> VdomDict:
    return titled_card(
        title,
        ErrorSummary(errors, attempt=attempt_no, id="enroll-errors"),
        *children,
        lead=lead,
        actions=(actions,),
        actions_class="enroll-actions",
        class_name="enroll-step-card",
        tag="form",
        title_id="enroll-step-title",
        on_submit=lambda _e: None,
        novalidate=True,
    )


def use_step(
    fn: Callable[..., Awaitable[Any]], on_saved: Callable[[ApplicationRead], None], form: Form
) -> tuple[dict[str, str], int, Callable[..., Awaitable[None]], bool]:
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    attempts, set_attempts = use_state(0)

    def done(result: dict) -> None:
        if "errors" in result:
            set_errors(result["errors"])
            set_attempts(lambda n: n + 1)
        else:
            set_errors({})
            form.discard_draft()
            on_saved(result["ok"])

    action = use_action(attempt, on_success=done)

    async def send(**kwargs: Any) -> None:
        await action.run(fn=fn, **kwargs)

    return errors, attempts, send, action.pending


# ---- step 1 ---------------------------------------------------------------------------------------------------
IDENTITY_ORDER = ["first_name", "last_name", "provider_type", "phone", "languages", "bio"]


@component
def _Identity(
    app: ApplicationRead, on_saved: Callable[[ApplicationRead], None], reload: Callable[[], None]
) -> VdomDict:
    form = use_form(
        draft=f"enrollment:identity:{app.id}",
        first_name=app.first_name,
        last_name=app.last_name,
        provider_type=app.provider_type.value if app.provider_type else "",
        phone=app.phone,
        languages=", ".join(app.languages),
        bio=app.bio,
    )
    errors, attempts, send, pending = use_step(save_identity, on_saved, form)

    async def save() -> None:
        v = form.values
        await send(
            update=IdentityUpdate(
                first_name=str(v.get("first_name", ""))[:200],
                last_name=str(v.get("last_name", ""))[:200],
                provider_type=str(v.get("provider_type", ""))[:40],
                phone=str(v.get("phone", ""))[:64],
                languages=[x for x in str(v.get("languages", ""))[:500].split(",") if x.strip()][:10],
                bio=str(v.get("bio", ""))[:4000],
            )
        )

    e = errors.get
    return _step_form(
        "Who you are",
        "Your legal name as it appears on your licence, what you do, and how we reach you.",
        _errors_of(errors, IDENTITY_ORDER),
        attempts,
        html.div(
            {"class_name": "form-grid"},
            Field(
                "Legal first name",
                "first_name",
                form=form,
                error=e("first_name"),
                required=True,
                max_length=80,
                autocomplete="given-name",
                id_prefix=PREFIX,
            ),
            Field(
                "Legal last name",
                "last_name",
                form=form,
                error=e("last_name"),
                required=True,
                max_length=80,
                autocomplete="family-name",
                id_prefix=PREFIX,
            ),
        ),
        Select(
            "Provider type",
            "provider_type",
            form=form,
            placeholder="Choose…",
            error=e("provider_type"),
            required=True,
            options=[(t.value, t.label) for t in ProviderType],
            id_prefix=PREFIX,
        ),
        Field(
            "Mobile phone",
            "phone",
            form=form,
            type="tel",
            error=e("phone"),
            required=True,
            max_length=64,
            autocomplete="tel",
            hint="We call or text you about your application.",
            id_prefix=PREFIX,
        ),
        Field(
            "Languages you speak",
            "languages",
            form=form,
            error=e("languages"),
            max_length=500,
            hint="Separated by commas, e.g. English, Spanish.",
            id_prefix=PREFIX,
        ),
        TextArea(
            "About you (shown to patients)",
            "bio",
            form=form,
            error=e("bio"),
            max_length=2000,
            id_prefix=PREFIX,
        ),
        _Photo(app, reload),
        actions=Button("Save and continue", on_click=save, pending=pending, icon="arrow-right"),
    )


@component
def _Photo(app: ApplicationRead, reload: Callable[[], None]) -> VdomDict:
    """The photo patients will see (optional): uploaded on its own, at once (the browser posts the file)."""
    remove = use_action(remove_photo, on_success=lambda _a: reload())
    ids = f"{PREFIX}-photo"

    def uploaded(event: dict) -> None:
        try:
            json.loads(event["target"]["value"])
        except (KeyError, ValueError):
            return
        reload()

    return Region(
        "Photo (optional)",
        html.div(
            {"class_name": "enroll-photo-row"},
            html.img(
                {
                    "class_name": "enroll-photo-image",
                    "src": f"/api/enrollment/photos/{app.id}?v={app.photo_key[:8]}",
                    "alt": "Your photo",
                }
            )
            if app.photo_key
            else html.span(
                {"class_name": "enroll-photo-empty", "aria-hidden": "true"}, icon("user", size=32)
            ),
            html.div(
                {"class_name": "enroll-upload", **browser.upload_scope()},
                html.p(
                    {"class_name": "text-muted"},
                    "A clear, recent photo of your face: patients see it on your profile once you are listed "
                    "(PNG, JPEG or WebP).",
                ),
                button_row(
                    file_button(
                        "Change photo" if app.photo_key else "Upload a photo",
                        input_id=f"{ids}-file",
                        class_name="enroll-file-button",
                    ),
                    Button(
                        "Remove photo",
                        variant="ghost",
                        size="sm",
                        on_click=lambda: remove.run(),
                        pending=remove.pending,
                    )
                    if app.photo_key
                    else "",
                ),
                file_input(
                    f"{ids}-file",
                    accept="image/png,image/jpeg,image/webp",
                    max_bytes=get_settings().upload_max_bytes,
                    url="/api/enrollment/photo",
                ),
                upload_receiver(uploaded),
            ),
        ),
        title_id=f"{ids}-title",
        class_name="enroll-photo",
        heading="h3",
        title_class="enroll-document-title",
    )


# ---- step 2 ---------------------------------------------------------------------------------------------------
LICENSE_FIELDS = ("license_type", "state", "number", "expires_on")


def _license_errors(errors: dict[str, str]) -> dict[str, str]:
    """'licenses.0.state' → 'state-0' (the field's name on the page)."""
    out = {}
    for name, message in errors.items():
        parts = name.split(".")
        out[f"{parts[2]}-{parts[1]}" if len(parts) == 3 else name] = message
    return out


@component
def _Credentials(app: ApplicationRead, on_saved: Callable[[ApplicationRead], None]) -> VdomDict:
    initial: dict[str, Any] = {"npi": app.npi}
    for n, x in enumerate(app.licenses):
        initial |= {
            f"license_type-{n}": x.license_type,
            f"state-{n}": x.state,
            f"number-{n}": x.number,
            f"expires_on-{n}": x.expires_on.isoformat(),
        }
    rows, set_rows = use_state(max(1, len(app.licenses)))
    form = use_form(draft=f"enrollment:credentials:{app.id}", **initial)
    raw_errors, attempts, send, pending = use_step(save_credentials, on_saved, form)
    errors = _license_errors(raw_errors)
    needs_npi = has_npi(app.provider_type)

    async def save() -> None:
        v = form.values
        await send(
            update=CredentialsUpdate(
                npi=str(v.get("npi", ""))[:40],
                licenses=[
                    LicenseCreate(**{f: str(v.get(f"{f}-{n}", ""))[:80] for f in LICENSE_FIELDS})
                    for n in range(rows)
                    if any(str(v.get(f"{f}-{n}", "")).strip() for f in LICENSE_FIELDS)
                ],
            )
        )

    order = ["npi", "licenses"] + [f"{f}-{n}" for n in range(rows) for f in LICENSE_FIELDS]
    e = errors.get
    licence_rows = [
        field_group(
            f"Licence {n + 1}",
            html.div(
                {"class_name": "form-grid"},
                Field(
                    "Licence type",
                    f"license_type-{n}",
                    form=form,
                    error=e(f"license_type-{n}"),
                    max_length=40,
                    hint="e.g. RN, LVN, MD",
                    id_prefix=PREFIX,
                ),
                Select(
                    "Issuing state",
                    f"state-{n}",
                    form=form,
                    placeholder="Choose…",
                    error=e(f"state-{n}"),
                    options=list(STATE_CODES),
                    id_prefix=PREFIX,
                ),
                Field(
                    "Licence number",
                    f"number-{n}",
                    form=form,
                    error=e(f"number-{n}"),
                    max_length=40,
                    id_prefix=PREFIX,
                ),
                Field(
                    "Expiry date",
                    f"expires_on-{n}",
                    form=form,
                    type="date",
                    error=e(f"expires_on-{n}"),
                    max_length=10,
                    id_prefix=PREFIX,
                ),
            ),
            class_name="enroll-licence",
            key=f"licence-{n}",
        )
        for n in range(rows)
    ]
    return _step_form(
        "Credentials",
        "Your National Provider Identifier and every licence you hold. We verify them with the issuing boards.",
        _errors_of(errors, order),
        attempts,
        Field(
            "NPI (10 digits)",
            "npi",
            form=form,
            error=e("npi"),
            max_length=14,
            input_mode="numeric",
            hint="Find it in the NPPES NPI registry.",
            id_prefix=PREFIX,
        )
        if needs_npi
        else html.p({"class_name": "text-muted"}, "Your profession has no NPI: we only need your licences."),
        html.p({"class_name": "field-error", "id": fid("licenses")}, e("licenses")) if e("licenses") else "",
        *licence_rows,
        Button(
            "Add another licence",
            variant="outline",
            size="sm",
            icon="plus",
            on_click=lambda: set_rows(lambda r: min(r + 1, MAX_LICENSE_ROWS)),
            disabled=rows >= MAX_LICENSE_ROWS,
        ),
        actions=Button("Save and continue", on_click=save, pending=pending, icon="arrow-right"),
    )


# ---- step 3 ---------------------------------------------------------------------------------------------------
@component
def _Offering(app: ApplicationRead, on_saved: Callable[[ApplicationRead], None]) -> VdomDict:
    catalog = use_query(list_catalog)
    return QueryView(catalog, lambda categories: _OfferingForm(app, categories, on_saved))


@component
def _OfferingForm(
    app: ApplicationRead, categories: list, on_saved: Callable[[ApplicationRead], None]
) -> VdomDict:
    services = [s for c in categories for s in c.services]
    offered = {o.service_id: o for o in app.offers}
    hours = {h.weekday: h for h in app.weekly_hours}
    initial: dict[str, Any] = {
        "zip_codes": " ".join(app.zip_codes),
        "time_zone": app.time_zone,
    }
    for s in services:
        o = offered.get(s.id)
        initial |= {f"offer-{s.id}": o is not None, f"price-{s.id}": o.price if o else ""}
    for d in range(7):
        h = hours.get(d)
        initial |= {
            f"day-{d}": h is not None if app.weekly_hours else d < 5,
            f"start-{d}": _hhmm(h.start_minute) if h else "09:00",
            f"end-{d}": _hhmm(h.end_minute) if h else "17:00",
        }
    form = use_form(draft=f"enrollment:offering:{app.id}", **initial)
    errors, attempts, send, pending = use_step(save_offering, on_saved, form)
    masks = {s.id: sum(loc.bit for loc in s.locations) for s in services}

    async def save() -> None:
        v = form.values
        await send(
            update=OfferingUpdate(
                offers=[
                    OfferCreate(
                        service_id=s.id, price=str(v.get(f"price-{s.id}", ""))[:20], location_mask=masks[s.id]
                    )
                    for s in services
                    if v.get(f"offer-{s.id}")
                ][:40],
                zip_codes=str(v.get("zip_codes", ""))[:2000].replace(",", " ").split()[:200],
                weekly_hours=[
                    HoursCreate(
                        weekday=d,
                        start_minute=max(0, _minute(str(v.get(f"start-{d}", "")))),
                        end_minute=max(0, _minute(str(v.get(f"end-{d}", "")))),
                    )
                    for d in range(7)
                    if v.get(f"day-{d}")
                ],
                time_zone=str(v.get("time_zone", ""))[:64],
            )
        )

    e = errors.get
    order = ["offers", *(f"price.{s.id}" for s in services), "zip_codes", "weekly_hours", "time_zone"]
    summary = [
        (fid(name.replace(".", "-")), message)
        for name, message in sorted(
            errors.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)
        )
    ]
    return _step_form(
        "What you offer",
        "The services you offer at your own prices (at every place each service allows), the ZIP codes you "
        "travel to, and when you take visits.",
        summary,
        attempts,
        field_group(
            "Services and your prices",
            *(
                html.div(
                    {"class_name": "enroll-offer", "key": s.id},
                    Checkbox(s.name, f"offer-{s.id}", form=form, id_prefix=PREFIX),
                    Field(
                        f"Your price for {s.name} (USD)",
                        f"price-{s.id}",
                        form=form,
                        input_mode="decimal",
                        max_length=10,
                        error=e(f"price.{s.id}"),
                        id_prefix=PREFIX,
                        class_name="enroll-price",
                    ),
                )
                for s in services
            ),
            error=e("offers"),
            error_class="field-error",
            class_name="enroll-offers",
            id=fid("offers"),
            focusable=True,
        ),
        Field(
            "ZIP codes you travel to",
            "zip_codes",
            form=form,
            error=e("zip_codes"),
            max_length=2000,
            hint="5-digit US ZIP codes separated by spaces or commas, in states where you hold a licence.",
            id_prefix=PREFIX,
        ),
        Select(
            "Time zone",
            "time_zone",
            form=form,
            options=list(TIME_ZONES),
            error=e("time_zone"),
            id_prefix=PREFIX,
        ),
        field_group(
            "Weekly hours",
            *(
                html.div(
                    {"class_name": "enroll-day", "key": str(d)},
                    Checkbox(WEEKDAYS[d], f"day-{d}", form=form, id_prefix=PREFIX),
                    Field(
                        f"{WEEKDAYS[d]} from",
                        f"start-{d}",
                        form=form,
                        type="time",
                        max_length=5,
                        id_prefix=PREFIX,
                    ),
                    Field(
                        f"{WEEKDAYS[d]} until",
                        f"end-{d}",
                        form=form,
                        type="time",
                        max_length=5,
                        id_prefix=PREFIX,
                    ),
                )
                for d in range(7)
            ),
            error=e("weekly_hours"),
            error_class="field-error",
            class_name="enroll-hours",
            id=fid("weekly_hours"),
            focusable=True,
        ),
        actions=Button("Save and continue", on_click=save, pending=pending, icon="arrow-right"),
    )


# ---- step 4 ---------------------------------------------------------------------------------------------------
@component
def _Documents(app: ApplicationRead, reload: Callable[[], None], next_step: Callable[[], None]) -> VdomDict:
    return titled_card(
        "Documents",
        *(_DocumentKind(app, kind, reload, key=kind.value) for kind in DocumentKind),
        lead="A clear scan or photo (PDF, PNG, JPEG or WebP, at most "
        f"{get_settings().upload_max_bytes // (1024 * 1024)} MB) of each document, with its dates as printed.",
        actions=(Button("Continue to review", on_click=next_step, icon="arrow-right"),),
        actions_class="enroll-actions",
        class_name="enroll-step-card",
    )


@component
def _DocumentKind(app: ApplicationRead, kind: DocumentKind, reload: Callable[[], None]) -> VdomDict:
    remove = use_action(remove_document, on_success=lambda _a: reload())
    mine = [d for d in app.documents if d.kind == kind]
    expiry_needed = kind != DocumentKind.government_id

    def uploaded(event: dict) -> None:
        try:
            json.loads(event["target"]["value"])
        except (KeyError, ValueError):
            return
        reload()

    ids = f"{PREFIX}-doc-{kind.value}"
    return Region(
        kind.label,
        html.ul(
            {"class_name": "enroll-files"},
            *(
                html.li(
                    {"key": d.id},
                    icon("file-check", size=16),
                    html.a(
                        {"href": f"/api/enrollment/documents/{d.id}", "target": "_blank", "rel": "noopener"},
                        d.filename,
                    ),
                    Badge(d.standing.value.replace("_", " ").capitalize()),
                    html.span({"class_name": "text-muted"}, f" expires {d.expires_on:%b %-d, %Y}")
                    if d.expires_on
                    else "",
                    Button(
                        "Remove",
                        variant="ghost",
                        size="sm",
                        aria_label=f"Remove {d.filename}",
                        on_click=lambda d=d: remove.run(document_id=d.id),
                    )
                    if d.status.value == "pending"
                    else "",
                )
                for d in mine
            ),
        )
        if mine
        else html.p({"class_name": "text-muted"}, "Not uploaded yet."),
        html.div(
            {"class_name": "enroll-upload", **browser.upload_scope()},
            html.input({"type": "hidden", "name": "kind", "value": kind.value, **browser.upload_field()}),
            html.div(
                {"class_name": "form-grid"},
                html.div(
                    {"class_name": "field"},
                    html.label({"html_for": f"{ids}-issued"}, "Issue date"),
                    html.input(
                        {
                            "id": f"{ids}-issued",
                            "type": "date",
                            "name": "issued_on",
                            "class_name": "input",
                            **browser.upload_field(),
                        }
                    ),
                ),
                html.div(
                    {"class_name": "field"},
                    html.label(
                        {"html_for": f"{ids}-expires"}, "Expiry date" + ("" if expiry_needed else " (if any)")
                    ),
                    html.input(
                        {
                            "id": f"{ids}-expires",
                            "type": "date",
                            "name": "expires_on",
                            "class_name": "input",
                            **browser.upload_field(),
                        }
                    ),
                ),
            ),
            file_button(f"Upload {kind.label}", input_id=f"{ids}-file", class_name="enroll-file-button"),
            file_input(
                f"{ids}-file",
                accept=DOCUMENT_ACCEPT,
                max_bytes=get_settings().upload_max_bytes,
                url="/api/enrollment/documents",
            ),
            upload_receiver(uploaded),
        ),
        title_id=f"{ids}-title",
        class_name="enroll-document",
        heading="h3",
        title_class="enroll-document-title",
        id=fid(f"document-{kind.value}"),
    )


# ---- step 5 ---------------------------------------------------------------------------------------------------
STEP_OF_ERROR = {
    "identity": WizardStep.identity,
    "credentials": WizardStep.credentials,
    "offering": WizardStep.offering,
}


@component
def _Review(
    app: ApplicationRead, reload: Callable[[], None], go: Callable[[WizardStep], Callable[[], None]]
) -> VdomDict:
    submit = use_action(submit_application, on_success=lambda _a: reload())
    missing = completeness_errors(app, datetime.now(UTC).date())
    resend = app.status == ApplicationStatus.needs_information
    return titled_card(
        "Review and submit",
        html.div(
            {"class_name": "enroll-missing"},
            notice("Before you can send your application:", tone="warning"),
            html.ul(
                *(
                    html.li(
                        {"key": key},
                        message,
                        " ",
                        Button(
                            f"Go to {STEP_OF_ERROR[key].label}",
                            variant="ghost",
                            size="sm",
                            on_click=go(STEP_OF_ERROR[key]),
                        )
                        if key in STEP_OF_ERROR
                        else Button(
                            "Go to Documents", variant="ghost", size="sm", on_click=go(WizardStep.documents)
                        ),
                    )
                    for key, message in missing.items()
                )
            ),
        )
        if missing
        else "",
        _Recap(app),
        actions=(
            Button(
                "Send my application again" if resend else "Submit application",
                on_click=lambda: submit.run(),
                pending=submit.pending,
                disabled=bool(missing),
                icon="check",
            ),
        ),
        actions_class="enroll-actions",
        class_name="enroll-step-card",
    )


def _Recap(app: ApplicationRead) -> VdomDict:
    def row(label: str, value: Any) -> tuple[str, Any]:
        return label, value or "—"

    return facts(
        row("Name", app.name),
        row("Provider type", app.provider_type.label if app.provider_type else ""),
        row("Phone", app.phone),
        row("NPI", app.npi),
        row(
            "Licences",
            ", ".join(
                f"{x.license_type} {x.state} {x.number} (expires {x.expires_on:%b %-d, %Y})"
                for x in app.licenses
            ),
        ),
        row("Services", f"{len(app.offers)} chosen"),
        row("ZIP codes", ", ".join(app.zip_codes)),
        row(
            "Weekly hours",
            ", ".join(
                f"{WEEKDAYS[h.weekday][:3]} {_hhmm(h.start_minute)}–{_hhmm(h.end_minute)}"
                for h in app.weekly_hours
            ),
        ),
        row("Documents", ", ".join(sorted({d.kind.label for d in app.documents}))),
        class_name="enroll-recap",
    )
