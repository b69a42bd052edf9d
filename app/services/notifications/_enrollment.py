"""Provider enrollment and standing (app/services/enrollment): the applicant hears of each step of their
application and of each review decision (with an e-mail of its reasons, as their preferences allow),
reviewers of applications waiting, applicants of idle drafts, providers of expiring and lapsed credentials
and of their suspension, patients of their visits at risk, and the staff who manage providers of each
change of standing. PHI-free words: the details are behind the links."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.outbox import Email, send_emails
from app.services.domain_events import (
    ApplicationDecided,
    ApplicationStatusChanged,
    ApplicationSubmitted,
    CredentialsExpiring,
    CredentialsLapsed,
    IdleDraftsNudged,
    ProviderReinstated,
    ProviderSuspended,
)
from app.services.notifications._copy import (
    ENROLLMENT_PATH,
    enrollment_decision_copy,
    verification_link,
    verification_waiting_copy,
    visit_link,
    when_text,
)
from app.services.notifications._delivery import (
    MAX_RECIPIENTS,
    Message,
    email_addresses,
    notification_html,
    notify,
    notify_each,
)
from app.services.shared.staff_access import members_with
from models.enrollment import ApplicationStatus, WizardStep
from models.identity import as_utc
from models.notification import NotificationKind
from models.staff import Permission

RENEW_LINK = "/provider-enrollment"
STAFF_PROVIDERS = "/staff/providers"
# PHI-free words for the applicant's notifications (no reasons, no document names: those are on the page).
STATUS_NOTICES = {
    ApplicationStatus.submitted: (
        "We received your provider application",
        "We will review it and let you know. You can follow its status on your application page.",
    ),
    ApplicationStatus.in_review: (
        "Your provider application is being reviewed",
        "A member of our team is reviewing your application.",
    ),
    ApplicationStatus.needs_information: (
        "Your provider application needs more information",
        "Please open your application to see what to update, then send it again.",
    ),
    ApplicationStatus.approved: (
        "Your provider application is approved",
        "Welcome aboard: your profile is now listed and patients can book you.",
    ),
    ApplicationStatus.rejected: (
        "A decision on your provider application",
        "Please open your application page for the details.",
    ),
}


def _date_text(day: date) -> str:
    return f"{day:%b} {day.day}, {day.year}"


async def _in_batches(
    session: AsyncSession, kind: NotificationKind, messages: Sequence[Message], now: datetime
) -> None:
    """`notify_each` in batches of MAX_RECIPIENTS."""
    for start in range(0, len(messages), MAX_RECIPIENTS):
        await notify_each(
            session=session, kind=kind, messages=messages[start : start + MAX_RECIPIENTS], now=now
        )


async def tell_application_status(session: AsyncSession, changed: ApplicationStatusChanged) -> None:
    """The applicant, for the statuses that have words (a draft has none)."""
    words = STATUS_NOTICES.get(ApplicationStatus(changed.status))
    if words is None:
        return
    title, body = words
    await notify(
        session=session,
        recipients=[changed.user_id],
        kind=NotificationKind.enrollment_decision,
        link=ENROLLMENT_PATH,
        title=title,
        body=body,
        now=changed.at,
    )


async def tell_reviewers(session: AsyncSession, submitted: ApplicationSubmitted) -> None:
    """Everyone who verifies applications (manage_verification)."""
    reviewers = await members_with(session=session, permission=Permission.manage_verification)
    title, body = verification_waiting_copy(submitted.resubmitted)
    await notify(
        session=session,
        recipients=[reviewer.id for reviewer in reviewers],
        kind=NotificationKind.verification_waiting,
        link=verification_link(submitted.application_id),
        title=title,
        body=body,
        now=submitted.at,
    )


async def tell_applicant_of_decision(session: AsyncSession, decided: ApplicationDecided) -> None:
    """The notification (fixed words) and, as the applicant's preferences allow, the e-mail with the
    reasons, what to do about each, the reviewer's message and the date they may apply again."""
    title, body = enrollment_decision_copy(decided.decision)
    delivery = await notify(
        session=session,
        recipients=[decided.user_id],
        kind=NotificationKind.enrollment_decision,
        link=ENROLLMENT_PATH,
        title=title,
        body=body,
        now=decided.at,
    )
    if decided.user_id not in delivery.email_now:
        return
    address = (await email_addresses(session, [decided.user_id])).get(decided.user_id)
    if not address:
        return
    points = [f"{reason.label}. {reason.advice}".strip() for reason in decided.reasons]
    again = decided.reapply_after
    if again is not None and decided.decision == ApplicationStatus.rejected.value:
        points.append(f"You may apply again from {again:%B} {again.day}, {again:%Y}.")
    await send_emails(
        session=session,
        emails=[
            Email(
                recipients=[address],
                subject=title,
                html=notification_html(title, body, ENROLLMENT_PATH, points=points, quote=decided.message),
            )
        ],
    )


def _nudge_copy(step: int) -> tuple[str, str]:
    following = WizardStep(min(max(step + 1, 1), len(WizardStep)))
    return (
        "Your provider application is waiting",
        f"Everything you entered is saved. Pick up where you left off: {following.label} "
        f"(step {following.value} of {len(WizardStep)}).",
    )


async def tell_idle_drafts(session: AsyncSession, nudged: IdleDraftsNudged) -> None:
    messages = [Message(draft.user_id, *_nudge_copy(draft.step), ENROLLMENT_PATH) for draft in nudged.drafts]
    await _in_batches(session, NotificationKind.enrollment_reminder, messages, nudged.at)


async def tell_credentials_expiring(session: AsyncSession, expiring: CredentialsExpiring) -> None:
    messages = [
        Message(
            credential.user_id,
            f"Your {credential.label} expires "
            + ("today" if credential.days_left == 0 else f"in {credential.days_left} days"),
            f"It expires on {_date_text(credential.expires_on)}. Upload the renewed one before then to stay "
            "listed and bookable.",
            RENEW_LINK,
        )
        for credential in expiring.credentials
    ]
    await _in_batches(session, NotificationKind.credential_expiring, messages, expiring.at)


async def tell_credentials_lapsed(session: AsyncSession, lapsed: CredentialsLapsed) -> None:
    """Each provider (with an account), then the staff who manage providers, of each lapsed provider."""
    await _in_batches(
        session,
        NotificationKind.credentials_lapsed,
        [
            Message(
                provider.user_id,
                "Your profile is hidden: a credential expired",
                "Patients can't find or book you until the renewed licence or document is approved.",
                RENEW_LINK,
            )
            for provider in lapsed.providers
            if provider.user_id
        ],
        lapsed.at,
    )
    staff = await members_with(session=session, permission=Permission.manage_providers)
    messages = [
        Message(
            member.id,
            f"Credentials lapsed: {provider.name}",
            "Unlisted and closed to new bookings until a current credential is approved.",
            f"{STAFF_PROVIDERS}/{provider.provider_id}",
        )
        for provider in lapsed.providers
        for member in staff
    ]
    await _in_batches(session, NotificationKind.provider_standing, messages, lapsed.at)


async def tell_provider_suspended(session: AsyncSession, suspended: ProviderSuspended) -> None:
    """The patients of its visits ahead, the staff who manage providers (but the one who acted), and the
    provider."""
    kind = NotificationKind.visit_at_risk
    await notify_each(
        session=session,
        kind=kind,
        messages=[
            Message(
                visit.patient_id,
                f"Your visit on {when_text(as_utc(visit.starts_at), suspended.time_zone)} needs a new time or "
                "provider",
                "Your provider can't take visits for now. Our team will contact you to rearrange it.",
                visit_link(visit.appointment_id, kind),
            )
            for visit in suspended.visits
        ],
        now=suspended.at,
    )
    staff = [m.id for m in await members_with(session=session, permission=Permission.manage_providers)]
    ahead = len(suspended.visits)
    await notify(
        session=session,
        recipients=[m for m in staff if m != suspended.by],
        kind=NotificationKind.provider_standing,
        link=f"{STAFF_PROVIDERS}/{suspended.provider_id}",
        title=f"Suspended: {suspended.name}",
        body=f"{ahead} visit(s) ahead to rearrange." if ahead else "No visits ahead.",
        now=suspended.at,
    )
    await notify(
        session=session,
        recipients=[suspended.user_id],
        kind=NotificationKind.enrollment_decision,
        link="/dashboard",
        title="Your profile is paused",
        body="Patients can't find or book you for now. Our team will contact you.",
        now=suspended.at,
    )


async def tell_provider_reinstated(session: AsyncSession, reinstated: ProviderReinstated) -> None:
    await notify(
        session=session,
        recipients=[reinstated.user_id],
        kind=NotificationKind.enrollment_decision,
        link="/dashboard",
        title="Your profile is active again",
        body="Upload your renewed credentials so patients can book you again."
        if reinstated.credentials_lapsed
        else "Patients can find and book you again.",
        now=reinstated.at,
    )
