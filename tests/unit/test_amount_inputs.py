"""Amounts of money typed by people follow one rule (app.services.validation.amount_cents; issue 27,
inputs 1): a payout of `1e30` used to raise decimal.InvalidOperation inside the ledger, which the payout
screen showed as "Something went wrong"; NaN, inf, -1 and 1e-9 were no better. Now each is the field's own
message, and the store's and corporate contracts' prices use the same rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.services.errors import ValidationFailed
from app.services.ledger import request_payout
from app.services.validation import BAD_AMOUNT, MAX_AMOUNT_CENTS, amount_cents
from models.account import Role
from tests.factories import person, provider, run

NONSENSE = ["1e30", "NaN", "inf", "-inf", "-1", "1e-9", "12.345", "sNaN", "1" * 40, "", "twelve"]


@pytest.mark.parametrize("typed", NONSENSE)
def test_nonsense_amounts_are_refused_with_the_fields_message(typed) -> None:
    with pytest.raises(ValidationFailed) as refused:
        amount_cents(typed)
    assert refused.value.message == BAD_AMOUNT


def test_amounts_as_people_type_them() -> None:
    assert amount_cents("120") == 12_000
    assert amount_cents(" $1,234.50 ") == 123_450
    assert amount_cents("１２０.５") == 12_050  # full-width digits
    assert amount_cents(Decimal("1E+2")) == 10_000
    assert amount_cents(str(MAX_AMOUNT_CENTS / 100)) == MAX_AMOUNT_CENTS
    with pytest.raises(ValidationFailed):
        amount_cents("0", least=1)


@pytest.mark.parametrize("typed", ["1e30", "NaN", "Infinity", "-1", "1e-9"])
async def test_a_payout_of_nonsense_is_a_field_error(identity, typed) -> None:
    nurse = await person(Role.provider, "Ada Nurse")
    await provider("Ada Nurse", owner=nurse)
    with pytest.raises(ValidationFailed) as refused:
        await run(request_payout, actor=nurse.actor, amount=Decimal(typed))
    assert refused.value.message == BAD_AMOUNT


@pytest.mark.parametrize("module", ["app.services.store._rules", "app.services.corporate._rules"])
@pytest.mark.parametrize("typed", ["1e30", "NaN", "inf"])
def test_prices_use_the_same_rule(module, typed) -> None:
    import importlib

    rules = importlib.import_module(module)
    with pytest.raises(ValidationFailed) as refused:
        rules.parse_price(typed)
    assert refused.value.message == rules.BAD_PRICE
