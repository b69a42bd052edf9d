"""Display rules shared by every screen: money, dates and the cart badge (SPEC §2, §9)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

BADGE_CAP = 9


def cart_badge_text(count: int) -> str | None:
    """The cart badge: nothing for an empty cart, the count, or '9+' above 9."""
    if count <= 0:
        return None
    return f"{BADGE_CAP}+" if count > BADGE_CAP else str(count)


def format_currency(amount: Decimal | float | int) -> str:
    """US dollars (SPEC: 0 to 2 fraction digits): none for whole dollars, both when there are cents —
    $120, $89.50, $1,234.56 (never $89.5)."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    text = f"{abs(value):,.2f}".removesuffix(".00")
    return f"{sign}${text}"


def format_money(amount: Decimal | float | int) -> str:
    """Money in a ledger (wallet, earnings, statements): always two decimals — $120.00, $89.50, -$5.00."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def format_date(value: date | datetime) -> str:
    """Abbreviated month, day, four-digit year: 'Nov 21, 2026'."""
    return f"{value:%b} {value.day}, {value:%Y}"


def initials(name: str | None) -> str:
    """Avatar fallback: uppercase initials of the words of the name, or 'U'."""
    letters = "".join(word[0] for word in (name or "").split() if word)
    return letters.upper() or "U"


def format_minutes(minutes: int) -> str:
    """A visit length: '30 min', '1 hr', '1 hr 30 min'."""
    hours, rest = divmod(int(minutes), 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} hr" + (f" {rest} min" if rest else "")


def format_slot(moment: datetime, time_zone: str) -> str:
    """A visit start in the visitor's zone: 'Mon, Nov 23, 2026, 9:00 AM EST'."""
    from zoneinfo import ZoneInfo

    local = moment.astimezone(ZoneInfo(time_zone))
    hour = local.hour % 12 or 12
    return (
        f"{local:%a}, {format_date(local)}, {hour}:{local:%M} {'AM' if local.hour < 12 else 'PM'} {local:%Z}"
    )


def format_time(moment: datetime, time_zone: str) -> str:
    """A clock time in the visitor's zone: '9:05 AM'."""
    from zoneinfo import ZoneInfo

    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


def format_rating(average: Decimal | float) -> str:
    """A star average with one decimal: '4.8'."""
    return f"{Decimal(str(average)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}"
