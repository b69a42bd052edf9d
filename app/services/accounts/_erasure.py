"""Erasing a person (the right to erasure, GDPR art. 17 / CCPA 1798.105): what `delete_due_accounts` does to
one account once its grace period is over.

Everything that identifies the person is deleted or blanked, stored files included; what the law makes the
business keep stays, detached from the person:

- deleted: the sign-in (identities, factors, sessions, one-time tokens), the saved address, carts, form
  drafts, help-desk tickets with their messages and attachment files, the assistant's conversations,
  notifications and their preferences, organization memberships and invitations to the address, the
  provider application with its licences, documents and photo (files too), careers applications sent from
  the address with their CVs, ad flights and ad images (files too), the forum's likes, flags, bookmarks and
  standing, the waitlist entry, e-mail waiting in or kept by the outbox for the address, the card
  gateway's customer record;
- kept without the person: visits and orders with their money (address and intake notes blanked; a problem
  reported with a visit keeps its reason and outcome, its details blanked), store
  orders (shipping name and street blanked), service requests (notes blanked, open ones cancelled), invoices
  to the patient (recipient replaced by "Former patient"), the wallet's ledger rows (accounts are keyed by
  the now anonymous id), review ratings, bug reports (no e-mail, no account);
- forum posts stay in their threads, as Discourse does, with the text removed and the author shown as a
  former member; a topic the person opened keeps its replies under a neutral title;
- a provider's public profile is unlisted and unlinked (visits keep naming who gave them);
- the audit log stays as it is: it is append-only (the database refuses changes) and kept for HIPAA's six
  years; its entries point at the anonymous tombstone.

The identity row itself stays as that tombstone (`deleted-<id>@deleted.invalid`, banned), because the kept
visits and orders reference it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, cast, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import storage
from app.auth.sessions import delete_other_sessions
from models.account import SavedAddress
from models.ads import AdFlight, AdImage
from models.assistant import AssistantConversation, AssistantMessage, AssistantPreference
from models.booking import Appointment
from models.bug_report import NOT_LOGGED_IN, BugReport
from models.careers import CareerApplication, CareerFile
from models.cart import CartItem
from models.dispute import Dispute
from models.draft import FormDraft
from models.enrollment import CredentialDocument, ProviderApplication
from models.forum import ForumFlag, ForumLike, ForumMember, ForumPost, ForumTopic, ForumTopicUser
from models.identity import FlowState, Identity, MfaFactor, OneTimeToken, User
from models.invoice import Invoice
from models.mail import OutboxMessage
from models.notification import Notification, NotificationPreference
from models.organization import OrganizationInvitation, OrganizationMember
from models.payment import PaymentCustomer
from models.provider import Provider, Review
from models.service_request import LIVE_REQUEST, RequestStatus, ServiceRequest
from models.store import CartProduct, StoreOrder
from models.support import Ticket, TicketAttachment
from models.waitlist import WaitlistEntry

FORMER_PATIENT = "Former patient"
REMOVED_POST = "*This post was removed when its author deleted their account.*"
REMOVED_TOPIC = "Removed by its author"
REMOVED_SLUG = "removed"


async def erase_person(session: AsyncSession, user: User, moment: datetime) -> None:
    """Delete or blank everything identifying `user` (see the module's docstring); files included."""
    user_id, email = user.id, (user.email or "").lower()
    files: list[str] = []
    await _sign_in_and_own_things(session, user_id)
    files += await _help_desk(session, user_id)
    files += await _enrollment(session, user_id)
    files += await _careers(session, user_id, email)
    files += await _ads(session, user_id)
    await _forum(session, user_id)
    await _visits_and_orders(session, user_id, moment)
    await _by_address(session, user_id, email)
    await session.flush()
    # The rows are gone from this transaction; the files go now (a missing file is fine).
    for key in files:
        try:
            await storage.remove(key)
        except ValueError:  # not a storage key (nothing of ours on disk)
            continue


async def _sign_in_and_own_things(session: AsyncSession, user_id: str) -> None:
    # The assistant's conversations hold the person's own words about their health: they go too.
    conversations = select(AssistantConversation.id).where(AssistantConversation.user_id == user_id)
    await session.execute(delete(AssistantMessage).where(AssistantMessage.conversation_id.in_(conversations)))
    for model in (
        Identity,
        FlowState,
        MfaFactor,
        OneTimeToken,
        SavedAddress,
        CartItem,
        CartProduct,
        AssistantConversation,
        AssistantPreference,
        NotificationPreference,
        OrganizationMember,
        PaymentCustomer,
    ):
        await session.execute(delete(model).where(model.user_id == user_id))
    await session.execute(delete(Notification).where(Notification.recipient_id == user_id))
    await delete_other_sessions(session, user_id=user_id, keep=None)
    await session.execute(delete(FormDraft).where(FormDraft.owner_key == f"user:{user_id}"))


async def _help_desk(session: AsyncSession, user_id: str) -> list[str]:
    """The person's tickets (messages and changes go with them) and every file on them or uploaded by the
    person (staged ones too). Answers the storage keys to remove."""
    tickets = select(Ticket.id).where(Ticket.user_id == user_id)
    theirs = TicketAttachment.ticket_id.in_(tickets) | (TicketAttachment.uploaded_by == user_id)
    keys = list(await session.scalars(select(TicketAttachment.storage_key).where(theirs)))
    await session.execute(delete(TicketAttachment).where(theirs))
    await session.execute(delete(Ticket).where(Ticket.user_id == user_id))
    return keys


async def _enrollment(session: AsyncSession, user_id: str) -> list[str]:
    """The provider application: its photo and documents (the government ID among them) on disk, and its
    rows (licences, documents and timeline go with it)."""
    application = await session.scalar(
        select(ProviderApplication).where(ProviderApplication.user_id == user_id)
    )
    if application is None:
        return []
    keys = list(
        await session.scalars(
            select(CredentialDocument.storage_key).where(CredentialDocument.application_id == application.id)
        )
    )
    if application.photo_key:
        keys.append(application.photo_key)
    await session.execute(
        delete(CredentialDocument).where(CredentialDocument.application_id == application.id)
    )
    await session.delete(application)
    return keys


async def _careers(session: AsyncSession, user_id: str, email: str) -> list[str]:
    """Job applications sent from the account's address, with their CVs, and CVs it staged."""
    applications = select(CareerApplication.id).where(func.lower(CareerApplication.email) == email)
    theirs = (CareerFile.uploader == f"user:{user_id}") | CareerFile.application_id.in_(applications)
    keys = list(await session.scalars(select(CareerFile.storage_key).where(theirs)))
    await session.execute(delete(CareerFile).where(theirs))
    if email:
        await session.execute(delete(CareerApplication).where(func.lower(CareerApplication.email) == email))
    return keys


async def _ads(session: AsyncSession, user_id: str) -> list[str]:
    """The person's ad flights (their creatives and figures) and ad images."""
    keys = list(await session.scalars(select(AdImage.stored_name).where(AdImage.owner_id == user_id)))
    await session.execute(delete(AdFlight).where(AdFlight.advertiser_id == user_id))
    await session.execute(delete(AdImage).where(AdImage.owner_id == user_id))
    return keys


async def _forum(session: AsyncSession, user_id: str) -> None:
    """Posts stay where they are, so threads still read in order, without their text; the person's likes
    and flags go and the posts' counts follow."""
    touched = list(
        await session.scalars(select(ForumLike.post_id).where(ForumLike.user_id == user_id))
    ) + list(await session.scalars(select(ForumFlag.post_id).where(ForumFlag.user_id == user_id)))
    for model in (ForumLike, ForumFlag, ForumTopicUser, ForumMember):
        await session.execute(delete(model).where(model.user_id == user_id))
    if touched:
        likes = select(func.count()).where(ForumLike.post_id == ForumPost.id).scalar_subquery()
        flags = select(func.count()).where(ForumFlag.post_id == ForumPost.id).scalar_subquery()
        await session.execute(
            update(ForumPost)
            .where(ForumPost.id.in_(set(touched)))
            .values(like_count=likes, flag_count=flags)
            .execution_options(synchronize_session=False)
        )
    await session.execute(
        update(ForumPost)
        .where(ForumPost.author_id == user_id)
        .values(body=REMOVED_POST, moderation_reason="")
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(ForumTopic)
        .where(ForumTopic.author_id == user_id)
        .values(title=REMOVED_TOPIC, slug=REMOVED_SLUG)
        .execution_options(synchronize_session=False)
    )


async def _visits_and_orders(session: AsyncSession, user_id: str, moment: datetime) -> None:
    """Money and care records stay (dates, service, provider, price, status), without where the person
    lives or what they wrote."""
    await session.execute(
        update(Appointment)
        .where(Appointment.patient_id == user_id)
        .values(address_line="", city="", notes="")
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(Dispute)
        .where(Dispute.patient_id == user_id)
        .values(details="")
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(StoreOrder)
        .where(StoreOrder.patient_id == user_id)
        .values(ship_name=FORMER_PATIENT, ship_line1="", ship_line2="", ship_city="")
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(ServiceRequest)
        .where(ServiceRequest.patient_id == user_id, ServiceRequest.status.in_(LIVE_REQUEST))
        .values(status=RequestStatus.cancelled, closed_at=moment)
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(ServiceRequest)
        .where(ServiceRequest.patient_id == user_id)
        .values(notes="")
        .execution_options(synchronize_session=False)
    )
    for invoice in await session.scalars(select(Invoice).where(Invoice.patient_id == user_id)):
        invoice.recipient_name, invoice.recipient_email, invoice.recipient_address = FORMER_PATIENT, "", ""
        invoice.search_text = invoice.number.lower()
    await session.execute(
        update(Review)
        .where(Review.author_id == user_id)
        .values(author_id=None, author_name=FORMER_PATIENT, comment="")
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        update(Provider)
        .where(Provider.user_id == user_id)
        .values(user_id=None, is_active=False, bio="", photo_url="")
        .execution_options(synchronize_session=False)
    )


async def _by_address(session: AsyncSession, user_id: str, email: str) -> None:
    """Rows that name the person by e-mail address rather than by account."""
    await session.execute(
        update(BugReport)
        .where((BugReport.user_id == user_id) | (func.lower(BugReport.email) == email))
        .values(user_id=NOT_LOGGED_IN, email="", user_agent="")
        .execution_options(synchronize_session=False)
    )
    if not email:
        return
    await session.execute(delete(WaitlistEntry).where(func.lower(WaitlistEntry.email) == email))
    await session.execute(
        delete(OrganizationInvitation).where(func.lower(OrganizationInvitation.email) == email)
    )
    mail = await session.execute(
        select(OutboxMessage.id, OutboxMessage.recipients).where(
            func.lower(cast(OutboxMessage.recipients, String)).contains(email, autoescape=True)
        )
    )
    to_them = [i for i, recipients in mail if any(email in str(r).lower() for r in recipients or ())]
    if to_them:
        await session.execute(delete(OutboxMessage).where(OutboxMessage.id.in_(to_them)))
