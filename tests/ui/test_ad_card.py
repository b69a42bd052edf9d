"""The ad card (components/ad_slot.py): every ad reads "Sponsored"; a running ad links through the click
counter, marked rel=sponsored; a preview is not a link at all (nothing to count) but otherwise the same."""

from __future__ import annotations

from components.ad_slot import ad_card, click_href
from tests.ui.harness import attrs, find_all, text

CREATIVE = {
    "headline": "Blood draws at home",
    "body": "Licensed phlebotomists. Results vary.",
    "link_url": "https://example.com/draws",
    "advertiser": "Priya Shah",
}


def test_a_running_ad_is_labelled_and_links_through_the_click_counter() -> None:
    card = ad_card(**CREATIVE, placement="SERVICES_TOP", href=click_href("f-1", "SERVICES_TOP"))
    assert text(card).startswith("Sponsored")
    [link] = find_all(card, "a")
    assert attrs(link)["href"] == "/api/ads/click/f-1?p=SERVICES_TOP"
    assert "sponsored" in attrs(link)["rel"]
    assert "Priya Shah · example.com" in text(link)


def test_a_preview_looks_the_same_but_is_no_link() -> None:
    preview = ad_card(**CREATIVE, placement="SERVICES_TOP")
    assert find_all(preview, "a") == []
    assert text(preview) == text(ad_card(**CREATIVE, placement="SERVICES_TOP", href="/x"))
