"""The cart in the UI: the connection's cart owner, the hooks that read and change the cart through
`components/hooks.py`, the badge leaf, the loader the root mounts, and the Add to cart button.

The cart itself lives in the session's `CartHandle` (components/context.py): every command's result and
every reload lands there, and only the components subscribed to it (badges, panel) re-render.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from reactpy import component, html, use_memo, use_state
from reactpy.types import VdomDict

from app.services.cart import CartOwner, add_to_cart, cart_topic, load_cart
from components.context import CartHandle, use_session
from components.effects import use_effect
from components.format import cart_badge_text
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from models.cart import CartChange, CartRead

# Said wherever a "from" price is summed (the cart panel, the checkout summary).
ESTIMATE_NOTE = (
    "Each provider sets their own price: you see the exact price when you choose a time at checkout."
)


def use_cart_owner() -> CartOwner:
    """Whose cart this connection shows: the signed-in user, else the visitor cookie (never browser input)."""
    session = use_session()
    user_id = session.user.id if session.user else None
    return use_memo(lambda: CartOwner(user_id=user_id, visitor_id=session.visitor_id or None), [user_id])


def use_cart() -> CartHandle:
    """The session's cart handle; the calling component re-renders whenever the cart changes."""
    handle = use_session().cart
    _, set_version = use_state(0)

    @use_effect(dependencies=[handle])
    def subscribe() -> Callable[[], None]:
        return handle.subscribe(lambda: set_version(lambda v: v + 1))

    return handle


def use_cart_command(
    fn: Callable[..., Awaitable[CartChange]],
) -> tuple[Callable[..., Awaitable[CartChange | None]], bool]:
    """Run a cart command for this connection's owner: the new cart goes to the handle, the message to a
    toast, and the panel opens when a new item was added. Returns (run, pending); a run while one is in
    flight (a double click) is ignored."""
    session = use_session()
    owner = use_cart_owner()

    def done(change: CartChange) -> None:
        session.cart.set(change.cart)
        session.toaster.success(change.message)
        if change.added:
            session.cart.open()

    action = use_action(fn, on_success=done)  # exclusive: a run while one is in flight is refused

    async def run(**kwargs: Any) -> CartChange | None:
        session.cart.command_started()
        change = None
        try:
            change = await action.run(owner=owner, **kwargs)
        finally:
            session.cart.command_ended(change.cart if change else None)
        return change

    return run, action.pending


@component
def CartSync() -> VdomDict:
    """Loads the connection's cart into the handle (merging a visitor cart into the signed-in user's),
    and again whenever the owner's cart changes in another tab or worker."""
    session = use_session()
    owner = use_cart_owner()
    loaded = use_query(load_cart, owner=owner)
    session.cart.reloads_with(loaded.refetch)
    topic = cart_topic(owner)

    def news(payload: dict[str, Any]) -> bool:
        session.cart.announced(payload.get("revision"))
        return False  # the handle decides whether to read the cart again

    use_topic(*([topic] if topic else []), on_event=news)

    @use_effect(dependencies=[loaded.data, loaded.error])
    def publish() -> None:
        if loaded.data is not None:
            session.cart.set(loaded.data)
        elif loaded.error is not None:
            session.cart.fail(loaded.error)

    return html._()


@component
def CartBadge() -> VdomDict:
    """The number of visits in the cart ('9+' above 9), read out in full after the button's name ("Cart
    (12 items)"); nothing while the cart is empty."""
    cart: CartRead | None = use_cart().cart
    count = cart.totals.item_count if cart else 0
    text = cart_badge_text(count)
    if text is None:
        return html._()
    noun = "item" if count == 1 else "items"
    return html.span(
        {"class_name": "badge-count"},
        html.span({"aria-hidden": "true"}, text),
        html.span({"class_name": "sr-only"}, f" ({count} {noun})"),
    )


@component
def AddToCartButton(
    service_slug: str, provider_id: str | None = None, label: str = "Add to cart"
) -> VdomDict:
    """Adds one visit of the service (with the provider, when given) to this connection's cart."""
    add, pending = use_cart_command(add_to_cart)

    async def click(_event: dict) -> None:
        await add(service_slug=service_slug, provider_id=provider_id)

    return html.button(
        {
            "class_name": "btn btn-primary add-to-cart",
            "type": "button",
            "disabled": pending,
            "aria-busy": "true" if pending else "false",
            "on_click": click,
        },
        icon("cart", size=18),
        html.span("Adding…" if pending else label),
    )
