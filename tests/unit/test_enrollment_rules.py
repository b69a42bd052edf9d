"""Provider enrollment's rules (issue 13): the NPI check digit, ZIP codes against the US list and their states
(the licence-state rule), licences, dates; the enrollment tables on SQLite and PostgreSQL (the seeded
decision reasons, an application with its licence and document); and a suspended or lapsed provider is
neither listed nor shown."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.enrollment import (
    clean_credentials,
    clean_document_dates,
    clean_npi,
    has_npi,
    is_valid_npi,
    licensed_for_zip,
    npi_check_digit,
    npi_problem,
    zip_state,
)
from app.services.enrollment._rules import (
    EXPIRY_NOT_FUTURE,
    LICENSE_STATE_INVALID,
    NPI_CHECK_DIGIT,
    NPI_FORMAT,
    NPI_REQUIRED,
)
from app.services.enrollment.internal import ensure_decision_reasons
from app.services.errors import NotFound, ValidationFailed
from app.services.providers import get_provider, search_providers
from app.services.providers.internal import sync_listing
from models.enrollment import (
    ApplicationStatus,
    CredentialDocument,
    CredentialsUpdate,
    DecisionReason,
    DocumentCreate,
    DocumentKind,
    DocumentStanding,
    DocumentStatus,
    LicenseCreate,
    ProviderApplication,
    ProviderLicense,
    ReasonUse,
    document_standing,
)
from models.provider import Provider, ProviderQuery, ProviderType
from tests import factories

TODAY = date(2030, 1, 7)
NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)


# ---- NPI -------------------------------------------------------------------------------------------------
def test_the_cms_example_npi_check_digit() -> None:
    # CMS's worked example: 123456789 → 3 (Luhn over 80840123456789).
    assert npi_check_digit("123456789") == 3
    assert is_valid_npi("1234567893") and is_valid_npi("1558598797")
    assert is_valid_npi("1234-567-893") and is_valid_npi(" 1234567893 ")


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("1234567890", NPI_CHECK_DIGIT),  # wrong check digit
        ("1234567894", NPI_CHECK_DIGIT),
        ("3234567893", NPI_FORMAT),  # must start with 1 or 2
        ("123456789", NPI_FORMAT),  # nine digits
        ("12345678931", NPI_FORMAT),
        ("12345678a3", NPI_FORMAT),
        ("\uff11234567893", None),  # a full-width digit is a digit
        ("١٢٣٤٥٦٧٨٩٣", NPI_FORMAT),  # other scripts' digits are not
    ],
)
def test_an_npi_is_ten_digits_with_a_luhn_check_digit(raw, problem) -> None:
    assert npi_problem(raw) == problem


def test_every_check_digit_has_exactly_one_valid_npi() -> None:
    for first_nine in ("123456789", "255859879", "100000000", "299999999"):
        valid = [d for d in range(10) if is_valid_npi(first_nine + str(d))]
        assert valid == [npi_check_digit(first_nine)]


def test_a_blank_npi_asks_for_one_and_a_wrong_one_says_why() -> None:
    with pytest.raises(ValidationFailed, match="10-digit NPI") as refused:
        clean_npi("  ")
    assert refused.value.message == NPI_REQUIRED
    with pytest.raises(ValidationFailed) as refused:
        clean_npi("1234567890")
    assert refused.value.message == NPI_CHECK_DIGIT and refused.value.code == "invalid_npi"
    assert clean_npi("1234 567 893") == "1234567893"


def test_which_types_have_an_npi() -> None:
    assert has_npi(ProviderType.nurse) and has_npi(ProviderType.doctor) and has_npi(ProviderType.np)
    assert not has_npi(ProviderType.makeup_artist) and not has_npi(ProviderType.transportation)
    assert not has_npi(None)


# ---- ZIP codes and states ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("zip_code", "state"),
    [("10001", "NY"), ("60614", "IL"), ("90026", "CA"), ("00601", "PR"), ("20500", "DC"), ("99501", "AK")],
)
def test_a_zip_code_has_its_state(zip_code, state) -> None:
    assert zip_state(zip_code) == state


@pytest.mark.parametrize("zip_code", ["00000", "99999", "1000", "100011", "", "abcde"])
def test_a_zip_code_not_on_the_list_has_no_state(zip_code) -> None:
    assert zip_state(zip_code) is None


def test_a_visit_needs_a_licence_of_the_zip_codes_state() -> None:
    assert licensed_for_zip("10001", ["NY", "NJ"])
    assert licensed_for_zip("10001", ["ny"])
    assert not licensed_for_zip("60614", ["NY"])
    assert not licensed_for_zip("00000", ["NY"])


# ---- licences and dates --------------------------------------------------------------------------------------
def licence(**changes: str) -> LicenseCreate:
    return LicenseCreate(
        license_type="RN", state="ny", number="rn-123456", expires_on="2031-06-30"
    ).model_copy(update=changes)


def test_a_licence_is_cleaned_and_checked() -> None:
    values, errors = clean_credentials(
        CredentialsUpdate(npi="1234567893", licenses=[licence()]), ProviderType.nurse, TODAY
    )
    assert errors == {}
    assert values == {
        "npi": "1234567893",
        "licenses": [
            {"license_type": "RN", "state": "NY", "number": "RN-123456", "expires_on": date(2031, 6, 30)}
        ],
    }
    _values, errors = clean_credentials(
        CredentialsUpdate(
            npi="1234567890",
            licenses=[
                licence(state="ZZ"),
                licence(expires_on="2030-01-07"),
                licence(expires_on="30/06/2031"),
            ],
        ),
        ProviderType.nurse,
        TODAY,
    )
    assert errors["npi"] == NPI_CHECK_DIGIT
    assert errors["licenses.0.state"] == LICENSE_STATE_INVALID
    assert errors["licenses.1.expires_on"] == EXPIRY_NOT_FUTURE  # today is not in the future
    assert "licenses.2.expires_on" in errors
    # A type without an NPI keeps none, whatever was typed.
    values, errors = clean_credentials(
        CredentialsUpdate(npi="garbage", licenses=[licence()]), ProviderType.makeup_artist, TODAY
    )
    assert errors == {} and values["npi"] == ""
    _values, errors = clean_credentials(CredentialsUpdate(npi="1234567893"), ProviderType.nurse, TODAY)
    assert "licenses" in errors


def test_document_dates() -> None:
    good = DocumentCreate(
        kind=DocumentKind.license, filename="a.pdf", issued_on="2025-01-01", expires_on="2031-01-01"
    )
    assert clean_document_dates(good, TODAY) == (
        {"issued_on": date(2025, 1, 1), "expires_on": date(2031, 1, 1)},
        {},
    )
    _values, errors = clean_document_dates(good.model_copy(update={"expires_on": ""}), TODAY)
    assert "expires_on" in errors  # a licence's expiry is required
    _values, errors = clean_document_dates(
        good.model_copy(update={"kind": DocumentKind.government_id, "expires_on": ""}), TODAY
    )
    assert errors == {}  # an ID may have none
    _values, errors = clean_document_dates(good.model_copy(update={"issued_on": "2030-02-01"}), TODAY)
    assert "issued_on" in errors


def test_expiring_and_expired_are_computed() -> None:
    approved = DocumentStatus.approved
    assert document_standing(approved, None, TODAY) == DocumentStanding.approved
    assert document_standing(approved, date(2031, 1, 1), TODAY) == DocumentStanding.approved
    assert document_standing(approved, date(2030, 4, 7), TODAY) == DocumentStanding.expiring  # 90 days
    assert document_standing(DocumentStatus.pending, date(2030, 1, 6), TODAY) == DocumentStanding.expired
    assert document_standing(DocumentStatus.rejected, date(2030, 1, 6), TODAY) == DocumentStanding.rejected


# ---- the tables (SQLite and PostgreSQL) -------------------------------------------------------------------------
async def test_the_decision_reasons_are_seeded(configured) -> None:
    async with app_db.unit_of_work() as session:
        assert len(await ensure_decision_reasons(session=session)) > 10
        assert await ensure_decision_reasons(session=session) == []  # once
        reasons = (await session.scalars(select(DecisionReason).order_by(DecisionReason.position))).all()
    codes = [reason.code for reason in reasons]
    assert {"license_number_mismatch", "license_expired", "document_unreadable", "npi_mismatch"} <= set(codes)
    assert codes[-1] == "other" and all(
        reason.active and reason.label and reason.advice for reason in reasons
    )
    assert {reason.applies_to for reason in reasons} == set(ReasonUse)


async def test_an_application_keeps_its_licences_and_documents(configured) -> None:
    someone = await factories.person(name="Nia Applicant")
    async with app_db.unit_of_work() as session:
        application = ProviderApplication(
            user_id=someone.id,
            first_name="Nia",
            last_name="Applicant",
            provider_type=ProviderType.nurse,
            npi=clean_npi("1234567893"),
            zip_codes=["10001"],
            offers=[{"service_id": "x", "price": "80.00", "location_mask": 1}],
        )
        session.add(application)
        await session.flush()
        session.add(
            ProviderLicense(
                application_id=application.id,
                license_type="RN",
                state="NY",
                number="1",
                expires_on=date(2031, 6, 30),
            )
        )
        session.add(
            CredentialDocument(
                application_id=application.id,
                kind=DocumentKind.cpr_bls,
                filename="cpr.pdf",
                content_type="application/pdf",
                size=10,
                storage_key="0" * 32,
                expires_on=date(2031, 1, 1),
            )
        )
    async with app_db.unit_of_work() as session:
        stored = await session.scalar(
            select(ProviderApplication).where(ProviderApplication.user_id == someone.id)
        )
        licence_row = await session.scalar(select(ProviderLicense))
        document = await session.scalar(select(CredentialDocument))
    assert stored.status == ApplicationStatus.draft and stored.step == 0 and stored.npi == "1234567893"
    assert stored.provider_type == ProviderType.nurse and stored.zip_codes == ["10001"]
    assert licence_row.expires_on == date(2031, 6, 30) and zip_state("10001") == licence_row.state
    assert document.status == DocumentStatus.pending and document.kind == DocumentKind.cpr_bls


@pytest.mark.parametrize("column", ["suspended_at", "credentials_lapsed_at"])
async def test_a_suspended_or_lapsed_provider_is_not_public(configured, column) -> None:
    kept = await factories.provider("Kept Listed", zip_codes=["10001"])
    hidden = await factories.provider("Soon Hidden", zip_codes=["10001"])

    async def listed() -> tuple[list[str], list[str]]:
        async with app_db.unit_of_work() as session:
            by_zip = await search_providers(session=session, query=ProviderQuery(zip_code="10001"), now=NOW)
            everywhere = await search_providers(session=session, query=ProviderQuery(), now=NOW)
        return sorted(c.id for c in by_zip.items), sorted(c.id for c in everywhere.items)

    assert await listed() == (sorted([kept, hidden]), sorted([kept, hidden]))
    async with app_db.unit_of_work() as session:
        row = await session.get(Provider, hidden)
        setattr(row, column, NOW)
        await sync_listing(session, row)
    assert await listed() == ([kept], [kept])
    async with app_db.unit_of_work() as session:
        with pytest.raises(NotFound):
            await get_provider(session=session, provider_id=hidden)
