"""The kit's `stat_group` (components/kit/stats.py): a row of dashboard figures named by what they count."""

from __future__ import annotations

from components.kit import StatCard, stat_group
from tests.ui.harness import attrs, classes, find_all


def test_a_stat_group_is_a_named_row_of_figures():
    group = stat_group(StatCard("Visits", "3"), StatCard("Patients", "2"), label="Today", class_name="x")
    assert group["tagName"] == "section" and classes(group) == {"staff-stats", "x"}
    assert attrs(group)["aria-label"] == "Today" and len(find_all(group, "article")) == 2


def test_a_row_under_a_heading_needs_no_name_of_its_own():
    group = stat_group("a", label=None, tag="div")
    assert group["tagName"] == "div" and attrs(group) == {"class_name": "staff-stats"}
