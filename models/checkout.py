"""One checkout (issue 29 item 4): what placing a cart with visits and products returns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from models.booking import OrderRead
from models.store import StoreOrderRead


class CheckoutRead(BaseModel):
    """The visit order and the store order placed together from one cart (one payment), and the page to
    pay on when the card gateway collects it ("" otherwise: paid at the visit and on delivery)."""

    model_config = ConfigDict(frozen=True)

    order: OrderRead
    store_order: StoreOrderRead | None = None
    payment_url: str = ""

    @property
    def total_cents(self) -> int:
        """What the patient pays for the whole cart: the visits' total and the products' total."""
        visits = int((self.order.total * 100).to_integral_value())
        return visits + (self.store_order.total_cents if self.store_order else 0)
