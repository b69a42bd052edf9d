"""A stand-in for the few Stripe API endpoints the card gateway calls, because Stripe cannot be reached from
the test machines: a small local HTTP server answering in the shapes Stripe documents (https://docs.stripe.com/api:
customers, checkout sessions, a customer's payment methods, detach, refunds; Connect: accounts, account
links, transfers), with STRIPE_API_BASE pointed at it
so the official SDK's own requests are what it receives. It records every request for the tests to check.

What it does not stand in for: Stripe's hosted payment page, or its decision to send a webhook. The tests
send the webhook events themselves, signed with the SDK's own helper (`stripe.WebhookSignature`).
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import stripe

WEBHOOK_SECRET = "whsec_test_medivisit"
SECRET_KEY = "sk_test_medivisit"


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    idempotency_key: str


@dataclass
class StripeStandIn:
    url: str = ""
    requests: list[Request] = field(default_factory=list)
    # payment methods by customer id
    cards: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Browser tests: the Checkout Session's `url` is a page of this server (Stripe's hosted page is not
    # reachable, and no test goes through it); otherwise checkout.stripe.com's form of address.
    hosted_here: bool = False
    # Stripe Connect: connected accounts by id; a transfer error to answer with (card_error-like), if set
    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    transfer_error: str = ""
    # Refunds: what each PaymentIntent captured in cents (set by the tests; an intent not named here has no
    # limit), the refunds made by idempotency key, and a card_error-like message to refuse refunds with
    captured: dict[str, int] = field(default_factory=dict)
    refunds: dict[str, dict[str, Any]] = field(default_factory=dict)
    refund_error: str = ""
    _counter: int = 0

    def calls(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.fullmatch(pattern, r.path)]

    def next_id(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}_test{self._counter:06d}"

    def add_card(self, customer: str, brand: str, last4: str, exp_month: int, exp_year: int) -> str:
        card_id = self.next_id("pm")
        self.cards.setdefault(customer, []).insert(
            0,
            {
                "id": card_id,
                "object": "payment_method",
                "type": "card",
                "customer": customer,
                "created": int(time.time()),
                "livemode": False,
                "card": {
                    "brand": brand,
                    "last4": last4,
                    "exp_month": exp_month,
                    "exp_year": exp_year,
                    "country": "US",
                    "funding": "credit",
                },
            },
        )
        return card_id

    # ---- the endpoints ----
    def answer(self, method: str, path: str, params: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if method == "POST" and path == "/v1/customers":
            return 200, {
                "id": self.next_id("cus"),
                "object": "customer",
                "email": params.get("email"),
                "name": params.get("name"),
                "metadata": {"user_id": params.get("metadata[user_id]", "")},
                "livemode": False,
            }
        if method == "POST" and path == "/v1/checkout/sessions":
            # As Stripe refuses them: a negative line, or a session charging less than $0.50.
            amounts = [
                (int(params.get(f"{key}[quantity]", "1")), int(params[f"{key}[price_data][unit_amount]"]))
                for key in sorted({k.split("]")[0] + "]" for k in params if k.startswith("line_items[")})
                if f"{key}[price_data][unit_amount]" in params
            ]
            if any(unit < 0 for _quantity, unit in amounts):
                return 400, _error(
                    "This value must be greater than or equal to 0.", "parameter_invalid_integer"
                )
            if sum(quantity * unit for quantity, unit in amounts) < 50:
                return 400, _error(
                    "The Checkout Session's total amount must be at least $0.50 usd.", "amount_too_small"
                )
            session_id = self.next_id("cs")
            created: dict[str, Any] = {
                "id": session_id,
                "object": "checkout.session",
                "mode": "payment",
                "status": "open",
                "payment_status": "unpaid",
                "customer": params.get("customer"),
                "client_reference_id": params.get("client_reference_id"),
                # The sum over every line (quantity × unit amount), as Stripe totals a session.
                "amount_total": sum(
                    int(params.get(f"line_items[{i}][quantity]", "1"))
                    * int(params.get(f"line_items[{i}][price_data][unit_amount]", "0"))
                    for i in range(len({k.split("]")[0] for k in params if k.startswith("line_items[")}))
                ),
                "currency": "usd",
                "payment_intent": None,
                "metadata": {"order_id": params.get("metadata[order_id]", "")}
                | {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")},
                "success_url": params.get("success_url"),
                "cancel_url": params.get("cancel_url"),
                "expires_at": int(params.get("expires_at", "0")),
                "url": f"{self.url if self.hosted_here else 'https://checkout.stripe.com'}/c/pay/{session_id}",
                "livemode": False,
            }
            self.sessions[session_id] = created
            return 200, created
        retrieve = re.fullmatch(r"/v1/checkout/sessions/([^/]+)", path)
        if method == "GET" and retrieve:
            found = self.sessions.get(retrieve.group(1))
            if found is None:
                return 404, _error(f"No such checkout.session: '{retrieve.group(1)}'", "resource_missing")
            return 200, found
        expire = re.fullmatch(r"/v1/checkout/sessions/([^/]+)/expire", path)
        if method == "POST" and expire:
            found = self.sessions.get(expire.group(1))
            if found is None or found["status"] != "open":
                return 400, _error("This Checkout Session is not open.", "checkout_session_not_open")
            found.update(status="expired", url=None)
            return 200, found
        listed = re.fullmatch(r"/v1/customers/([^/]+)/payment_methods", path)
        if method == "GET" and listed:
            data = self.cards.get(listed.group(1), [])[: int(params.get("limit", "10"))]
            return 200, {"object": "list", "url": path, "has_more": False, "data": data}
        one = re.fullmatch(r"/v1/customers/([^/]+)/payment_methods/([^/]+)", path)
        if method == "GET" and one:
            for card in self.cards.get(one.group(1), []):
                if card["id"] == one.group(2):
                    return 200, card
            return 404, _error(f"No such PaymentMethod: '{one.group(2)}'", "resource_missing")
        detach = re.fullmatch(r"/v1/payment_methods/([^/]+)/detach", path)
        if method == "POST" and detach:
            for cards in self.cards.values():
                for card in cards:
                    if card["id"] == detach.group(1):
                        cards.remove(card)
                        return 200, {**card, "customer": None}
            return 400, _error("The payment method you provided is not attached to a customer.", "")
        if method == "POST" and path == "/v1/refunds":
            key = self.requests[-1].idempotency_key if self.requests else ""
            if key and key in self.refunds:  # Stripe answers a retried request with the same refund
                return 200, self.refunds[key]
            intent = params.get("payment_intent") or ""
            if self.refund_error:
                refused = {"type": "card_error", "message": self.refund_error, "code": "expired_card"}
                return 402, {"error": refused}
            done = sum(r["amount"] for r in self.refunds.values() if r["payment_intent"] == intent)
            captured = self.captured.get(intent)
            amount = int(params["amount"]) if "amount" in params else (captured or 0) - done
            if captured is not None and done + amount > captured:
                return 400, _error(
                    f"Refund amount (${amount / 100:.2f}) is greater than unrefunded amount on charge "
                    f"(${(captured - done) / 100:.2f})",
                    "amount_too_large",
                )
            metadata = {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")}
            refund = {
                "id": self.next_id("re"),
                "object": "refund",
                "amount": amount,
                "currency": "usd",
                "charge": f"ch_{intent.removeprefix('pi_')}",
                "payment_intent": intent,
                "metadata": metadata,
                "reason": params.get("reason"),
                "status": "succeeded",
                "created": int(time.time()),
            }
            if key:
                self.refunds[key] = refund
            return 200, refund
        connect = self.connect_answer(method, path, params)
        if connect is not None:
            return connect
        return 404, _error(f"Unrecognized request URL ({method}: {path}).", "")

    # ---- Stripe Connect: accounts, account links, transfers ----
    def enable_payouts(self, account_id: str, enabled: bool = True) -> dict[str, Any]:
        """What Stripe's onboarding form does once the provider finished it; the account, as account.updated
        carries it."""
        found = self.accounts[account_id]
        found.update(details_submitted=enabled, payouts_enabled=enabled, charges_enabled=False)
        found["capabilities"] = {"transfers": "active" if enabled else "inactive"}
        return found

    def connect_answer(
        self, method: str, path: str, params: dict[str, str]
    ) -> tuple[int, dict[str, Any]] | None:
        if method == "POST" and path == "/v1/accounts":
            account_id = self.next_id("acct")
            self.accounts[account_id] = {
                "id": account_id,
                "object": "account",
                "type": params.get("type"),
                "email": params.get("email"),
                "country": "US",
                "default_currency": "usd",
                "details_submitted": False,
                "payouts_enabled": False,
                "charges_enabled": False,
                "capabilities": {"transfers": "inactive"},
                "metadata": {"provider_id": params.get("metadata[provider_id]", "")},
                "created": int(time.time()),
                "livemode": False,
            }
            return 200, self.accounts[account_id]
        account = re.fullmatch(r"/v1/accounts/([^/]+)", path)
        if method == "GET" and account:
            found = self.accounts.get(account.group(1))
            if found is None:
                return 404, _error(f"No such account: '{account.group(1)}'", "resource_missing")
            return 200, found
        if method == "POST" and path == "/v1/account_links":
            if params.get("account") not in self.accounts:
                return 400, _error(f"No such account: '{params.get('account')}'", "resource_missing")
            now = int(time.time())
            return 200, {
                "object": "account_link",
                "created": now,
                "expires_at": now + 300,
                "url": f"{self.url if self.hosted_here else 'https://connect.stripe.com'}/setup/e/"
                f"{params.get('account')}/{self.next_id('link')}",
            }
        if method == "POST" and path == "/v1/transfers":
            destination = self.accounts.get(params.get("destination", ""))
            if self.transfer_error:
                return 400, _error(self.transfer_error, "insufficient_funds")
            if destination is None or not destination["payouts_enabled"]:
                return 400, _error("The destination account cannot receive transfers.", "account_invalid")
            return 200, {
                "id": self.next_id("tr"),
                "object": "transfer",
                "amount": int(params.get("amount", "0")),
                "amount_reversed": 0,
                "currency": params.get("currency"),
                "destination": params.get("destination"),
                "metadata": {"payout_id": params.get("metadata[payout_id]", "")},
                "reversed": False,
                "created": int(time.time()),
                "livemode": False,
            }
        return None


def _error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"type": "invalid_request_error", "message": message, "code": code}}


def serve() -> tuple[StripeStandIn, ThreadingHTTPServer]:
    standin = StripeStandIn()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            params = dict(parse_qsl(parts.query)) | dict(parse_qsl(body))
            if self.command == "GET" and parts.path.startswith(("/c/pay/", "/setup/")):  # hosted pages
                page = b"<!doctype html><title>Stripe stand-in</title><h1>Stand-in payment page</h1>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)
                return
            with lock:
                standin.requests.append(
                    Request(self.command, parts.path, params, self.headers.get("Idempotency-Key", ""))
                )
                status, answer = standin.answer(self.command, parts.path, params)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", "req_standin")
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = _handle  # noqa: N815 - http.server's hook names

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    standin.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return standin, server


def configure_gateway(monkeypatch: Any, standin: StripeStandIn, **env: str) -> None:
    """PAYMENT_GATEWAY=stripe for this test, with the SDK pointed at `standin` (and `env`'s other settings);
    the stand-in forgets the requests and the refusals set by earlier tests."""
    for name, value in {
        "PAYMENT_GATEWAY": "stripe",
        "STRIPE_SECRET_KEY": SECRET_KEY,
        "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "STRIPE_API_BASE": standin.url,
        **env,
    }.items():
        monkeypatch.setenv(name, value)
    from app.settings import get_settings

    get_settings.cache_clear()
    standin.requests.clear()
    standin.refunds.clear()
    standin.refund_error = standin.transfer_error = ""


def signed(
    event: dict[str, Any], *, secret: str = WEBHOOK_SECRET, timestamp: int | None = None
) -> tuple[bytes, str]:
    """The body and `Stripe-Signature` header of a webhook delivery, signed by the SDK's own helper."""
    payload = json.dumps(event)
    return payload.encode(), stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp)


def event(kind: str, obj: dict[str, Any], event_id: str | None = None) -> dict[str, Any]:
    """A webhook event in Stripe's documented envelope (API version of the SDK)."""
    return {
        "id": event_id or f"evt_{kind.replace('.', '_')}_{int(time.time() * 1000)}",
        "object": "event",
        "api_version": stripe.api_version,
        "created": int(time.time()),
        "livemode": False,
        "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "type": kind,
        "data": {"object": obj},
    }
