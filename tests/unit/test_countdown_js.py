"""The banner countdown is computed in the browser (static/js/countdown.js); run it in Node to check it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "countdown.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def run_js(expression: str) -> object:
    script = f"import * as c from {json.dumps(MODULE.as_uri())}; console.log(JSON.stringify({expression}));"
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=30
    )
    return json.loads(result.stdout)


def test_countdown_text_formats_hours_minutes_seconds() -> None:
    assert run_js(
        "[c.countdownText(0), c.countdownText(999), c.countdownText(61_000), c.countdownText(86_399_000)]"
    ) == [
        "00:00:00",
        "00:00:00",
        "00:01:01",
        "23:59:59",
    ]


def test_countdown_never_goes_negative() -> None:
    assert run_js("c.countdownText(-5000)") == "00:00:00"


def test_time_left_runs_to_the_end_of_the_local_day() -> None:
    left = run_js(
        "[c.msUntilEndOfDay(new Date(2026, 10, 21, 23, 59, 58)), c.msUntilEndOfDay(new Date(2026, 10, 21, 0, 0, 0)),"
        " c.msUntilEndOfDay(new Date(2026, 11, 31, 12, 0, 0))]"
    )
    assert left == [2000, 86_400_000, 12 * 3600 * 1000]
