"""The kit's usual settings card (components/kit/settings.py): the title, the line saying what the card is
for, the body and the row of actions at its foot."""

from __future__ import annotations

from components.kit import SettingsPanel, settings_actions
from tests.ui.harness import attrs, children, classes, find, text


def test_a_settings_panel_is_a_settings_card_with_its_lead_and_actions():
    panel = SettingsPanel(
        "Your data", "the body", title_id="settings-data", lead="Download it.", actions=("Export",), id="data"
    )
    assert panel["tagName"] == "section" and classes(panel) == {"settings-card"}
    assert attrs(panel)["aria-labelledby"] == "settings-data" and attrs(panel)["id"] == "data"
    assert [c["tagName"] if isinstance(c, dict) else c for c in children(panel)] == [
        "h2",
        "p",
        "the body",
        "div",
    ]
    assert classes(find(panel, "p")) == {"settings-text"} and classes(find(panel, "div")) == {
        "settings-actions"
    }
    assert text(panel) == "Your data Download it. the body Export"


def test_without_a_lead_or_actions_it_is_the_plain_card():
    panel = SettingsPanel("Sign out", "body", title_id="settings-signout", class_name="x", key="k")
    assert classes(panel) == {"settings-card", "x"} and panel["key"] == "k"
    assert len(children(panel)) == 2 and "id" not in attrs(panel)


def test_settings_actions_is_the_row_of_buttons():
    row = settings_actions("Save", "Cancel")
    assert row["tagName"] == "div" and classes(row) == {"settings-actions"} and text(row) == "Save Cancel"
