"""Input rules of issue 11, flow 7 (app/services/validation.py, the search query, the service pages): phone
numbers in E.164, blank names, US ZIP codes (full-width digits read as digits), and /services/<slug> for
every category and service of the catalog."""

from __future__ import annotations

import pytest

from app import db as app_db
from app.services.catalog import get_service_page, list_catalog
from app.services.errors import ValidationFailed
from app.services.validation import BLANK_NAME, INVALID_PHONE, INVALID_ZIP, e164_phone, required_name, us_zip
from models.provider import ProviderQuery
from pages.find_provider import zip_problem
from pages.heads import provider_head, service_page_head
from pages.routes import match_route
from tests import factories

FULL_WIDTH_ZIP = "\uff11\uff10\uff10\uff10\uff11"  # '１０００１'


@pytest.mark.parametrize(
    ("raw", "stored"),
    [("(212) 555-0100", "+12125550100"), ("+44 20 7946 0958", "+442079460958"), ("", ""), ("  ", "")],
)
def test_phone_numbers_are_stored_in_e164(raw, stored) -> None:
    assert e164_phone(raw) == stored


@pytest.mark.parametrize("raw", ["12345", "555-0100", "not a number", "+1 555 0100"])
def test_an_invalid_phone_number_says_so(raw) -> None:
    with pytest.raises(ValidationFailed) as refused:
        e164_phone(raw)
    assert refused.value.message == INVALID_PHONE


@pytest.mark.parametrize("raw", ["", "   ", "\t", "\u3000", "\u200b", "\u202e "])
def test_a_blank_name_is_refused(raw) -> None:
    with pytest.raises(ValidationFailed, match=BLANK_NAME):
        required_name(raw)
    assert required_name("  Pat   Lee ") == "Pat Lee"


@pytest.mark.parametrize(
    ("raw", "zip_code"), [("10001", "10001"), (FULL_WIDTH_ZIP, "10001"), ("10001-1234", "10001")]
)
def test_a_us_zip_code_is_five_digits(raw, zip_code) -> None:
    assert us_zip(raw) == zip_code
    assert ProviderQuery.from_params({"zip": [raw]}).zip_code == zip_code
    assert zip_problem({"zip": [raw]}) is None


@pytest.mark.parametrize(
    "raw", ["1000", "100011", "ABCDE", "10 001", "\u0661\u0660\u0660\u0660\u0661", "1e4"]
)
def test_an_invalid_zip_code_says_so(raw) -> None:
    with pytest.raises(ValidationFailed, match=INVALID_ZIP):
        us_zip(raw)
    assert zip_problem({"zip": [raw]}) == INVALID_ZIP
    assert ProviderQuery.from_params({"zip": [raw]}).zip_code is None


def test_no_zip_is_no_problem() -> None:
    assert zip_problem({}) is None and zip_problem({"zip": [""]}) is None


async def test_a_full_width_zip_finds_the_providers_of_that_zip(configured) -> None:
    from app.services.providers import search_providers

    await factories.provider("Ada Nurse", zip_codes=["10001"])
    query = ProviderQuery.from_params({"zip": [FULL_WIDTH_ZIP]})
    async with app_db.unit_of_work() as session:
        page = await search_providers(session=session, query=query, time_zone=factories.NY)
    assert [card.name for card in page.items] == ["Ada Nurse"]


async def test_every_service_and_category_of_the_catalog_has_a_page(configured) -> None:
    await factories.provider()  # seeds the reference catalog
    async with app_db.unit_of_work() as session:
        catalog = await list_catalog(session=session)
        slugs = [c.slug for c in catalog] + [s.slug for c in catalog for s in c.services]
        assert len(slugs) > len(catalog)
        for slug in slugs:
            screen, params = factories.present(match_route(f"/services/{slug}"))
            assert screen.target == "pages.service_detail:ServiceDetailPage"
            head = factories.present(screen.head)
            assert await head(session=session, **params) is not None, slug
            category, service = factories.present(await get_service_page(session=session, slug=slug))
            assert slug in (category.slug, service.slug if service else None)
        assert await service_page_head(session=session, slug="no-such-service") is None


async def test_unknown_provider_ids_do_not_exist(configured) -> None:
    listed = await factories.provider()
    hidden = await factories.provider("Una Listed", verified=False)
    async with app_db.unit_of_work() as session:
        assert await provider_head(session=session, provider_id=listed) is not None
        assert await provider_head(session=session, provider_id=hidden) is None
        assert await provider_head(session=session, provider_id="no-such-provider") is None
