"""The kit's own colours in static/css reach WCAG AA (4.5:1) for text in both themes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.ui.test_table_and_chart import contrast

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
SURFACE = {"light": "#ffffff", "dark": "#111a2e"}
DANGER_SOFT = {"light": "#fef2f2", "dark": "#3b1216"}


def rule(css: str, selector: str) -> dict[str, str]:
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert match, f"no rule for {selector}"
    return dict(
        (name.strip(), value.strip()) for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", match.group(1))
    )


@pytest.mark.parametrize("tone", ["neutral", "success", "warning", "danger", "info"])
def test_badges(tone):
    css = (CSS / "app.css").read_text()
    for prefix in ("", 'html[data-theme="dark"] '):
        colours = rule(css, f"{prefix}.badge-{tone}")
        assert contrast(colours["color"], colours["background"]) >= 4.5, (prefix, tone)


def test_form_errors_and_stat_trends():
    app = (CSS / "app.css").read_text()
    staff = (CSS / "staff.css").read_text()
    assert contrast(rule(app, ".form-error")["color"], DANGER_SOFT["light"]) >= 4.5
    assert contrast(rule(app, 'html[data-theme="dark"] .form-error')["color"], DANGER_SOFT["dark"]) >= 4.5
    assert contrast(rule(staff, ".stat-up")["color"], SURFACE["light"]) >= 4.5
    assert contrast("#16a34a", SURFACE["dark"]) >= 4.5  # --success, the dark .stat-up
    assert contrast(rule(staff, 'html[data-theme="dark"] .stat-down')["color"], SURFACE["dark"]) >= 4.5
