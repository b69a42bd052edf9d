"""Fields: the label names the control, hints and errors are announced, typed text survives re-renders."""

from __future__ import annotations

from reactpy import component, html, use_state

from components.forms import use_form
from components.kit import Checkbox, Field, Select, TextArea
from tests.ui.harness import attrs, classes, text


def rerendering(child):
    """A parent with a 'Re-render' button (a new render of the parent, as a reloaded query causes)."""

    @component
    def Parent():
        count, set_count = use_state(0)

        async def bump(_event):
            set_count(count + 1)

        return html.div(child(), html.button({"on_click": bump, "data-count": count}, "Re-render"))

    return Parent


async def test_label_is_wired_to_the_input(mount):
    async with mount(lambda: Field("Full name", "name", autocomplete="name", required=True)) as ui:
        label = ui.find("label")
        control = ui.find("input")
        assert label["attributes"]["html_for"] == control["attributes"]["id"] == "field-name"
        assert text(label) == "Full name"
        assert attrs(control)["required"] is True
        assert attrs(control)["auto_complete"] == "name"
        assert "aria-invalid" not in attrs(control)


async def test_hint_and_error_are_described_and_invalid_is_set(mount):
    async with mount(
        lambda: Field("E-mail", "email", type="email", hint="We never share it.", error="Enter an e-mail.")
    ) as ui:
        control = ui.find("input")
        hint = ui.find("p", class_="hint")
        error = ui.find("p", class_="field-error")
        assert attrs(control)["aria-describedby"].split() == [attrs(hint)["id"], attrs(error)["id"]]
        assert attrs(control)["aria-invalid"] == "true"
        assert text(error) == "Enter an e-mail."
        assert "is-invalid" in classes(ui.find("div", class_="field"))


async def test_ids_are_unique_per_form_with_a_prefix(mount):
    def two_forms():
        return html.div(Field("Name", "name", id_prefix="signup"), Field("Name", "name", id_prefix="invite"))

    async with mount(two_forms) as ui:
        ids = [attrs(i)["id"] for i in ui.find_all("input")]
        assert ids == ["signup-name", "invite-name"]
        assert [attrs(label)["html_for"] for label in ui.find_all("label")] == ids


async def test_typed_text_survives_a_parent_rerender_and_on_change_hears_it(mount):
    heard: list[str] = []

    @component
    def Screen():
        error, set_error = use_state(None)

        async def submit(_event):
            set_error("Too short")

        return html.div(
            Field("Name", "name", error=error, on_change=heard.append),
            html.button({"on_click": submit}, "Save"),
        )

    async with mount(Screen) as ui:
        await ui.type(ui.find("input"), "Ada")
        assert heard == ["Ada"]
        await ui.fire(ui.find("button"))
        control = ui.find("input")
        assert (
            attrs(control)["default_value"] == "Ada"
        )  # Preact re-applies defaultValue: it must be the typed text
        assert attrs(control)["aria-invalid"] == "true"


async def test_a_form_collects_values_and_reset_remounts(mount):
    seen = {}

    @component
    def Screen():
        form = use_form(name="Grace", notes="")
        seen["form"] = form

        async def reset(_event):
            form.reset(name="", notes="")

        return html.form(
            Field("Name", "name", form=form),
            TextArea("Notes", "notes", form=form, rows=3),
            html.button({"on_click": reset}, "Reset"),
        )

    async with mount(Screen) as ui:
        assert attrs(ui.find("input"))["default_value"] == "Grace"
        await ui.type(ui.find("textarea"), "Allergic to latex")
        assert seen["form"].values == {"name": "Grace", "notes": "Allergic to latex"}
        key_before = ui.find("input")["key"]
        await ui.fire(ui.find("button"))
        assert ui.find("input")["key"] != key_before
        assert attrs(ui.find("textarea"))["default_value"] == ""


async def test_select_lists_options_and_keeps_the_choice(mount):
    chosen: list[str] = []

    async def choose(value: str) -> None:  # async handlers are awaited
        chosen.append(value)

    async with mount(
        rerendering(
            lambda: Select(
                "Role", "role", options=[("support", "Support"), ("admin", "Admin")], on_change=choose
            )
        )
    ) as ui:
        select = ui.find("select")
        assert [text(o) for o in ui.find_all("option")] == ["Support", "Admin"]
        # Nothing but <option>s: preact/compat reads props.value of each child of a select with a
        # defaultValue, and a text child ("") crashed the page in the browser.
        assert all(isinstance(c, dict) and c.get("tagName") == "option" for c in select["children"])
        assert attrs(select)["default_value"] == "support"
        assert attrs(ui.find("label"))["html_for"] == attrs(select)["id"]
        await ui.type(select, "admin")
        assert chosen == ["admin"]
        await ui.fire(ui.find("button", "Re-render"))
        assert attrs(ui.find("select"))["default_value"] == "admin"


async def test_checkbox_label_follows_the_box_and_reports_checked(mount):
    values: list[bool] = []
    async with mount(
        rerendering(
            lambda: Checkbox("Internal note", "internal", hint="Only staff see it.", on_change=values.append)
        )
    ) as ui:
        box = ui.find("input", type="checkbox")
        assert attrs(ui.find("label"))["html_for"] == attrs(box)["id"]
        assert attrs(box)["aria-describedby"] == attrs(ui.find("p", class_="hint"))["id"]
        await ui.fire(box, "on_change", {"target": {"checked": True, "value": "on"}})
        assert values == [True]
        await ui.fire(ui.find("button", "Re-render"))
        assert attrs(ui.find("input"))["default_checked"] is True


async def test_a_hidden_label_still_names_the_control(mount):
    async with mount(lambda: Field("Price for Wound care", "price", type="number", hide_label=True)) as ui:
        label = ui.find("label")
        assert attrs(label)["html_for"] == attrs(ui.find("input"))["id"]
        assert classes(label) == {"sr-only"}
        assert text(label) == "Price for Wound care"
    async with mount(lambda: Field("Name", "name")) as ui:
        assert "class_name" not in attrs(ui.find("label"))  # visible by default, as before


async def test_field_passes_browser_validation_and_textarea_spelling(mount):
    async with mount(
        lambda: html.div(
            Field("ZIP", "zip", pattern="[0-9]{5}", title="Five digits", step=None),
            Field("Price", "price", type="number", min="0", step="0.01"),
            TextArea("ZIPs", "zips", spell_check=False, autocomplete="off"),
        )
    ) as ui:
        zip_input, price = ui.find_all("input")
        assert attrs(zip_input)["pattern"] == "[0-9]{5}" and attrs(zip_input)["title"] == "Five digits"
        assert "step" not in attrs(zip_input)
        assert attrs(price)["step"] == "0.01" and attrs(price)["min"] == "0"
        area = attrs(ui.find("textarea"))
        assert area["spell_check"] == "false" and area["auto_complete"] == "off"


async def test_select_groups_options_in_optgroups(mount):
    async with mount(
        lambda: Select(
            "Service",
            "service",
            options=[("", "Any service"), ("IV therapy", [("iv", "Any IV"), ("hydration", "Hydration")])],
        )
    ) as ui:
        select = ui.find("select")
        assert [c["tagName"] for c in select["children"]] == ["option", "optgroup"]
        group = ui.find("optgroup")
        assert attrs(group)["label"] == "IV therapy"
        assert [text(o) for o in ui.find_all("option")] == ["Any service", "Any IV", "Hydration"]
        assert attrs(select)["default_value"] == ""
