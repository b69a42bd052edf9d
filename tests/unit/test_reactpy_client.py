"""ReactPy's browser client, patched by exact text (medivisit/reactpy_compat/client.py): every patch is
applied once and the page links the patched bundle; a bundle or page that changed, or another ReactPy, is
refused at start-up rather than served unpatched. tests/e2e/test_first_frame.py drives it in a browser."""

from __future__ import annotations

import pytest
from reactpy.backend._common import CLIENT_BUILD_DIR

from medivisit.reactpy_compat import client
from medivisit.reactpy_compat._guard import IncompatibleReactPy

ORIGINAL = CLIENT_BUILD_DIR / client.ORIGINAL_URL.removeprefix("/_reactpy/")


def test_every_patch_is_applied_and_the_page_links_the_patched_bundle() -> None:
    client.install()
    bundle = client.patched_bundle()
    for old, new in client.PATCHES:
        assert old not in bundle and bundle.count(new) == 1
    page = client.link_patched((CLIENT_BUILD_DIR / "index.html").read_text())
    assert client.ORIGINAL_URL not in page and page.count(client.patched_url()) == 1
    assert client.patched_url().startswith("/_reactpy/assets/client-")


@pytest.mark.parametrize("index", range(len(client.PATCHES)))
def test_a_bundle_that_changed_is_refused(index: int) -> None:
    old, _new = client.PATCHES[index]
    changed = ORIGINAL.read_text().replace(old, old.replace("(", "( ", 1))
    with pytest.raises(
        IncompatibleReactPy,
        match="client was written for reactpy 1.1.0: a patch of the client bundle matches 0 times",
    ):
        client.patch_bundle(changed)
    twice = ORIGINAL.read_text() + old
    with pytest.raises(IncompatibleReactPy, match="matches 2 times"):
        client.patch_bundle(twice)


def test_a_page_linking_another_bundle_is_refused() -> None:
    page = '<script type="module" crossorigin src="/_reactpy/assets/index.0000.js"></script>'
    with pytest.raises(IncompatibleReactPy, match="a patch of ReactPy's index.html matches 0 times"):
        client.link_patched(page)
