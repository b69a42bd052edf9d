"""Text people wrote is bidi-isolated (issue 11, flow 8): a right-to-left override (U+202E) in a name, a
ticket subject or message, a bio or a note cannot reorder the text around it. The kit's `UserText` wraps it
in `<bdi>` (inline) or gives its element `dir="auto"` and the `user-text` class (`unicode-bidi: isolate`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from components.kit import UserText, isolate
from components.provider_ui import provider_card
from components.tickets import thread
from helpdesk.desk_state import DeskState
from helpdesk.ticket_list import _row
from models.catalog import Price
from models.provider import ProviderCard, ProviderType, RatingRead
from models.support import TicketMessageRead
from tests import factories
from tests.ui.harness import Element, attrs, children, classes, find_all, text

RLO = "\u202e"
EVIL_NAME = f"Pat {RLO}eeL"  # shows as 'Pat Lee' reversed, and would drag what follows with it
APP_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"


def isolated(element: Element) -> bool:
    """A bidi isolate: <bdi>, or an element with dir="auto" and the user-text class."""
    if element.get("tagName") == "bdi":
        return True
    return attrs(element).get("dir") == "auto" and "user-text" in classes(element)


def wrapped(tree: Element, value: str) -> bool:
    """Every element whose own text children include `value` is a bidi isolate."""
    holders = [e for e in find_all(tree) if value in [c for c in children(e) if isinstance(c, str)]]
    return bool(holders) and all(isolated(e) for e in holders)


def test_the_css_isolates_user_text() -> None:
    assert re.search(r"\.user-text\s*\{\s*unicode-bidi:\s*isolate;", APP_CSS.read_text())


def test_user_text_is_a_bdi_or_a_dir_auto_block() -> None:
    inline = UserText(EVIL_NAME)
    assert inline["tagName"] == "bdi" and inline["children"] == [EVIL_NAME]
    block = UserText(EVIL_NAME, tag="p", class_name="bio")
    assert block["tagName"] == "p" and isolated(block) and "bio" in classes(block)
    assert isolate(EVIL_NAME) == f"\u2068{EVIL_NAME}\u2069" and isolate("") == ""


def test_a_ticket_thread_isolates_names_and_messages() -> None:
    message = TicketMessageRead(
        id="m1",
        ticket_id="t1",
        sender_id="u1",
        sender_name=EVIL_NAME,
        author_label="Customer",
        content=f"Refund {RLO}please",
        is_internal=False,
        created_at=datetime(2030, 1, 7, 14, tzinfo=UTC),
    )
    shown = thread([message], "America/New_York", empty="No messages")
    assert wrapped(shown, EVIL_NAME)
    assert wrapped(shown, f"Refund {RLO}please")


@pytest.mark.usefixtures("configured")
async def test_a_help_desk_row_isolates_the_subject_and_description() -> None:
    customer = await factories.person(name="Pat Lee")
    ticket = await factories.new_ticket(
        customer, subject=f"Charged {RLO}twice", description=f"See {RLO}invoice"
    )
    row = _row(ticket, DeskState("/staff/help-desk"), "America/New_York", datetime.now(UTC))
    assert wrapped(row, f"Charged {RLO}twice")
    assert wrapped(row, f"See {RLO}invoice")
    assert "Charged" in text(row)


def test_a_provider_card_isolates_the_name_and_bio() -> None:
    card = ProviderCard(
        id="p1",
        name=EVIL_NAME,
        provider_type=ProviderType.nurse,
        license_type="RN",
        license_state="NY",
        photo_url="",
        bio=f"Ten years {RLO}of nursing",
        languages=["English"],
        rating=RatingRead(average=Decimal("0"), count=0),
        services=["Routine blood draw"],
        price=Price(charge=Decimal("79"), original=Decimal("79")),
        price_is_from=False,
        next_slot=None,
        slot_minutes=None,
    )
    shown = provider_card(card, "America/New_York")
    assert wrapped(shown, EVIL_NAME)
    assert wrapped(shown, f"Ten years {RLO}of nursing")
