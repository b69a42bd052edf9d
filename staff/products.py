"""Products (/staff/products, manage_services; issue 14 part 9): the store's products, searched by name or
category and paged in the URL (`?q=gauze&category=Vitamins&page=2`), with New product and Edit (name,
description, category, price, stock, active) in a dialog. What is typed is checked as the service checks it
(`product_problems`), each mistake beside its field, and the form keeps what was typed; app/services/store
checks the permission and audits every change. An existing product's photos (up to four, PNG, JPEG or
WebP) are uploaded from the browser to /api/store/products/{id}/images (static/js/uploads.js) and removed here;
the first one shows in the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.store import (
    create_product,
    get_product,
    list_products,
    product_problems,
    remove_product_image,
    update_product,
)
from app.settings import get_settings
from components import browser
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    Field,
    QueryView,
    SearchForm,
    Select,
    ServerForm,
    StaffCard,
    TextArea,
    UserText,
    browser_field,
    browser_select,
    dialog_actions,
    field_group,
    file_button,
    file_input,
    form_error,
    hint,
    list_href,
    page_param,
    staff_screen,
    upload_receiver,
)
from components.staff_frame import StaffFrame, StaffSection
from components.store_ui import money
from models.store import MAX_IMAGES, ProductCategory, ProductCreate, ProductPage, ProductRead

PATH = "/staff/products"
PAGE_SIZE = 25
NEW = "new"


def _first(params: dict[str, list[str]], name: str, limit: int = 80) -> str:
    return (params.get(name) or [""])[0].strip()[:limit]


def _href(**params: Any) -> str:
    return list_href(PATH, **params)


@component
def ProductsPage() -> Component:
    return StaffFrame(StaffSection(_Products, slug="products"), active="products")


@component
def _Products() -> VdomDict:
    params = use_search_params()
    search = _first(params, "q")
    category = _first(params, "category", 40)
    category = category if category in {c.value for c in ProductCategory} else ""
    page = page_param(params)
    query = use_query(list_products, search=search, category=category, page=page, page_size=PAGE_SIZE)
    editing_state: State[str | ProductRead | None] = use_state(None)  # NEW or a ProductRead
    editing, set_editing = editing_state
    return staff_screen(
        "Products",
        StaffCard(
            "Products",
            _filters(search, category),
            QueryView(
                query,
                lambda data: _table(data, search, category, set_editing),
                is_empty=lambda data: data is None,
                loading_label="Loading products…",
            ),
            title_id="products-title",
            head=(Button("New product", icon="plus", on_click=lambda: set_editing(NEW)),),
        ),
        _Editor(editing, query, on_close=lambda: set_editing(None), key=_editor_key(editing))
        if editing
        else "",
        lead="What the store sells: prices, stock and whether patients can see each product.",
    )


def _editor_key(editing: Any) -> str:
    return "editor new" if editing == NEW else f"editor {getattr(editing, 'id', '')}"


def _filters(search: str, category: str) -> VdomDict:
    return SearchForm(
        browser_field(
            "Name or category", "q", value=search, type="search", id_prefix="products", max_length=80
        ),
        browser_select(
            "Category",
            "category",
            options=[("", "All categories"), *((c.value, c.value) for c in ProductCategory)],
            value=category,
            id_prefix="products",
        ),
        action=PATH,
        label="Find products",
        key=f"filters {search} {category}",
        clear_href=PATH,
        class_name="form audit-filters store-filters",
    )


def _table(data: ProductPage, search: str, category: str, edit: Callable[[Any], None]) -> VdomDict:
    def actions(product: ProductRead) -> VdomDict:
        return Button(
            "Edit",
            size="sm",
            variant="outline",
            on_click=lambda: edit(product),
            aria_label=f"Edit {product.name}",
        )

    def stock(product: ProductRead) -> Any:
        if product.stock <= 0:
            return Badge("Out of stock", tone="danger")
        return str(product.stock)

    columns = [
        Column("name", "Name", render=lambda p: UserText(p.name)),
        Column("category", "Category"),
        Column("price_cents", "Price", render=lambda p: money(p.price_cents), numeric=True),
        Column("stock", "Stock", render=stock, numeric=True),
        Column(
            "active",
            "In the store",
            render=lambda p: Badge("Shown", tone="success") if p.active else Badge("Hidden", tone="neutral"),
        ),
        Column("actions", "Actions", render=actions),
    ]
    return DataTable(
        columns,
        data.items,
        caption="Products",
        page=data.page,
        page_size=data.page_size,
        total=data.total,
        page_href=lambda number: _href(q=search, category=category, page=number),
        row_key=lambda p: p.id,
        empty="No products match." if search or category else "No products yet. Add the first one.",
    )


@component
def _Editor(editing: Any, query: Query, on_close: Callable[[], None]) -> Any:
    session = use_session()
    product: ProductRead | None = None if editing == NEW else editing
    form = use_form(
        name=product.name if product else "",
        description=product.description if product else "",
        category=product.category if product else ProductCategory.medical_supplies.value,
        price=f"{product.price_cents / 100:.2f}" if product else "",
        stock=str(product.stock) if product else "0",
        active=product.active if product else True,
    )
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    problem, set_problem = use_state("")

    def saved(result: ProductRead) -> None:
        session.toaster.success("Product saved", result.name)
        on_close()

    action = use_action(
        update_product if product else create_product, refetch=[query], on_success=saved, on_error=set_problem
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        data = ProductCreate(
            name=str(values.get("name", ""))[:500],
            description=str(values.get("description", ""))[:10_000],
            category=str(values.get("category", ""))[:64],
            price=str(values.get("price", ""))[:32],
            stock=str(values.get("stock", ""))[:16],
            active=bool(values.get("active", True)),
        )
        found = product_problems(data)
        set_errors(found)
        set_problem("")
        if found:
            return
        if product:
            await action.run(product_id=product.id, data=data)
        else:
            await action.run(data=data)

    title = f"Edit {product.name}" if product else "New product"
    return Dialog(
        title,
        ServerForm(
            form_error(problem),
            Field(
                "Name",
                "name",
                form=form,
                id="product-name",
                required=True,
                max_length=120,
                error=errors.get("name"),
                class_name="field-name",
            ),
            TextArea(
                "Description",
                "description",
                form=form,
                id="product-description",
                rows=4,
                max_length=2000,
                error=errors.get("description"),
                class_name="field-description",
                hint="What it is and what is in the box. No medical claims.",
            ),
            Select(
                "Category",
                "category",
                form=form,
                id="product-category",
                options=[(c.value, c.value) for c in ProductCategory],
                error=errors.get("category"),
            ),
            Field(
                "Price (USD)",
                "price",
                form=form,
                id="product-price",
                required=True,
                max_length=12,
                input_mode="decimal",
                placeholder="12.50",
                error=errors.get("price"),
            ),
            Field(
                "Units in stock",
                "stock",
                form=form,
                id="product-stock",
                required=True,
                max_length=7,
                input_mode="numeric",
                error=errors.get("stock"),
            ),
            Checkbox("Shown in the store", "active", form=form, id="product-active"),
            _Photos(product.id, query) if product else "",
            html.div(
                {"class_name": "product-form-actions"},
                dialog_actions(
                    Button("Cancel", variant="ghost", on_click=on_close),
                    Button("Save product", type="submit", pending=action.pending, pending_label="Saving…"),
                ),
            ),
            on_submit=submit,
            id="product-form",
            class_name="product-form",
        ),
        open=True,
        on_close=on_close,
        description="Patients see shown products in the store; stock goes down as they order.",
        id="product-dialog",
        busy=action.pending,
    )


@component
def _Photos(product_id: str, listing: Query) -> VdomDict:
    """The product's photos with a Remove button each, and Add a photo (uploaded by the browser)."""
    query = use_query(get_product, product_id=product_id)
    problem, set_problem = use_state("")
    remove = use_action(remove_product_image, refetch=[query, listing], on_error=set_problem)

    def uploaded(_event: dict) -> None:
        set_problem("")
        query.refetch()
        listing.refetch()

    images = query.data.images if query.data else []
    name = query.data.name if query.data else ""
    return field_group(
        "Photos",
        hint(f"Up to {MAX_IMAGES} PNG, JPEG or WebP photos; the first shows in the store."),
        form_error(problem),
        html.ul(
            {"class_name": "product-thumbs"},
            *[
                html.li(
                    {"key": image.id},
                    html.img({"src": image.url, "alt": f"Photo {number} of {name}"}),
                    Button(
                        "Remove",
                        size="sm",
                        variant="ghost",
                        on_click=lambda image_id=image.id: remove.run(image_id=image_id),
                        disabled=remove.pending,
                        aria_label=f"Remove photo {number}",
                    ),
                )
                for number, image in enumerate(images, start=1)
            ],
        )
        if images
        else "",
        file_button("Add a photo", input_id="product-photo-file") if len(images) < MAX_IMAGES else "",
        file_input(
            "product-photo-file",
            accept="image/png,image/jpeg,image/webp",
            max_bytes=get_settings().upload_max_bytes,
            url=f"/api/store/products/{product_id}/images",
        ),
        upload_receiver(uploaded),
        class_name="field product-photos",
        attributes=browser.upload_scope(),
        legend_class="label",
    )
