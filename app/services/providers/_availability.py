"""Availability: providers' weekly hours and time off, and the open slots the slot generator finds in them.

Busy intervals are the providers' live appointments (booked, or held during someone's checkout and not
expired); the slot generator keeps a travel buffer free around each. Time off simply blocks.

Commands take an `actor` (a Principal): the provider's own account, an owner or admin, or SYSTEM for the
command line and seeders. The provider dashboard acts through the `*_own_*` commands instead, which re-check
the signed-in Principal and act on that account's own provider profile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    ARRAY,
    BindParameter,
    ColumnElement,
    CompoundSelect,
    DateTime,
    Integer,
    SQLColumnExpression,
    String,
    and_,
    any_,
    bindparam,
    case,
    delete,
    exists,
    literal,
    null,
    or_,
    select,
    type_coerce,
    union_all,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers._slots import (
    Hours,
    Interval,
    SlotRules,
    generate_slots,
    parse_schedule,
    schedule_key,
)
from app.services.shared.accounts import is_admin
from app.services.shared.clock import day_bounds, zone
from app.services.shared.signed_in import acting_account, require_account
from app.settings import get_settings
from models.account import AccountRead
from models.booking import Appointment, AppointmentStatus
from models.identity import as_utc
from models.provider import Provider, ProviderZip, TimeOff, TimeOffRead, WeeklyHours, WeeklyHoursRead

NOT_YOURS = "You can only change your own availability."
NO_PROVIDER = "No provider has this id."
NO_OWN_PROFILE = "Your account has no provider profile yet."
BAD_HOURS = "Each day's hours need a start before the end, within the day, without overlaps."
BAD_DAY_HOURS = "{day}: each range needs a start before its end, and ranges can't overlap."
BAD_TIME = "{day}: enter a start and an end time for each range, like 09:00 and 17:00."
BAD_TIME_OFF = "Time off needs a start before its end."
BAD_MOMENT = "Enter the {what} date and time of your time off."
PAST_TIME_OFF = "This time off is already over: choose an end in the future."
NO_TIME_OFF = "This time off no longer exists."
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
TIME_OFF_LIMIT = 100


def slot_rules(duration_minutes: int) -> SlotRules:
    settings = get_settings()
    return SlotRules(
        duration_minutes=duration_minutes,
        buffer_minutes=flags.travel_buffer_minutes(),
        notice_minutes=settings.slot_min_notice_minutes,
        horizon_days=settings.slot_horizon_days,
        step_minutes=settings.slot_step_minutes,
    )


# ---- permissions and writes ---------------------------------------------------------------------
async def _owned_provider(session: AsyncSession, by: AccountRead | None, provider_id: str) -> Provider:
    """The provider, if `by` may change it: its own account, an owner or admin, or the CLI (None)."""
    provider = await session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    if by is not None and not is_admin(by) and provider.user_id != by.id:
        raise PermissionDenied(NOT_YOURS)
    return provider


def check_hours(hours: Sequence[Hours]) -> None:
    """Refuse hours outside a day, ending before they start, or overlapping on one weekday (naming it)."""
    by_day: dict[int, list[Hours]] = {}
    for h in hours:
        if not 0 <= h.weekday <= 6:
            raise ValidationFailed(BAD_HOURS)
        if not 0 <= h.start_minute < h.end_minute <= 1440:
            raise ValidationFailed(BAD_DAY_HOURS.format(day=WEEKDAYS[h.weekday]))
        by_day.setdefault(h.weekday, []).append(h)
    for weekday, day in by_day.items():
        day.sort(key=lambda h: h.start_minute)
        if any(a.end_minute > b.start_minute for a, b in zip(day, day[1:], strict=False)):
            raise ValidationFailed(BAD_DAY_HOURS.format(day=WEEKDAYS[weekday]))


def _minute_of(text: str) -> int | None:
    try:
        moment = time.fromisoformat(text.strip())
    except ValueError:
        return None
    return moment.hour * 60 + moment.minute


def hours_from_text(ranges: Iterable[tuple[int, str, str]]) -> list[Hours]:
    """(weekday, 'HH:MM', 'HH:MM') ranges as typed into the hours editor, checked by `check_hours`.

    An end of 23:59 means midnight: a time field cannot show 24:00, and `hours_read` shows midnight so.
    """
    hours = []
    for weekday, start, end in ranges:
        if not 0 <= weekday <= 6:
            raise ValidationFailed(BAD_HOURS)
        first, last = _minute_of(start), _minute_of(end)
        if first is None or last is None:
            raise ValidationFailed(BAD_TIME.format(day=WEEKDAYS[weekday]))
        hours.append(Hours(weekday, first, 1440 if last == 1439 else last))
    check_hours(hours)
    return hours


async def set_weekly_hours(
    *, session: AsyncSession, actor: Principal, provider_id: str, hours: Sequence[Hours]
) -> list[WeeklyHoursRead]:
    """Replace the provider's weekly hours (wall-clock times in the provider's time zone)."""
    by = await acting_account(session=session, actor=actor)
    provider = await _owned_provider(session, by, provider_id)
    check_hours(hours)
    provider.schedule_key = schedule_key(hours)
    await session.execute(
        update(ProviderZip)
        .where(ProviderZip.provider_id == provider_id)
        .values(schedule_key=provider.schedule_key)
    )
    await session.execute(delete(WeeklyHours).where(WeeklyHours.provider_id == provider_id))
    session.add_all(
        WeeklyHours(
            provider_id=provider_id, weekday=h.weekday, start_minute=h.start_minute, end_minute=h.end_minute
        )
        for h in hours
    )
    await session.flush()
    return [hours_read(h) for h in sorted(hours, key=lambda h: (h.weekday, h.start_minute))]


async def add_time_off(
    *,
    session: AsyncSession,
    actor: Principal,
    provider_id: str,
    starts_at: datetime,
    ends_at: datetime,
    reason: str = "",
) -> str:
    by = await acting_account(session=session, actor=actor)
    await _owned_provider(session, by, provider_id)
    if starts_at.tzinfo is None or ends_at.tzinfo is None or starts_at >= ends_at:
        raise ValidationFailed(BAD_TIME_OFF)
    row = TimeOff(
        provider_id=provider_id,
        starts_at=starts_at.astimezone(UTC),
        ends_at=ends_at.astimezone(UTC),
        reason=reason.strip()[:200],
    )
    session.add(row)
    await session.flush()
    return row.id


def time_off_read(row: TimeOff) -> TimeOffRead:
    return TimeOffRead(
        id=row.id,
        provider_id=row.provider_id,
        starts_at=as_utc(row.starts_at),
        ends_at=as_utc(row.ends_at),
        reason=row.reason,
    )


async def list_time_off(
    *,
    session: AsyncSession,
    actor: Principal,
    provider_id: str,
    now: datetime | None = None,
    limit: int = TIME_OFF_LIMIT,
) -> list[TimeOffRead]:
    """The provider's time off that has not ended yet, soonest first (for the provider or an admin)."""
    by = await acting_account(session=session, actor=actor)
    await _owned_provider(session, by, provider_id)
    rows = await session.scalars(
        select(TimeOff)
        .where(TimeOff.provider_id == provider_id, TimeOff.ends_at > (now or datetime.now(UTC)))
        .order_by(TimeOff.starts_at, TimeOff.id)
        .limit(max(1, min(limit, TIME_OFF_LIMIT)))
    )
    return [time_off_read(row) for row in rows]


async def remove_time_off(*, session: AsyncSession, actor: Principal, time_off_id: str) -> None:
    """Delete a stretch of time off of a provider `actor` may change."""
    by = await acting_account(session=session, actor=actor)
    row = await session.get(TimeOff, time_off_id)
    if row is None:
        raise NotFound(NO_TIME_OFF)
    await _owned_provider(session, by, row.provider_id)
    await session.delete(row)
    await session.flush()


# ---- the signed-in provider's own availability (the provider dashboard) -------------------------
async def own_provider(*, session: AsyncSession, actor: Principal) -> tuple[AccountRead, Provider]:
    """The account behind a browser session (re-checked) and its provider profile."""
    account = await require_account(session=session, actor=actor)
    provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
    if provider is None:
        raise NotFound(NO_OWN_PROFILE)
    return account, provider


async def set_own_weekly_hours(
    *, session: AsyncSession, actor: Principal, ranges: Iterable[tuple[int, str, str]]
) -> list[WeeklyHoursRead]:
    """Replace the signed-in provider's weekly hours with (weekday, 'HH:MM', 'HH:MM') ranges."""
    hours = hours_from_text(ranges)
    account, provider = await own_provider(session=session, actor=actor)
    return await set_weekly_hours(session=session, actor=actor, provider_id=provider.id, hours=hours)


def _wall_clock(text: str, time_zone: str, what: str) -> datetime:
    """'YYYY-MM-DDTHH:MM' as typed: a wall-clock time in `time_zone`."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValidationFailed(BAD_MOMENT.format(what=what)) from None
    return moment.replace(tzinfo=zone(time_zone)) if moment.tzinfo is None else moment


async def add_own_time_off(
    *,
    session: AsyncSession,
    actor: Principal,
    starts: str,
    ends: str,
    reason: str = "",
    now: datetime | None = None,
) -> TimeOffRead:
    """Add time off to the signed-in provider: start and end as typed, in the provider's time zone."""
    account, provider = await own_provider(session=session, actor=actor)
    starts_at = _wall_clock(starts, provider.time_zone, "start")
    ends_at = _wall_clock(ends, provider.time_zone, "end")
    if starts_at < ends_at <= (now or datetime.now(UTC)):
        raise ValidationFailed(PAST_TIME_OFF)
    time_off_id = await add_time_off(
        session=session,
        actor=actor,
        provider_id=provider.id,
        starts_at=starts_at,
        ends_at=ends_at,
        reason=reason,
    )
    return time_off_read(await session.get_one(TimeOff, time_off_id))


async def list_own_time_off(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> list[TimeOffRead]:
    """The signed-in provider's time off that has not ended yet, soonest first."""
    account, provider = await own_provider(session=session, actor=actor)
    return await list_time_off(session=session, actor=actor, provider_id=provider.id, now=now)


async def remove_own_time_off(*, session: AsyncSession, actor: Principal, time_off_id: str) -> None:
    """Delete one of the signed-in provider's stretches of time off."""
    account, _provider = await own_provider(session=session, actor=actor)
    await remove_time_off(session=session, actor=actor, time_off_id=time_off_id)


def _minutes_to_time(minute: int) -> time:
    return time(23, 59, 59) if minute >= 1440 else time(minute // 60, minute % 60)


def hours_read(h: Hours | WeeklyHours) -> WeeklyHoursRead:
    return WeeklyHoursRead(
        weekday=h.weekday, start=_minutes_to_time(h.start_minute), end=_minutes_to_time(h.end_minute)
    )


# ---- reads --------------------------------------------------------------------------------------
def _ids_clause(
    session: AsyncSession, column: SQLColumnExpression[str | None], ids: Any
) -> ColumnElement[bool]:
    """`column IN (ids)` for a list of ids or a SELECT of them. On PostgreSQL a list is one array parameter
    (`= ANY`): a search's date filter checks a thousand candidates or more, and rendering a parameter per id
    cost more than the query."""
    if not isinstance(ids, list | tuple | set):
        return column.in_(ids)
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(literal(list(ids), ARRAY(String)))
    return column.in_(list(ids))


async def load_hours(session: AsyncSession, ids: Any) -> dict[str, tuple[Hours, ...]]:
    rows = await session.execute(
        select(WeeklyHours.provider_id, WeeklyHours.weekday, WeeklyHours.start_minute, WeeklyHours.end_minute)
        .where(_ids_clause(session, WeeklyHours.provider_id, ids))
        .order_by(WeeklyHours.provider_id, WeeklyHours.weekday, WeeklyHours.start_minute)
    )
    hours: dict[str, list[Hours]] = {}
    for provider_id, weekday, start, end in rows:
        hours.setdefault(provider_id, []).append(Hours(weekday, start, end))
    return {pid: tuple(h) for pid, h in hours.items()}


async def load_blocks(
    session: AsyncSession, ids: Any, start: datetime, end: datetime, now: datetime | None = None
) -> tuple[dict[str, list[Interval]], dict[str, list[Interval]]]:
    """(busy, blocked) intervals overlapping [start, end): live appointments at `now`, and time off (one
    statement)."""
    moment = DateTime(timezone=True)
    time_off = select(
        literal("blocked").label("kind"),
        TimeOff.provider_id,
        type_coerce(TimeOff.starts_at, moment).label("starts_at"),
        type_coerce(TimeOff.ends_at, moment).label("ends_at"),
    ).where(_ids_clause(session, TimeOff.provider_id, ids), *_time_off_within(start, end))
    appointments = select(
        literal("busy"),
        Appointment.provider_id,
        type_coerce(Appointment.starts_at, moment),
        type_coerce(Appointment.ends_at, moment),
    ).where(
        _ids_clause(session, Appointment.provider_id, ids),
        *_busy_within(start, end, now or datetime.now(UTC)),
    )
    busy: dict[str, list[Interval]] = {}
    blocked: dict[str, list[Interval]] = {}
    for kind, provider_id, starts_at, ends_at in await session.execute(union_all(time_off, appointments)):
        into = busy if kind == "busy" else blocked
        into.setdefault(provider_id, []).append(Interval(as_utc(starts_at), as_utc(ends_at)))
    return busy, blocked


def _time_off_within(start: datetime, end: datetime) -> tuple[ColumnElement[bool], ...]:
    """Time off overlapping [start, end) (what `load_blocks` reads as blocked)."""
    return (TimeOff.ends_at > start, TimeOff.starts_at < end)


def _busy_within(start: datetime, end: datetime, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """Appointments keeping their provider busy at some point of [start, end) (what `load_blocks` reads as busy)."""
    return (live_appointment(now), Appointment.busy_until > start, Appointment.starts_at < end)


def free_within(
    provider_id: Any, start: datetime, end: datetime, now: datetime
) -> tuple[ColumnElement[bool], ...]:
    """SQL conditions: the provider (a column) has neither time off nor a live appointment overlapping
    [start, end), so `load_blocks` would find nothing for it (two probes of the providers' indexes)."""
    return (
        ~exists().where(TimeOff.provider_id == provider_id, *_time_off_within(start, end)),
        ~exists().where(Appointment.provider_id == provider_id, *_busy_within(start, end, now)),
    )


def _calendars_statement() -> CompoundSelect[str, str, int, int, int, datetime, datetime]:
    """`load_calendars`' statement, built once: ids, start, end and now are parameters. Its columns are
    typed as the first SELECT's (the weekly hours), as the UNION's are; the other rows' hours are NULL."""
    ids: BindParameter[list[str]] = bindparam("ids", expanding=True)
    start: BindParameter[datetime] = bindparam("start")
    end: BindParameter[datetime] = bindparam("end")
    now: BindParameter[datetime] = bindparam("now")
    minutes, moment = Integer(), DateTime(timezone=True)
    no_minute, no_moment = type_coerce(null(), minutes), type_coerce(null(), moment)
    weekly = select(
        literal("hours").label("kind"),
        WeeklyHours.provider_id,
        type_coerce(WeeklyHours.weekday, minutes).label("weekday"),
        type_coerce(WeeklyHours.start_minute, minutes).label("start_minute"),
        type_coerce(WeeklyHours.end_minute, minutes).label("end_minute"),
        no_moment.label("starts_at"),
        no_moment.label("ends_at"),
    ).where(WeeklyHours.provider_id.in_(ids))
    time_off = select(
        literal("blocked"),
        TimeOff.provider_id,
        no_minute,
        no_minute,
        no_minute,
        TimeOff.starts_at,
        TimeOff.ends_at,
    ).where(TimeOff.provider_id.in_(ids), TimeOff.ends_at > start, TimeOff.starts_at < end)
    busy_or_expired = case((live_appointment(now), literal("busy")), else_=literal("expired"))
    appointments = select(
        busy_or_expired, Appointment.provider_id, no_minute, no_minute, no_minute, Appointment.starts_at,
        Appointment.ends_at,
    ).where(
        Appointment.provider_id.in_(ids),
        Appointment.status != AppointmentStatus.cancelled,
        Appointment.busy_until > start,
        Appointment.starts_at < end,
    )  # fmt: skip
    return union_all(weekly, time_off, appointments)


async def load_calendars(
    session: AsyncSession, ids: list[str], start: datetime, end: datetime, now: datetime
) -> tuple[dict[str, tuple[Hours, ...]], dict[str, list[Interval]], dict[str, list[Interval]], set[str]]:
    """`load_hours` and `load_blocks` of a few providers in one statement (UNION ALL), plus the providers
    with an expired hold overlapping [start, end) (the no-overlap rule still sees its row):
    (hours, busy, blocked, with_expired_holds)."""
    hours: dict[str, list[Hours]] = {}
    busy: dict[str, list[Interval]] = {}
    blocked: dict[str, list[Interval]] = {}
    expired: set[str] = set()
    rows = await session.execute(_CALENDARS, {"ids": list(ids), "start": start, "end": end, "now": now})
    for kind, provider_id, weekday, start_minute, end_minute, starts_at, ends_at in rows:
        if kind == "hours":
            hours.setdefault(provider_id, []).append(Hours(weekday, start_minute, end_minute))
        elif kind == "expired":
            expired.add(provider_id)
        else:
            into = busy if kind == "busy" else blocked
            into.setdefault(provider_id, []).append(Interval(as_utc(starts_at), as_utc(ends_at)))
    ordered = {pid: tuple(sorted(h, key=lambda x: (x.weekday, x.start_minute))) for pid, h in hours.items()}
    return ordered, busy, blocked, expired


def live_appointment(now: datetime | BindParameter[datetime]) -> ColumnElement[bool]:
    """Appointments that keep a provider busy: not cancelled, and holds only until they expire."""
    return and_(
        Appointment.status != AppointmentStatus.cancelled,
        or_(Appointment.status != AppointmentStatus.held, Appointment.hold_expires_at > now),
    )


_CALENDARS = _calendars_statement()  # after live_appointment, which it uses


class SlotFinder:
    """First open slots of many providers for one moment, window and visit length.

    `unblocked(zone, schedule)` is the first slot ignoring busy time: computed once per distinct schedule
    and, because busy time only removes starts, a lower bound of every such provider's real first slot.
    `load(ids)` fetches the busy and blocked time of some providers (one query per source, only for ids
    not loaded yet); `exact` then gives their real first slot.
    """

    def __init__(
        self,
        *,
        now: datetime,
        minutes: int,
        not_before: datetime | None = None,
        before: datetime | None = None,
    ) -> None:
        settings = get_settings()
        self.now, self.not_before, self.before = now, not_before, before
        self.rules = slot_rules(minutes)
        buffer = timedelta(minutes=flags.travel_buffer_minutes())
        end = now + timedelta(days=settings.slot_horizon_days, minutes=1)
        self.window = (
            max(now, not_before or now) - buffer,
            (min(end, before) if before is not None else end) + buffer,
        )
        self.busy: dict[str, list[Interval]] = {}
        self.blocked: dict[str, list[Interval]] = {}
        self._loaded: set[str] = set()
        self._loaded_all = False
        self._unblocked: dict[tuple[str, str], datetime | None] = {}
        self._exact: dict[str, datetime | None] = {}

    def _arguments(self, time_zone: str, schedule: str) -> dict[str, Any]:
        return {
            "hours": parse_schedule(schedule),
            "time_zone": time_zone,
            "now": self.now,
            "rules": self.rules,
            "not_before": self.not_before,
            "before": self.before,
        }

    def unblocked(self, time_zone: str, schedule: str) -> datetime | None:
        key = (time_zone, schedule)
        if key not in self._unblocked:
            self._unblocked[key] = next(generate_slots(**self._arguments(time_zone, schedule)), None)
        return self._unblocked[key]

    async def load(self, session: AsyncSession, ids: Iterable[str] | Any) -> None:
        """Busy and blocked time of these providers (a list of ids, or a SELECT of them) in the window."""
        if isinstance(ids, list | tuple | set | dict):
            ids = [pid for pid in ids if pid not in self._loaded]
            if not ids or self._loaded_all:
                return
            self._loaded.update(ids)
        else:
            self._loaded_all = True  # a SELECT of every candidate: later loads are for some of them
        busy, blocked = await load_blocks(session, ids, *self.window, self.now)
        for target, found in ((self.busy, busy), (self.blocked, blocked)):
            for pid, intervals in found.items():
                target.setdefault(pid, []).extend(intervals)

    def free(self, provider_id: Any) -> tuple[ColumnElement[bool], ...]:
        """SQL conditions: the provider (a column) has no busy or blocked time in the window, so its first
        slot is `unblocked` (what `exact` gives without a `load`)."""
        return free_within(provider_id, *self.window, self.now)

    def constrained(self, provider_id: str) -> bool:
        return provider_id in self.busy or provider_id in self.blocked

    def exact(self, provider_id: str, time_zone: str, schedule: str) -> datetime | None:
        """The real first slot (call `load` for the provider first)."""
        if not self.constrained(provider_id):
            return self.unblocked(time_zone, schedule)
        if provider_id not in self._exact:
            self._exact[provider_id] = next(
                generate_slots(
                    **self._arguments(time_zone, schedule),
                    busy=self.busy.get(provider_id, ()),
                    blocked=self.blocked.get(provider_id, ()),
                ),
                None,
            )
        return self._exact[provider_id]


async def next_slots(
    *,
    session: AsyncSession,
    providers: dict[str, tuple[str, str]],
    minutes: int,
    now: datetime | None = None,
    not_before: datetime | None = None,
    before: datetime | None = None,
) -> dict[str, datetime | None]:
    """The first open slot of each provider (id → (time zone, schedule key)), in a fixed number of queries."""
    finder = SlotFinder(now=now or datetime.now(UTC), minutes=minutes, not_before=not_before, before=before)
    await finder.load(session, list(providers))
    return {pid: finder.exact(pid, tz, schedule) for pid, (tz, schedule) in providers.items()}


async def list_slots(
    *,
    session: AsyncSession,
    provider_id: str,
    duration_minutes: int,
    day: date,
    time_zone: str,
    now: datetime | None = None,
) -> list[datetime]:
    """Open start times (UTC) of a provider on a calendar day of `time_zone` (the visitor's zone)."""
    provider = await session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    start, end = day_bounds(day, time_zone)
    return await open_slots(
        session,
        provider_id=provider_id,
        provider_zone=provider.time_zone,
        duration_minutes=duration_minutes,
        start=start,
        end=end,
        now=now or datetime.now(UTC),
    )


async def open_slots(
    session: AsyncSession,
    *,
    provider_id: str,
    provider_zone: str,
    duration_minutes: int,
    start: datetime,
    end: datetime,
    now: datetime,
) -> list[datetime]:
    """Open start times (UTC) of a provider in [start, end): three queries for a window of any length."""
    hours = await load_hours(session, [provider_id])
    buffer = timedelta(minutes=flags.travel_buffer_minutes())
    busy, blocked = await load_blocks(session, [provider_id], start - buffer, end + buffer, now)
    return list(
        generate_slots(
            hours=hours.get(provider_id, ()),
            time_zone=provider_zone,
            now=now,
            rules=slot_rules(duration_minutes),
            busy=busy.get(provider_id, ()),
            blocked=blocked.get(provider_id, ()),
            not_before=start,
            before=end,
        )
    )
