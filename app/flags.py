"""Feature toggles in effect in this process (issue 15 item 3), for code that cannot wait for the database.

An administrator's choices live in the `feature_settings` table (app/services/features writes them and
publishes TOPIC after commit); each process keeps a copy here, which app/services/features loads at
start-up and again on every TOPIC event (every worker hears it: app/events) and, as a safety net, every
REFRESH seconds. A key without a choice keeps the server's setting (SIGNUPS, FLASH_SALE_ENABLED,
FLASH_SALE_DAY, …), so nothing changes until an administrator acts. No database here: screens read it too.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from app.settings import get_settings

TOPIC = "features"
REFRESH = 30.0  # seconds

_choices: dict[str, Any] = {}


def replace(values: dict[str, Any]) -> None:
    _choices.clear()
    _choices.update(values)


def signups_mode() -> str:
    """'open' or 'waitlist' (SPEC §1: with the waitlist, /register takes an e-mail address instead)."""
    value = _choices.get("signups")
    return value if value in ("open", "waitlist") else get_settings().signups


def signups_closed() -> bool:
    """Nobody may create an account by themselves (DISABLE_SIGNUP, or sign-ups on the waitlist)."""
    return get_settings().disable_signup or signups_mode() == "waitlist"


def flash_sale_enabled() -> bool:
    value = _choices.get("flash_sale")
    return value if isinstance(value, bool) else get_settings().flash_sale_enabled


def flash_sale_day() -> date | None:
    """The sale's one day, or None for every day."""
    if "flash_sale_day" not in _choices:
        return get_settings().flash_sale_day
    value = _choices["flash_sale_day"]
    try:
        return date.fromisoformat(value) if value else None
    except (TypeError, ValueError):
        return get_settings().flash_sale_day


def support_email() -> str:
    value = _choices.get("support_email")
    return value if isinstance(value, str) and value else get_settings().support_email


def travel_buffer_minutes() -> int:
    """Minutes kept free after each visit (SLOT_TRAVEL_BUFFER_MINUTES unless an owner changed it)."""
    value = _choices.get("travel_buffer_minutes")
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool)
        else get_settings().slot_travel_buffer_minutes
    )


def store_open() -> bool:
    """Whether patients may add products to a cart and order them (on unless an administrator closed it)."""
    return enabled("store")


def forum_posting_open() -> bool:
    """Whether members may post, like and flag in the forum (reading never closes)."""
    return enabled("forum_posting")


def forum_flag_threshold() -> int:
    """How many members' flags hide a forum post (3 unless an owner changed it)."""
    value = _choices.get("forum_flag_threshold")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 3


def enabled(key: str, default: bool = True) -> bool:
    """A switch without a server setting of its own (e.g. the store): on unless an administrator said no."""
    value = _choices.get(key)
    return value if isinstance(value, bool) else default
