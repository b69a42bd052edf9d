"""Approving an application publishes the provider (issue 13), inside the approval's unit of work:

- the Provider row, created from the application (names, type, bio, languages, photo, time zone, the first
  licence on the profile), or updated when the account already has one; verified and active;
- what they offer, their service area and weekly hours, through app/services/providers' own commands (which
  keep the listing copies in provider_zips in step: nothing is written to those tables here);
- the licences and documents linked to the provider (`provider_id`), for the expiry job and the provider's
  page;
- the account: role provider (the staff role-change path, audited in the reviewer's name) and
  `enrollment_complete`.

The providers' commands run as SYSTEM: the reviewer's authority was checked by the caller
(manage_verification), and a management member is not an owner or admin, whom those commands admit.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import SYSTEM
from app.services.accounts.internal import apply_role, mark_enrollment_complete
from app.services.errors import NotFound, ValidationFailed
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from app.services.providers.internal import sync_listing
from app.services.shared.accounts import account_of
from models.account import AccountRead, Role
from models.catalog import Service, locations_of
from models.enrollment import CredentialDocument, ProviderApplication, ProviderLicense
from models.identity import User
from models.provider import Provider

NOT_AN_APPLICANT = (
    "This account is a {role} account: only a patient or provider account can become a listed provider. "
    "Change its role first."
)
NO_ACCOUNT = "The applicant's account no longer exists."
PHOTO_PATH = "/api/enrollment/photos/{application_id}"


def photo_path(application: ProviderApplication) -> str:
    """Where a published provider's photo is served (the application's upload), or '' without one."""
    return PHOTO_PATH.format(application_id=application.id) if application.photo_key else ""


def _profile_values(application: ProviderApplication, licence: ProviderLicense | None) -> dict[str, Any]:
    return {
        "first_name": application.first_name.strip()[:80],
        "last_name": application.last_name.strip()[:80],
        "provider_type": application.provider_type,
        "license_type": licence.license_type[:40] if licence else "",
        "license_number": licence.number[:40] if licence else "",
        "license_state": licence.state[:2] if licence else "",
        "bio": application.bio.strip()[:4000],
        "photo_url": photo_path(application),
        "languages": [lang for lang in (application.languages or []) if lang][:10] or ["English"],
        "time_zone": application.time_zone,
    }


async def _provider_of(session: AsyncSession, application: ProviderApplication) -> Provider | None:
    if application.provider_id:
        found = await session.get(Provider, application.provider_id)
        if found is not None:
            return found
    return await session.scalar(select(Provider).where(Provider.user_id == application.user_id))


async def _offers(session: AsyncSession, application: ProviderApplication) -> list[ServiceOffer]:
    offers = application.offers or []
    slugs = dict(
        (
            await session.execute(
                select(Service.id, Service.slug).where(Service.id.in_([o["service_id"] for o in offers]))
            )
        ).all()
    )
    return [
        ServiceOffer(
            slugs[offer["service_id"]],
            Decimal(str(offer["price"])),
            tuple(locations_of(int(offer.get("location_mask") or 0))),
        )
        for offer in offers
        if offer.get("service_id") in slugs
    ]


async def publish_provider(
    *, session: AsyncSession, reviewer: AccountRead, application: ProviderApplication
) -> str:
    """Create or update the applicant's listed provider from `application`; returns the provider's id."""
    user = await session.get(User, application.user_id)
    if user is None:
        raise NotFound(NO_ACCOUNT)
    account = account_of(user)
    if account.role not in (Role.patient, Role.provider):
        raise ValidationFailed(NOT_AN_APPLICANT.format(role=account.role.value))
    licence = await session.scalar(
        select(ProviderLicense)
        .where(ProviderLicense.application_id == application.id)
        .order_by(ProviderLicense.expires_on.desc(), ProviderLicense.id)
        .limit(1)
    )
    values = _profile_values(application, licence)
    provider = await _provider_of(session, application)
    if provider is None:
        created = await create_provider(
            session=session, actor=SYSTEM, user_id=user.id, verified=True, active=True, **values
        )
        provider_id = created.id
    else:
        provider_id = provider.id
        for name, value in values.items():
            setattr(provider, name, value)
        provider.is_verified, provider.is_active = True, True
    await set_services(
        session=session, actor=SYSTEM, provider_id=provider_id, offers=await _offers(session, application)
    )
    await set_service_area(
        session=session, actor=SYSTEM, provider_id=provider_id, zip_codes=list(application.zip_codes or [])
    )
    await set_weekly_hours(
        session=session,
        actor=SYSTEM,
        provider_id=provider_id,
        hours=[
            Hours(h["weekday"], h["start_minute"], h["end_minute"]) for h in application.weekly_hours or []
        ],
    )
    for table in (ProviderLicense, CredentialDocument):
        await session.execute(
            update(table).where(table.application_id == application.id).values(provider_id=provider_id)
        )
    if account.role != Role.provider:
        await apply_role(session=session, by=reviewer, user_id=user.id, role=Role.provider)
    await mark_enrollment_complete(session=session, user_id=user.id)
    application.provider_id = provider_id
    provider = await session.get_one(Provider, provider_id)  # created or updated above
    await sync_listing(session, provider)
    await session.flush()
    return provider_id
