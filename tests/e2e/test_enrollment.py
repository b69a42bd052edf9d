"""A nurse applies to work with us on a phone (issue 13): Apply now → sign up → the enrollment wizard, a wrong
NPI refused with a linked error, saved half-way, a reload resumes where they were, services and ZIP codes,
the four credential documents uploaded, submitted, "Submitted" shown. axe runs on every step in light and
dark at 1280 and 375 px; screenshots of each step land in tests/artifacts/enroll-*.png.
"""

from __future__ import annotations

import re
import uuid
from datetime import date

from playwright.sync_api import FilePayload, Page, expect

from tests.conftest import LiveServer
from tests.e2e.accessibility import LOOKS, check_every_look, loaded, screenshot_looks, set_look
from tests.e2e.conftest import MOBILE, open_page, page_errors, screenshot
from tests.e2e.helpers import toasts
from tests.factories import png_bytes

PASSWORD = "Long-Password-123"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
DOCUMENTS = ("license", "government_id", "malpractice_insurance", "cpr_bls")
NEXT_YEARS = date.today().year + 4


def step(page: Page, where: str, problems: list[str]) -> None:
    """axe in every look, a screenshot in two, and back to the phone the applicant is using."""
    loaded(page)
    problems += check_every_look(page, where)
    for viewport, scheme in screenshot_looks(page, LOOKS[1:3]):
        screenshot(page, f"enroll-{where}-{viewport['width']}-{scheme}", full_page=True)
    set_look(page, MOBILE, "light")


def apply(page: Page, server: LiveServer, *, name: str, problems: list[str] | None = None) -> None:
    """From /become-provider to a submitted application, as a new account on `page` (a phone): a wrong NPI
    refused, a reload half-way that resumes where it was. With `problems`, axe runs on every step and each
    step is photographed."""

    def look(where: str) -> None:
        if problems is not None:
            step(page, where, problems)
        else:
            loaded(page)  # the step's screen settled, as a person reading it would wait

    open_page(page, server.url("/become-provider"))
    page.get_by_role("link", name="Apply now").first.click()
    expect(page).to_have_url(re.compile(r"/sign-up"))
    page.get_by_label("Full name").fill(name)
    page.get_by_label("Email").fill(f"nurse-{uuid.uuid4().hex[:8]}@medivisit.test")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/provider-enrollment$"))
    expect(toasts(page, "Authentication successful")).to_be_visible()
    # axe reads colours: not those of a toast half-way through fading out.
    page.wait_for_function(
        "() => document.getAnimations().every(a => !a.effect.target.closest('.toast') || a.playState === 'finished')"
    )

    page.get_by_role("button", name="Start my application").click()
    page.get_by_label("Provider type").select_option("nurse")
    page.get_by_label("Mobile phone").fill("(212) 555-0100")
    # The photo patients will see goes up on its own, at once.
    page.locator("#enroll-photo-file").set_input_files(
        files=[FilePayload(name="me.png", mimeType="image/png", buffer=png_bytes(rgb=(180, 120, 90)))]
    )
    expect(page.get_by_role("img", name="Your photo")).to_be_visible()
    expect(page.get_by_role("img", name="Your photo")).to_have_js_property("naturalWidth", 240)
    expect(page.get_by_label("Mobile phone")).to_have_value("(212) 555-0100")  # typing kept across the reload
    look("identity")
    page.get_by_role("button", name="Save and continue").click()

    # A wrong NPI check digit is refused, with a summary that links to the field.
    page.get_by_label("NPI (10 digits)").fill("1234567890")
    page.get_by_role("button", name="Save and continue").click()
    expect(page.get_by_text("There is a problem")).to_be_visible()
    look("credentials-errors")
    page.get_by_label("NPI (10 digits)").fill("1234567893")
    page.get_by_label("Licence type").fill("RN")
    page.get_by_label("Issuing state").select_option("NY")
    page.get_by_label("Licence number").fill("RN-104233")
    page.get_by_label("Expiry date").fill(f"{NEXT_YEARS}-06-30")
    page.get_by_role("button", name="Save and continue").click()
    expect(page.get_by_role("heading", name="What you offer")).to_be_visible()

    # Half-way: a reload (or coming back tomorrow) resumes at the step reached.
    page.reload()
    expect(page.get_by_role("heading", name="What you offer")).to_be_visible()
    page.get_by_label("Routine blood draw", exact=True).check()
    page.get_by_label("Your price for Routine blood draw (USD)").fill("85")
    page.get_by_label("ZIP codes you travel to").fill("10001 10011")
    look("offer")
    page.get_by_role("button", name="Save and continue").click()

    expect(page.get_by_role("heading", name="Documents", exact=True)).to_be_visible()
    for kind in DOCUMENTS:
        upload(page, kind)
    look("documents")
    page.get_by_role("button", name="Continue to review").click()
    expect(page.get_by_role("heading", name="Review and submit", level=2)).to_be_visible()
    look("review")
    expect(page.locator(".enroll-missing li")).to_have_text([])  # nothing missing (else it is printed)
    page.get_by_role("button", name="Submit application").click()
    expect(page.get_by_text("Status: Submitted")).to_be_visible()
    look("submitted")


def upload(page: Page, kind: str, filename: str | None = None) -> None:
    """Hand in one credential document on the Documents step: the ID as a photo (a PNG, binary through and
    through), the others as PDFs."""
    photo = kind == "government_id"
    filename = filename or (f"{kind}.png" if photo else f"{kind}.pdf")
    if kind != "government_id":
        page.locator(f"#enroll-doc-{kind}-expires").fill(f"{NEXT_YEARS}-01-01")
    data, mime = (png_bytes(), "image/png") if filename.endswith(".png") else (PDF, "application/pdf")
    page.locator(f"#enroll-doc-{kind}-file").set_input_files(
        files=[FilePayload(name=filename, mimeType=mime, buffer=data)]
    )
    # The document's link in the list (from the stored application), not the "Uploading <name>…" status line.
    expect(page.locator(f"#enroll-document-{kind}").get_by_role("link", name=filename)).to_be_visible()


def test_a_nurse_applies_on_a_phone_saves_half_way_and_submits(
    live_server: LiveServer, mobile_page: Page
) -> None:
    problems: list[str] = []
    apply(mobile_page, live_server, name="Nia Okafor", problems=problems)
    assert page_errors(mobile_page) == []
    assert problems == [], "\n".join(problems)
