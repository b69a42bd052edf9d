"""The Help Center screen's pure pieces: the matched words of a snippet become <mark> (never HTML), and
'Contact support' carries the article or the failed search to the support form, through sign-in when signed
out, which reads it back cut to size (pages/dashboard/support.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from models.help_center import MARK_END, MARK_START
from pages.dashboard.support import _prefill
from pages.help_center import SUPPORT_REQUEST, about_search, contact_support_href, marked, support_request


def test_marked_words_become_mark_elements_and_the_rest_stays_text() -> None:
    parts = marked(f"…pay {MARK_START}<b>refund</b>{MARK_END} as {MARK_START}credit{MARK_END}")
    assert parts[0] == "…pay "
    assert parts[1]["tagName"] == "mark" and parts[1]["children"] == ["<b>refund</b>"]
    assert parts[2] == " as " and parts[3]["children"] == ["credit"]


def test_contact_support_carries_the_failed_search_through_sign_in() -> None:
    assert support_request() == SUPPORT_REQUEST == contact_support_href(True)
    request = about_search("passport renewal")
    signed_out = contact_support_href(False, request)
    assert signed_out.startswith("/login?redirect=")
    back = parse_qs(urlsplit(signed_out).query)["redirect"][0]
    assert back == request
    params = parse_qs(urlsplit(back).query)
    prefill = _prefill(params)
    assert prefill["subject"] == "Help with: passport renewal" and prefill["category"] == "other"
    assert "passport renewal" in prefill["description"]


def test_the_support_form_ignores_unknown_categories_and_cuts_long_text() -> None:
    prefill = _prefill({"subject": ["x" * 500], "description": ["y" * 5000], "category": ["hacking"]})
    assert len(prefill["subject"]) == 150 and len(prefill["description"]) == 1000
    assert prefill["category"] == "other"
    assert _prefill({"new": ["1"]}) == {}
