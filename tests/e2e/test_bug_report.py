"""The Report Bug dialog (SPEC §2 "Bug-report dialog", §7, §8): labelled fields, 'Please fill in all
fields' without sending anything, the busy state while sending, the success toast, the e-mail that reaches
support (a real SMTP server) with everything the user typed escaped, and the failure message when the mail
server is down (a second server whose SMTP_URL points at a closed port)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer, free_port, html_part, start_server, stop_server
from tests.e2e.conftest import open_page, screenshot
from tests.e2e.helpers import (
    SUPPORT_EMAIL,
    fill_bug_report,
    open_bug_report,
    report_bug,
    submit_button,
    toasts,
)

FIELDS_REQUIRED = "Please fill in all fields"
SUCCESS = "Bug report submitted successfully"
SEND_FAILED = "Failed to submit bug report. Please try again later."
SMTP_DELAY_S = 1.5


@pytest.fixture(scope="module")
def mail_down_server(tmp_path_factory) -> Iterator[LiveServer]:
    """A server whose SMTP_URL points at a port nobody listens on."""
    server = start_server(tmp_path_factory.mktemp("mail-down"), SMTP_URL=f"smtp://127.0.0.1:{free_port()}")
    yield server
    stop_server(server)


@pytest.fixture
def slow_smtp(smtp, monkeypatch):  # noqa: ANN001, ANN201
    """The test SMTP server, accepting each message only after SMTP_DELAY_S (so 'Submitting...' shows)."""
    accept = smtp.handle_DATA

    async def handle_data_slowly(*args):  # noqa: ANN002, ANN202
        await asyncio.sleep(SMTP_DELAY_S)
        return await accept(*args)

    monkeypatch.setattr(smtp, "handle_DATA", handle_data_slowly, raising=False)
    return smtp


def test_dialog_fields_are_labelled(live_server, page) -> None:
    open_page(page, live_server.url("/"))
    dialog = open_bug_report(page)
    expect(dialog.get_by_label("Your email")).to_have_attribute("type", "email")
    expect(dialog.get_by_label("Your email")).to_have_value("")
    expect(dialog.get_by_label("Issue title")).to_be_editable()
    expect(dialog.get_by_label("Detailed description")).to_be_editable()
    screenshot(page, "bug-report-dialog", animations="disabled")


@pytest.mark.parametrize(
    "values",
    [
        {"email": "patient@example.com", "title": "", "description": "It broke."},
        {"email": "patient@example.com", "title": "Broken", "description": "   \n  "},
        {"email": "  ", "title": "Broken", "description": "It broke."},
    ],
    ids=["blank-title", "whitespace-description", "whitespace-email"],
)
def test_blank_field_is_refused_and_nothing_is_sent(live_server, page, smtp, values: dict) -> None:
    open_page(page, live_server.url("/"))
    dialog = open_bug_report(page)
    fill_bug_report(dialog, **values)
    submit_button(dialog).click()

    expect(dialog.get_by_text(FIELDS_REQUIRED)).to_be_visible()
    expect(dialog).to_be_visible()
    expect(toasts(page, SUCCESS)).to_have_count(0)
    assert smtp.messages == []


def test_valid_report_is_sent_to_support_escaped_and_the_dialog_resets(live_server, page, slow_smtp) -> None:
    open_page(page, live_server.url("/"))
    title = '<b>Broken</b> & "quoted"'
    dialog = report_bug(page, title=title, description="Steps:\n1. <script>alert(1)</script>")

    expect(submit_button(dialog)).to_have_text("Submitting...")
    expect(submit_button(dialog)).to_be_disabled()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_disabled()

    expect(page.get_by_text(SUCCESS)).to_be_visible()
    expect(dialog).to_be_hidden()

    (message,) = slow_smtp.wait_for(1)
    assert slow_smtp.envelopes[0][1] == [SUPPORT_EMAIL]
    assert message["To"] == SUPPORT_EMAIL
    assert message["Subject"] == f"Bug Report: {title}"
    body = html_part(message)
    assert "<b>Broken</b>" not in body and "<script>" not in body
    assert "&lt;b&gt;Broken&lt;/b&gt; &amp;" in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "patient@example.com" in body

    dialog = open_bug_report(page)
    for label in ("Your email", "Issue title", "Detailed description"):
        expect(dialog.get_by_label(label)).to_have_value("")
    expect(dialog.get_by_text(FIELDS_REQUIRED)).to_have_count(0)
    expect(submit_button(dialog)).to_have_text("Submit Report")
    assert len(slow_smtp.messages) == 1


def test_failed_send_shows_the_error_and_keeps_what_was_typed(mail_down_server, page) -> None:
    open_page(page, mail_down_server.url("/"))
    dialog = report_bug(page, title="Checkout freezes", description="After paying, the page hangs.")

    expect(page.get_by_text(SEND_FAILED)).to_be_visible()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Your email")).to_have_value("patient@example.com")
    expect(dialog.get_by_label("Issue title")).to_have_value("Checkout freezes")
    expect(dialog.get_by_label("Detailed description")).to_have_value("After paying, the page hangs.")
    expect(submit_button(dialog)).to_be_enabled()
    expect(page.get_by_text(SUCCESS)).to_have_count(0)


def test_repeated_failures_show_at_most_three_toasts(mail_down_server, page) -> None:
    open_page(page, mail_down_server.url("/"))
    dialog = report_bug(page)
    failures = toasts(page, re.compile("Failed to submit"))
    expect(failures).to_have_count(1)
    # Each retry waits for the previous answer, so the count is exact (a click while one is in flight
    # would be refused, and the test would depend on timing).
    for shown in range(2, 4):
        expect(submit_button(dialog)).to_have_text("Submit Report")
        submit_button(dialog).click()
        expect(failures).to_have_count(shown)
    # A fourth failure takes the oldest toast's place: the page never holds more than three.
    oldest = failures.first.element_handle()
    submit_button(dialog).click()
    page.wait_for_function("(toast) => !toast.isConnected", arg=oldest)
    expect(failures).to_have_count(3)
    expect(failures.filter(visible=True)).to_have_count(3)


def test_what_is_typed_the_moment_the_dialog_opens_is_kept(live_server, page) -> None:
    """The e-mail typed in the same frame the field appears (before the client's effects run, as a fast user
    or a busy machine does) stays in the field and reaches the server's form."""
    open_page(page, live_server.url("/"))
    typed = page.evaluate(
        """() => new Promise((done) => {
            const watcher = new MutationObserver(() => {
                const field = document.getElementById("bug-email");
                if (!field) return;
                watcher.disconnect();
                const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
                setter.call(field, "fast@example.com");
                field.dispatchEvent(new Event("input", { bubbles: true }));
                // After the next frame and the task after it: the client's mount effects have run.
                requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(field.value))));
            });
            watcher.observe(document.body, { childList: true, subtree: true });
            document.querySelector("footer .footer-bottom button").click();  // Report Bug
        })"""
    )
    assert typed == "fast@example.com"
    dialog = page.get_by_role("dialog", name="Report a Bug")
    expect(dialog.get_by_label("Your email")).to_have_value("fast@example.com")
