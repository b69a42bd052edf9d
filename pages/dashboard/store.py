"""Store (/dashboard/store; issue 14 part 9): the patient browses the store's products by category and
search (both in the URL, `?category=Vitamins&q=d3&page=2`), sees each product's photo, price and stock
("Only 3 left", "Out of stock": then it can't be added), adds products to the site's cart (checked out at
/checkout with a shipping address), and follows their orders under "My orders" (`?tab=orders`): each order's
status and fulfilment status, and the tracking number once shipped. Everything comes from
app/services/store.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app import flags
from app.services.notifications import notifications_topic
from app.services.store import PAGE_SIZE, list_my_store_orders, list_store_products
from components.browser import client_get_form
from components.context import use_session
from components.hooks import use_query, use_topic
from components.icons import icon
from components.kit import (
    Badge,
    PageLinks,
    QueryView,
    TabPanel,
    Tabs,
    UserText,
    browser_field,
    browser_select,
    button_link,
    dashboard_header,
    empty_state,
    filter_actions,
    list_href,
    portal_body,
)
from components.store_ui import AddProductButton, money, order_card, product_image, stock_line
from models.store import ProductCategory, ProductPage, ProductRead, StoreOrderPage

PATH = "/dashboard/store"
TABS = (("products", "Products"), ("orders", "My orders"))
MAX_PAGE = 1000
ORDERS_PAGE = 10


def _first(params: dict[str, list[str]], name: str, limit: int = 80) -> str:
    return (params.get(name) or [""])[0].strip()[:limit]


def _page(text: str) -> int:
    return min(int(text), MAX_PAGE) if text.isdigit() and int(text) > 0 else 1


def _href(**params: Any) -> str:
    return list_href(PATH, **params)


@component
def StorePage() -> VdomDict:
    params = use_search_params()
    tab = _first(params, "tab", 20) or "products"
    tab = tab if tab in dict(TABS) else "products"
    category = _first(params, "category", 40)
    category = category if category in {c.value for c in ProductCategory} else ""
    search = _first(params, "q")
    page = _page(_first(params, "page", 6))
    placed = _first(params, "placed", 16)
    placed = placed if placed.startswith("MS-") and placed[3:].isalnum() else ""
    return html.div(
        {"class_name": "portal store"},
        dashboard_header(
            "Store", lead="Health and home-care supplies shipped to your door. Pay on delivery."
        ),
        portal_body(
            Tabs(
                TABS,
                tab,
                label="Store",
                href=lambda key: _href(tab=key if key != "products" else ""),
                id="store-tabs",
            ),
            html.p(
                {"class_name": "notice", "role": "status"},
                icon("check", size=18),
                f"Order {placed} placed. We'll e-mail you as it is processed and shipped.",
            )
            if placed and tab == "orders"
            else "",
            TabPanel(
                tab,
                (
                    _Products(category, search, page, key=f"products {category} {search} {page}")
                    if flags.store_open()
                    else _closed()
                )
                if tab == "products"
                else _Orders(page, key=f"orders {page}"),
                id="store-tabs",
            ),
        ),
    )


def _closed() -> VdomDict:
    return empty_state(
        "The store is closed for now",
        "You can't order products at the moment. Orders you already placed are still on their way: follow "
        "them under My orders.",
        icon_name="package",
        action=button_link("My orders", _href(tab="orders"), variant="outline"),
    )


def _filters(category: str, search: str) -> VdomDict:
    return html.form(
        {
            "key": f"filters {category} {search}",
            "class_name": "form audit-filters store-filters",
            "method": "get",
            "action": PATH,
            "role": "search",
            "aria-label": "Find products",
            **client_get_form(),
        },
        browser_field(
            "Search",
            "q",
            value=search,
            type="search",
            id_prefix="store",
            max_length=80,
            placeholder="Gauze, vitamin D…",
        ),
        browser_select(
            "Category",
            "category",
            options=[("", "All categories"), *((c.value, c.value) for c in ProductCategory)],
            value=category,
            id_prefix="store",
        ),
        filter_actions("Search", clear_href=PATH),
    )


@component
def _Products(category: str, search: str, page: int) -> VdomDict:
    query = use_query(list_store_products, category=category, search=search, page=page, page_size=PAGE_SIZE)
    return html._(
        _filters(category, search),
        QueryView(
            query,
            lambda data: _grid(data, category, search),
            is_empty=lambda data: data is None,
            loading_label="Loading products…",
        ),
    )


def _grid(data: ProductPage, category: str, search: str) -> VdomDict:
    if not data.items:
        return empty_state(
            "No products match" if category or search else "The store is empty for now",
            "Try another category or search." if category or search else "Products will appear here.",
            icon_name="search",
        )
    shown = f"{data.total} product" + ("" if data.total == 1 else "s")
    return html.section(
        {"aria-label": "Products"},
        html.p({"class_name": "hint store-count", "role": "status"}, shown),
        html.ul({"class_name": "store-grid"}, *[_card(p) for p in data.items]),
        PageLinks(
            data.page,
            data.total,
            data.page_size,
            href=lambda n: _href(category=category, q=search, page=n),
            label="Pages of products",
        ),
    )


def _card(product: ProductRead) -> VdomDict:
    title_id = f"product-{product.id}"
    return html.li(
        {"key": product.id, "class_name": "store-card", "aria-labelledby": title_id},
        product_image(product),
        html.div(
            {"class_name": "store-card-body"},
            Badge(product.category, tone="neutral"),
            html.h2({"id": title_id, "class_name": "store-card-title"}, UserText(product.name)),
            html.p({"class_name": "store-card-text"}, UserText(product.description))
            if product.description
            else "",
            html.div(
                {"class_name": "store-card-foot"},
                html.p({"class_name": "store-price"}, money(product.price_cents)),
                stock_line(product.stock),
            ),
            AddProductButton(product),
        ),
    )


@component
def _Orders(page: int) -> VdomDict:
    session = use_session()
    query = use_query(list_my_store_orders, page=page, page_size=ORDERS_PAGE)
    # Each fulfilment step notifies the patient: their orders reload with it.
    user_id = session.user.id if session.user else ""
    use_topic(*([notifications_topic(user_id)] if user_id else []), refetch=[query])
    return QueryView(query, _orders, is_empty=lambda data: data is None, loading_label="Loading your orders…")


def _orders(data: StoreOrderPage) -> VdomDict:
    if not data.items:
        return empty_state(
            "No store orders yet",
            "Products you order from the store will appear here with their delivery status.",
            icon_name="cart",
            action=button_link("Browse products", PATH),
        )
    return html.section(
        {"class_name": "store-orders", "aria-label": "My orders"},
        *[order_card(order, heading_level="h2") for order in data.items],
        PageLinks(
            data.page,
            data.total,
            data.page_size,
            href=lambda n: _href(tab="orders", page=n),
            label="Pages of orders",
        ),
    )
