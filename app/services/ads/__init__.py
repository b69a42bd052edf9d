"""Self-serve ad placements (issue 17 part 4): advertisers book flights (SPEC §3 placements, dates, a budget,
one creative) priced per thousand views; staff with manage_ads review them, with a health-claim screening to
help; approved flights serve contextually from an in-memory snapshot, their views and clicks counted on the
server with billing hygiene; advertisers read their own figures. Ads are paid (issue 29 item 5, `_billing`,
`_statement`): an approved flight is prepaid by card on Stripe Checkout or runs on terms and is invoiced for
what it delivered; delivery paces across the flight; the advertiser reads a spend statement and downloads
the payment's receipt; the unspent budget of a flight that ends early goes back to the card.

Its public surface: the names below (`__all__`).
"""

from app.services.ads._billing import invoice_ad_flight, set_ad_invoicing, start_ad_payment
from app.services.ads._figures import get_ad_figures
from app.services.ads._flights import (
    FlightInvalid,
    edit_ad_creative,
    end_my_ad_flight,
    get_ad_availability,
    list_ad_flights,
    list_ad_prices,
    list_my_ad_flights,
    review_ad_flight,
    set_ad_flight_status,
    submit_ad_flight,
)
from app.services.ads._images import add_ad_image, open_ad_image
from app.services.ads._rules import (
    ADVERTISER_ROLES,
    FREQUENCY_CAP,
    PRICES,
    TOPIC,
    flight_problems,
    screen_claims,
    truncate_ip,
)
from app.services.ads._serving import (
    live_ads,
    record_ad_click,
    serve_ad,
)
from app.services.ads._statement import get_ad_receipt, get_ad_statement

__all__ = [
    "ADVERTISER_ROLES",
    "FREQUENCY_CAP",
    "FlightInvalid",
    "PRICES",
    "TOPIC",
    "add_ad_image",
    "edit_ad_creative",
    "end_my_ad_flight",
    "flight_problems",
    "get_ad_availability",
    "get_ad_figures",
    "get_ad_receipt",
    "get_ad_statement",
    "invoice_ad_flight",
    "list_ad_flights",
    "list_ad_prices",
    "list_my_ad_flights",
    "live_ads",
    "open_ad_image",
    "record_ad_click",
    "review_ad_flight",
    "screen_claims",
    "serve_ad",
    "set_ad_invoicing",
    "set_ad_flight_status",
    "start_ad_payment",
    "submit_ad_flight",
    "truncate_ip",
]
