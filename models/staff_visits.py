"""Staff appointments (issue 15): the schemas of /staff/appointments — a day or week of visits with filters,
one visit's details (with the patient's records only for those who may read them), a provider's schedule,
and the providers a visit may be handed to. The rows are `models.booking.Appointment`."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from models.booking import AppointmentStatus
from models.catalog import ServiceLocation
from models.ledger import VisitPaymentRead
from models.provider import TimeOffRead, WeeklyHoursRead

View = Literal["day", "week"]
PAGE_SIZE = 100  # visits on one page of a day or week
MAX_REASON = 500  # a cancellation's or a refund exception's reason
MAX_METRO = 110  # "City, ST"


class StaffVisitQuery(BaseModel):
    """What the list shows: a calendar day, or the Monday-to-Sunday week holding it, in `time_zone`."""

    model_config = ConfigDict(frozen=True)

    day: date
    view: View = "day"
    time_zone: str
    provider_id: str | None = Field(default=None, max_length=36)
    service_line: str | None = Field(default=None, max_length=64)  # a service category's slug
    metro: str | None = Field(default=None, max_length=MAX_METRO)  # "City, ST" of the visit
    status: AppointmentStatus | None = None
    page: int = Field(default=1, ge=1, le=10_000)


class StaffVisitRow(BaseModel):
    """One visit in the list. `patient_name` is None unless the reader holds view_patient_logs."""

    model_config = ConfigDict(frozen=True)

    id: str
    order_number: str | None
    status: AppointmentStatus
    starts_at: datetime
    ends_at: datetime
    provider_id: str
    provider_name: str
    provider_time_zone: str
    service_id: str
    service_name: str
    service_line: str
    location: ServiceLocation
    city: str
    state: str
    price: Decimal
    cancelled_by: str
    cancel_reason: str
    patient_name: str | None = None

    @property
    def metro(self) -> str:
        return f"{self.city}, {self.state}" if self.city and self.state else self.city or self.state


class StaffVisitPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[StaffVisitRow]
    total: int
    page: int
    has_next: bool
    starts: date  # the first day shown
    ends: date  # the last day shown
    time_zone: str  # the zone the days and times are in (the member's)
    patient_names: bool  # the reader holds view_patient_logs: rows carry the patient's name


class PatientRecords(BaseModel):
    """The patient's part of a visit: only for view_patient_logs, each read audited."""

    model_config = ConfigDict(frozen=True)

    patient_id: str
    name: str
    email: str
    phone: str
    address_line: str
    zip_code: str
    notes: str


class StaffVisitDetails(BaseModel):
    model_config = ConfigDict(frozen=True)

    visit: StaffVisitRow
    patient: PatientRecords | None  # None: the reader may not see the patient's records
    cancelled_at: datetime | None
    confirmed_at: datetime | None
    payment: VisitPaymentRead | None = None  # its money (the ledger's): paid ahead, collected, still due


class FilterOption(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: str
    label: str


class StaffVisitFilters(BaseModel):
    """The choices the filters offer: providers, service lines and metros (each sorted by label)."""

    model_config = ConfigDict(frozen=True)

    providers: list[FilterOption]
    service_lines: list[FilterOption]
    metros: list[FilterOption]


class ProviderScheduleRead(BaseModel):
    """A provider's working week and their time off overlapping the days shown (view_booking_schedules)."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    name: str
    time_zone: str
    weekly_hours: list[WeeklyHoursRead]
    time_off: list[TimeOffRead]


class ReassignOption(BaseModel):
    """A provider who offers the visit's service, travels to its ZIP code and is free at its time."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    name: str
    rating: float | None
    review_count: int
