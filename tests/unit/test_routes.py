"""The route table: every SPEC path is known, unknown paths are not, and every screen can be loaded."""

from __future__ import annotations

import pytest

from components.screen import load_screen
from pages.routes import NOT_FOUND, SCREENS, match_screen
from tests.spec_paths import OTHER_PATHS, PUBLIC_PATHS

SPEC_PATHS = (*PUBLIC_PATHS, *OTHER_PATHS)


@pytest.mark.parametrize("path", SPEC_PATHS)
def test_every_spec_path_has_a_screen(path: str) -> None:
    assert match_screen(path) is not None


@pytest.mark.parametrize("path", ["/nope", "/about/team", "/services/iv-therapy/extra", "/__test__/broken"])
def test_unknown_paths_have_no_screen(path: str) -> None:
    assert match_screen(path) is None


def test_the_test_only_screen_is_mounted_only_on_request() -> None:
    assert match_screen("/__test__/broken", with_test_screens=True) is not None


def test_assistant_has_two_paths_to_one_screen() -> None:
    one, other = match_screen("/ai-assistant"), match_screen("/healthcare-assistant")
    assert one is not None and other is not None and one.target == other.target


@pytest.mark.parametrize("screen", [*SCREENS, NOT_FOUND], ids=lambda s: s.path)
def test_every_screen_is_importable(screen) -> None:
    assert callable(load_screen(screen.target))
