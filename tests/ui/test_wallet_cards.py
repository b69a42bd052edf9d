"""The Wallet's saved cards (pages/dashboard/wallet.py `_Cards`) with the card gateway: the patient's cards as
Stripe lists them (brand, last four digits, expiry), and Remove behind a confirmation that detaches the card.
Stripe is the local stand-in of tests/stripe_standin.py (Stripe cannot be reached from here). With pay at
visit the Wallet has no cards section."""

from __future__ import annotations

from app import db as app_db
from app.services.payments import get_payment_options
from app.settings import get_settings
from components.context import SessionContext
from models.account import Role
from models.payment import PaymentCustomer
from pages.dashboard import wallet
from tests.factories import person
from tests.ui.harness import mount, text, ui_session, until


def test_the_cards_section_is_there_only_with_a_card_gateway(monkeypatch) -> None:
    monkeypatch.delenv("PAYMENT_GATEWAY", raising=False)
    get_settings.cache_clear()
    assert get_payment_options().cards_on_file is False
    monkeypatch.setenv("PAYMENT_GATEWAY", "stripe")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_x")
    monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", "whsec_x")
    get_settings.cache_clear()
    try:
        assert get_payment_options().cards_on_file is True
    finally:
        get_settings.cache_clear()


async def test_a_patient_sees_their_cards_and_removes_one_after_confirming(stripe_on) -> None:
    patient = await person(Role.patient, "Jordan Lee")
    async with app_db.unit_of_work() as session:
        session.add(PaymentCustomer(user_id=patient.id, gateway="stripe", customer_id="cus_test_wallet"))
    visa = stripe_on.add_card("cus_test_wallet", "visa", "4242", 12, 2031)
    stripe_on.add_card("cus_test_wallet", "amex", "0005", 4, 2030)
    signed_in = ui_session(patient)
    async with mount(lambda: SessionContext(wallet._Cards(), value=signed_in)) as ui:
        await until(ui, lambda: "Visa ending in 4242" in text(ui.model))
        shown = text(ui.find("section"))
        assert "Saved cards" in shown
        assert "American Express ending in 0005" in shown and "Expires 04/2030" in shown
        assert "Expires 12/2031" in shown

        await ui.fire(ui.find("button", **{"aria-label": "Remove Visa ending in 4242"}))
        dialog = ui.find(role="dialog")
        assert "Remove this card?" in text(dialog)
        assert "Visa ending in 4242 will no longer be saved" in text(dialog)
        assert not stripe_on.calls("POST", rf"/v1/payment_methods/{visa}/detach")  # nothing before confirming

        await ui.fire(ui.find("button", text="Remove card"))
        await until(ui, lambda: "Visa ending in 4242" not in text(ui.model))
        assert stripe_on.calls("POST", rf"/v1/payment_methods/{visa}/detach")
        assert "American Express ending in 0005" in text(ui.model)
        assert not ui.find_all(role="dialog")
