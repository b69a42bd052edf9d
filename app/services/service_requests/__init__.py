"""Service requests → the providers' job board (issue 17): a patient asks for a visit the catalog or
directory doesn't satisfy right now and follows it (`_requests`); eligible providers (their services, the
reach of their service area, licence states) see it live on their board and send one offer each, which they
may withdraw (`_offers`); the patient accepts one and it is booked through the ordinary holds and checkout,
and is open again if that booking's payment fails (`_released`); live requests expire by a periodic job
(`_expiry`). The rules, limits and words live in `_rules`.

Its public surface: the names below (`__all__`).
"""

from app.services.service_requests._offers import (
    list_job_board,
    list_my_offers,
    list_offer_times,
    send_offer,
    withdraw_offer,
)
from app.services.service_requests._reads import SERVICE_REQUESTS_TOPIC
from app.services.service_requests._requests import (
    accept_offer,
    cancel_service_request,
    get_service_request,
    list_my_service_requests,
    post_service_request,
)
from app.services.service_requests._rules import (
    MAX_LIVE_PER_PATIENT,
    PRICE_CEILING,
    PRICE_FLOOR,
    price_bounds,
    reach_miles,
)

__all__ = [
    "MAX_LIVE_PER_PATIENT",
    "PRICE_CEILING",
    "PRICE_FLOOR",
    "SERVICE_REQUESTS_TOPIC",
    "accept_offer",
    "cancel_service_request",
    "get_service_request",
    "list_job_board",
    "list_my_offers",
    "list_my_service_requests",
    "list_offer_times",
    "post_service_request",
    "price_bounds",
    "reach_miles",
    "send_offer",
    "withdraw_offer",
]
