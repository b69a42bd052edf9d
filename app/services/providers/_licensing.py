"""The licence-state rule (issue 13): a provider may only take visits in states where they hold a valid
licence — one whose `expires_on` is on or after the visit's day. A ZIP code's state comes from the offline
ZIP list (`zip_state`, app/services/shared/addresses.py).

Where it is decided, once each:
- search by ZIP code reads the listing copies on `provider_zip_codes`: a ZIP row is `listed` only when the
  provider is listed *and* holds a licence of that ZIP code's state valid today (`zip_listing`, written by
  `sync_listing` and `set_service_area`; the good-standing job re-syncs a provider when a licence expires),
  so search keeps its partial indexes and reads no licence at all;
- booking's checkout options and holds test `licensed_in`, an EXISTS probe of
  ix_provider_licenses_provider_expires for the visit's state and day, inside the statement that already
  picks the providers (no query per provider); when the order is placed, the one statement that re-checks
  every line reads, per line, the last day the provider is licensed in the line's
  state (`licensed_until_sql`), compared with the visit's day.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.shared.addresses import zip_state
from app.services.shared.clock import today_utc
from models.enrollment import ProviderLicense
from models.provider import Provider, ProviderZip, listing_values

NOT_LICENSED = "{provider} is not licensed to see patients in {state}, so they can't take this visit."


def licensed_in(
    provider_id: str | SQLColumnExpression[str | None], state: object, day: object
) -> ColumnElement[bool]:
    """SQL: the provider holds a licence of `state` valid on `day` (values or bound parameters)."""
    return exists().where(
        ProviderLicense.provider_id == provider_id,
        ProviderLicense.expires_on >= day,
        ProviderLicense.state == state,
    )


async def licensed_states(
    session: AsyncSession, provider_ids: Iterable[str], on: date
) -> dict[str, set[str]]:
    """Each provider's states with a licence valid on `on` (one query)."""
    ids = list(dict.fromkeys(provider_ids))
    states: dict[str, set[str]] = {pid: set() for pid in ids}
    if not ids:
        return states
    rows = await session.execute(
        select(ProviderLicense.provider_id, ProviderLicense.state).where(
            ProviderLicense.provider_id.in_(ids), ProviderLicense.expires_on >= on
        )
    )
    for provider_id, state in rows:
        assert provider_id is not None  # the query matched it to one of `ids`
        states[provider_id].add(state)
    return states


def licensed_until_sql(provider_id: SQLColumnExpression[str | None], state: object) -> ColumnElement[date]:
    """SQL: the last day the provider is licensed in `state` (a value or a column expression), or NULL."""
    return (
        select(func.max(ProviderLicense.expires_on))
        .where(ProviderLicense.provider_id == provider_id, ProviderLicense.state == state)
        .scalar_subquery()
    )


def zip_listed(listed: bool, zip_code: str, states: set[str]) -> bool:
    """A ZIP row's `listed`: the provider is listed and licensed in the ZIP code's state."""
    return listed and zip_state(zip_code) in states


async def zip_listing(
    session: AsyncSession, provider: Provider, zip_codes: Iterable[str], on: date | None = None
) -> list[dict[str, Any]]:
    """The rows of `provider_zip_codes` for these ZIP codes: the listing copies, each `listed` by the
    licence-state rule."""
    copies = listing_values(provider)
    states = (await licensed_states(session, [provider.id], on or today_utc()))[provider.id]
    return [
        {
            **copies,
            "provider_id": provider.id,
            "zip_code": code,
            "listed": zip_listed(copies["listed"], code, states),
        }
        for code in zip_codes
    ]


async def sync_listing(session: AsyncSession, provider: Provider, on: date | None = None) -> None:
    """Copy what search reads from a provider onto its ZIP-code rows (call after changing the provider or
    its licences): two UPDATEs whatever the number of ZIP codes."""
    copies = listing_values(provider)
    listed = copies.pop("listed")
    where = ProviderZip.provider_id == provider.id
    await session.execute(update(ProviderZip).where(where).values(**copies, listed=False))
    if not listed:
        return
    codes = (await session.scalars(select(ProviderZip.zip_code).where(where))).all()
    states = (await licensed_states(session, [provider.id], on or today_utc()))[provider.id]
    licensed = [code for code in codes if zip_listed(True, code, states)]
    if licensed:
        await session.execute(
            update(ProviderZip).where(where, ProviderZip.zip_code.in_(licensed)).values(listed=True)
        )


async def add_profile_license(
    session: AsyncSession,
    *,
    provider_id: str,
    license_type: str,
    state: str,
    number: str,
    expires_on: date,
) -> str:
    """Record a licence on a provider's profile, without an application (seeders, tests, staff recording a
    renewal) and re-sync the provider's listing. The caller checks who may."""
    row = ProviderLicense(
        provider_id=provider_id,
        license_type=license_type.strip()[:40],
        state=state.strip().upper()[:2],
        number=number.strip().upper()[:40],
        expires_on=expires_on,
    )
    session.add(row)
    await session.flush()
    provider = await session.get(Provider, provider_id)
    if provider is not None:
        await sync_listing(session, provider)
    return row.id
