"""The tab's cart handle reads the cart again only when the announced cart is not the one it shows: its own
command's result is not read a second time, another tab's change always is."""

from __future__ import annotations

from decimal import Decimal

from components.context import CartHandle
from models.cart import CartRead, CartTotals


def cart(count: int) -> CartRead:
    return CartRead(
        items=[],
        totals=CartTotals(
            subtotal=Decimal(count), platform_fee=Decimal(0), total=Decimal(count), item_count=count
        ),
    )


def handle_showing(shown: CartRead | None) -> tuple[CartHandle, list[int]]:
    handle, reloads = CartHandle(), []
    handle.reloads_with(lambda: reloads.append(1))
    if shown is not None:
        handle.set(shown)
    return handle, reloads


def test_news_of_the_cart_shown_reads_nothing_and_any_other_news_reads_it_again() -> None:
    handle, reloads = handle_showing(cart(1))
    handle.announced(cart(1).revision)
    assert reloads == []
    handle.announced(cart(2).revision)  # another tab added a visit
    handle.announced(None)  # a change whose result was not known (items withdrawn on a read)
    assert reloads == [1, 1]


def test_news_during_the_tabs_own_command_waits_for_its_result() -> None:
    handle, reloads = handle_showing(cart(1))
    handle.command_started()
    handle.announced(cart(2).revision)  # the command's own announcement, heard before its result
    assert reloads == []
    handle.set(cart(2))
    handle.command_ended(cart(2))
    assert reloads == []

    handle.command_started()
    handle.announced(cart(4).revision)  # another tab's change landed after this command's
    handle.command_ended(cart(3))
    assert reloads == [1]

    handle.command_started()
    handle.announced(cart(5).revision)
    handle.command_ended(None)  # the command failed: what was announced is not shown
    assert reloads == [1, 1]


def test_a_cart_never_loaded_is_read_on_any_news() -> None:
    handle, reloads = handle_showing(None)
    handle.announced(cart(1).revision)
    assert reloads == [1]
