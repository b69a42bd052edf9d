"""Stripe Connect (issue 29, item 2; PAYMENT_GATEWAY=stripe): how providers are paid out by transfer.

A **connected account** is one provider's Stripe Express account, created the first time they set up payouts
from their wallet, and what Stripe last said of it: whether the onboarding form was submitted
(`details_submitted`) and whether Stripe pays it out (`payouts_enabled`), kept by `account.updated`. Its
status for the provider is `ConnectStatus`: not set up (no row), onboarding incomplete, payouts enabled.
An approved payout of a provider whose account has payouts enabled is sent as a transfer to it
(`PayoutRequest.transfer_id`, models/ledger.py).
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, utcnow

STRIPE_ID = 255  # Stripe's ids are documented as strings of at most 255 characters


class ConnectStatus(enum.StrEnum):
    unavailable = "unavailable"  # Stripe is not this site's gateway: payouts are bank transfers by staff
    not_set_up = "not_set_up"
    incomplete = "incomplete"  # created, onboarding not finished (or Stripe needs more before paying out)
    enabled = "enabled"  # Stripe pays it out: approved payouts go by transfer


class ConnectAccount(Base):
    __tablename__ = "connect_accounts"

    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(STRIPE_ID), unique=True)
    details_submitted: Mapped[bool] = mapped_column(default=False)
    payouts_enabled: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


def connect_status(row: ConnectAccount | None) -> ConnectStatus:
    if row is None:
        return ConnectStatus.not_set_up
    return ConnectStatus.enabled if row.payouts_enabled else ConnectStatus.incomplete


class PayoutAccountRead(BaseModel):
    """The signed-in provider's payout account, as their wallet shows it."""

    model_config = ConfigDict(frozen=True)

    status: ConnectStatus
    details_submitted: bool = False
    payouts_enabled: bool = False
