"""How orders are paid on this site, for screens (checkout's payment line, the order page, the wallet's
cards section): read from the settings, no database."""

from __future__ import annotations

from app.services.payments._gateways import get_gateway
from models.payment import PaymentOptionsRead


def get_payment_options() -> PaymentOptionsRead:
    """The configured gateway's name and label, whether orders are paid online when placed, and whether
    patients have cards on file."""
    gateway = get_gateway()
    online = gateway.collects_at_order and gateway.confirms_later
    return PaymentOptionsRead(
        gateway=gateway.name, label=gateway.label, pays_online=online, cards_on_file=online
    )
