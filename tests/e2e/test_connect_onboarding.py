"""Stripe Connect onboarding in Chromium (PAYMENT_GATEWAY=stripe): Priya Shah's provider wallet says her
payouts are not set up; "Set up payouts with Stripe" sends the browser to Stripe's onboarding page; once
Stripe's account.updated (signed with the SDK's helper, sent by the test) says payouts are enabled, the
wallet she comes back to says so (axe-core in both states). Stripe is the local stand-in of
tests/stripe_standin.py, whose onboarding link is a page of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests import stripe_standin
from tests.conftest import LiveServer, demo_database, free_port, start_server, stop_server
from tests.e2e.accessibility import DEMO_PASSWORD, NAMED_LOOKS, WIDTHS, check_every_look, loaded, set_look
from tests.e2e.conftest import DESKTOP, SCREENSHOTS, open_page, screenshot
from tests.e2e.helpers import sign_in

PROVIDER = "provider@demo.medivisit.test"
WALLET = "/dashboard/provider-wallet"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, stripe_standin.StripeStandIn]]:
    tmp = tmp_path_factory.mktemp("connect")
    standin, server = stripe_standin.serve()
    standin.hosted_here = True
    port = free_port()
    live = start_server(
        tmp,
        port=port,
        SITE_URL=f"http://127.0.0.1:{port}",  # where Stripe's onboarding sends the provider back
        DATABASE_URL=demo_database(tmp / "connect.db"),
        REMINDERS_ENABLED="false",
        PAYMENT_GATEWAY="stripe",
        STRIPE_SECRET_KEY=stripe_standin.SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=stripe_standin.WEBHOOK_SECRET,
        STRIPE_API_BASE=standin.url,
    )
    yield live, standin
    stop_server(live)
    server.shutdown()


def shots(page: Page, name: str) -> None:
    if SCREENSHOTS:
        for width, scheme in NAMED_LOOKS:
            set_look(page, WIDTHS[width], scheme)
            screenshot(page, f"{name}-{width}-{scheme}", animations="disabled")
        set_look(page, DESKTOP, "light")


def test_a_provider_sets_up_payouts_with_stripe(page: Page, site) -> None:  # noqa: ANN001
    live, standin = site
    sign_in(page, live, PROVIDER, DEMO_PASSWORD, path=f"/login?redirect={WALLET}")
    open_page(page, live.url(WALLET))
    loaded(page)
    card = page.locator(".payout-setup")
    expect(card).to_contain_text("Not set up")
    problems = check_every_look(page, "provider wallet, payouts not set up")
    shots(page, "connect-wallet-not-set-up")

    card.get_by_role("button", name="Set up payouts with Stripe").click()
    expect(page).to_have_url(re.compile(re.escape(standin.url) + r"/setup/e/acct_test\d+/link_test\d+$"))
    [account_id] = standin.accounts

    # Stripe says the onboarding is done; the wallet she comes back to says her payouts are enabled.
    body, header = stripe_standin.signed(
        stripe_standin.event("account.updated", standin.enable_payouts(account_id))
    )
    answer = httpx.post(
        live.url("/api/payments/stripe/webhook"), content=body, headers={"Stripe-Signature": header}
    )
    assert answer.json()["result"] == "account_updated"
    open_page(page, live.url(f"{WALLET}?payouts=return"))
    loaded(page)
    expect(card).to_contain_text("Payouts enabled")
    expect(card.get_by_role("button")).to_have_count(0)
    problems += check_every_look(page, "provider wallet, payouts enabled")
    shots(page, "connect-wallet-enabled")
    assert problems == []
