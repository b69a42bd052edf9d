"""What an administrator may switch without a restart: the feature toggles of the admin console and the
business settings of the owners' staff settings (none of them secrets). Each names its kind, its choices and
its default: the server's own setting, so one nobody touched changes nothing. Only features that exist are
listed here (a toggle for a screen not built yet would be a switch that does nothing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.settings import get_settings


@dataclass(frozen=True)
class Feature:
    key: str
    label: str
    description: str
    kind: str  # switch, choice, date, email, minutes, count, percent (a string, '2.5') or money ('6.95')
    default: Callable[[], Any]  # the server's setting, as the toggle's value
    choices: tuple[tuple[str, str], ...] = field(default=())
    group: str = "toggle"  # toggle: the admin console; business: the owners' staff settings
    most_cents: int = 50_000  # a money setting's largest amount ($500.00 unless the setting says more)


def _sale_day() -> str:
    day = get_settings().flash_sale_day
    return day.isoformat() if day else ""


FEATURES: tuple[Feature, ...] = (
    Feature(
        "signups",
        "Sign-ups",
        "Open: anyone may create an account. Waitlist: /register takes an e-mail address and an "
        "administrator invites people from the waitlist.",
        "choice",
        lambda: get_settings().signups,
        (("open", "Open"), ("waitlist", "Waitlist")),
    ),
    Feature(
        "flash_sale",
        "Flash sale",
        "The 24-hour sale: 30 % off IV therapy, with the banner across the site.",
        "switch",
        lambda: get_settings().flash_sale_enabled,
    ),
    Feature(
        "flash_sale_day",
        "Flash sale day",
        "The one day the sale runs (in the sale's time zone); empty for every day.",
        "date",
        _sale_day,
    ),
    Feature(
        "store",
        "Store",
        "Patients browse and order products at /dashboard/store. Off: the store says it is closed, nothing can "
        "be added to a cart or ordered; orders already placed are still fulfilled.",
        "switch",
        lambda: True,
    ),
    Feature(
        "forum_posting",
        "Forum posting",
        "Members may start topics, reply, like and flag in the forum. Off: the forum stays readable and "
        "says posting is paused; moderators still work the queue.",
        "switch",
        lambda: True,
    ),
    Feature(
        "assistant_llm",
        "Assistant language model",
        "The AI assistant phrases its answers with the language model set by LLM_BASE_URL and LLM_MODEL. "
        "Off (or with no model set): it answers with the help-center and catalog passages themselves.",
        "switch",
        lambda: True,
    ),
)
BUSINESS: tuple[Feature, ...] = (
    Feature(
        "support_email",
        "Support e-mail address",
        "Where bug reports go, and the address patients are given in visit e-mails and security notices.",
        "email",
        lambda: get_settings().support_email,
        group="business",
    ),
    Feature(
        "travel_buffer_minutes",
        "Travel time between visits (minutes)",
        "Kept free after each visit so the provider can reach the next address; new bookings respect it.",
        "minutes",
        lambda: get_settings().slot_travel_buffer_minutes,
        group="business",
    ),
    Feature(
        "forum_flag_threshold",
        "Flags that hide a forum post",
        "A post flagged by this many different members is hidden at once and waits in the moderation queue.",
        "count",
        lambda: 3,
        group="business",
    ),
    Feature(
        "payout_second_approval_above",
        "Second approval for payouts above",
        "A provider's payout request above this amount needs two different people holding Process payments "
        "to approve it; 0.00: every payout needs two.",
        "money",
        lambda: f"{get_settings().payout_second_approval_above:.2f}",
        group="business",
        most_cents=10_000_000,  # $100,000.00: the default ($1,000) is above the store's $500 cap
    ),
    # The store's money (issue 29 item 4). The defaults add nothing: retail carries no platform fee unless an
    # owner sets one, and an order costs its products' subtotal.
    Feature(
        "store_fee_percent",
        "Platform fee on store products (%)",
        "Added to each store order as a percentage of its products' subtotal; 0 for none. Visits keep their "
        "5 % fee whatever this says.",
        "percent",
        lambda: "0",
        group="business",
    ),
    Feature(
        "store_shipping",
        "Store shipping per order",
        "Added once to each store order, whatever it holds; 0.00 ships free.",
        "money",
        lambda: "0.00",
        group="business",
    ),
    Feature(
        "store_free_shipping_from",
        "Free shipping from",
        "A store order whose products' subtotal reaches this amount ships free; 0.00: shipping is never free.",
        "money",
        lambda: "0.00",
        group="business",
    ),
    Feature(
        "store_tax_percent",
        "Sales tax on store products (%)",
        "Collected on each store order as a percentage of its products' subtotal (shipping is not taxed); "
        "0 for none.",
        "percent",
        lambda: "0",
        group="business",
    ),
    # Who pays for a sale's discount (issue 29 item 6). Recorded on each visit's charge when it is booked, so
    # changing it later never changes a booked visit.
    Feature(
        "discount_funding",
        "Who pays for discounts",
        "During a sale (the flash sale's 30 % off IV therapy) the patient pays the discounted price. MediVisit: "
        "the provider still earns their full price and the platform's fee carries the discount. The provider: "
        "their earning is the discounted price. Visits already booked keep the choice they were booked with.",
        "choice",
        lambda: "platform",
        (
            ("platform", "MediVisit (the provider earns their full price)"),
            ("provider", "The provider (their earning is the discounted price)"),
        ),
        group="business",
    ),
)
# Which payment modes patients may choose at checkout (issue 29 item 1, `_payment_modes`). Card at booking
# works only with a card gateway configured (PAYMENT_GATEWAY=stripe): without one, pay at visit stays.
BUSINESS += (
    Feature(
        "payment_modes",
        "Payment modes at checkout",
        "How patients may pay for the visits they book. Card at booking (recommended) needs the card gateway "
        "(PAYMENT_GATEWAY=stripe); without it only pay at visit can be offered, so a marketplace always has "
        "a way to pay. Orders already placed keep the mode they were placed with.",
        "choice",
        lambda: "both",
        (
            ("both", "Card at booking or pay at visit (the patient chooses; card recommended)"),
            ("card", "Card at booking only"),
            ("visit", "Pay at visit only"),
        ),
        group="business",
    ),
)
BY_KEY = {feature.key: feature for feature in (*FEATURES, *BUSINESS)}
