"""Store product photos over HTTP (api/store_images.py): staff with manage_services upload PNG, JPEG or
WebP photos (at most four a product), everybody else is refused with a machine-readable error, and the
photo is served back with its type; a removed photo is gone."""

from __future__ import annotations

import pytest

from app.services.store import create_product, remove_product_image
from app.settings import get_settings
from models.account import Role
from models.store import ProductCreate
from tests import factories
from tests.api.test_uploads import CSRF, JPEG, PDF, PNG, browser  # noqa: F401 - the fixture

PRODUCT = ProductCreate(name="Digital oral thermometer", category="Health Tech", price="14.99", stock="5")


@pytest.fixture
def uploads(tmp_path, monkeypatch) -> None:  # noqa: PT004
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()


async def test_staff_add_photos_and_everyone_sees_them(browser, uploads) -> None:  # noqa: F811
    owner = await browser(Role.owner)
    patient = await browser(Role.patient)
    product = await factories.run(create_product, actor=owner.actor, data=PRODUCT)
    url = f"/api/store/products/{product.id}/images"

    async def post(who, name: str, data: bytes, csrf: str | None = CSRF):  # noqa: ANN001, ANN202
        headers = {"X-CSRF-Token": csrf} if csrf else {}
        return await who.client.post(url, files={"file": (name, data)}, headers=headers)

    refused = await post(patient, "photo.png", PNG)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert (await post(owner, "photo.png", PNG, csrf=None)).json()["code"] == "csrf_failed"
    assert (await post(owner, "leaflet.pdf", PDF)).status_code == 415
    missing = await owner.client.post(
        "/api/store/products/nope/images", files={"file": ("a.png", PNG)}, headers={"X-CSRF-Token": CSRF}
    )
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    first = await post(owner, "front.png", PNG)
    assert first.status_code == 201, first.text
    for name, data in (("side.jpg", JPEG), ("back.png", PNG), ("box.png", PNG)):
        assert (await post(owner, name, data)).status_code == 201
    fifth = await post(owner, "more.png", PNG)
    assert (fifth.status_code, fifth.json()["code"]) == (422, "too_many_images")

    shown = await patient.client.get(first.json()["url"])
    assert shown.status_code == 200 and shown.content == PNG
    assert shown.headers["content-type"] == "image/png"
    assert shown.headers["x-content-type-options"] == "nosniff"
    left = await factories.run(remove_product_image, actor=owner.actor, image_id=first.json()["id"])
    assert len(left) == 3
    gone = await patient.client.get(first.json()["url"])
    assert (gone.status_code, gone.json()["code"]) == (404, "not_found")
