"""Form fields: `Field` (an <input>), `TextArea`, `Select` and `Checkbox`.

Each renders the label, the control, an optional hint and an optional error inside `div.field`, wired for
assistive technology: the label's `html_for` is the control's id, `aria-describedby` names the hint and the
error, `aria-invalid` is set while there is an error, `required` is passed through.

Ids come from the name: `{id_prefix}-{name}` (prefix "field", as in components/forms.py), the hint
`…-hint`, the error `…-error`; give each form its own `id_prefix` when two forms share a page.

`hide_label=True` keeps the label for screen readers only (it still names the control);
`control_attributes` are merged last into the control's attributes (e.g. a `components.browser` helper
such as `typing_field()`, or `{"auto_focus": True}`).

Typing costs no render. The controls are uncontrolled; each change is written on the server (to the
`form` when one is given — components/forms.py's `use_form()` — otherwise to the field's own ref) and the
written value is what the next render hands back as `default_value`. Preact re-applies `defaultValue` on
every render, so that is what keeps the typed text when the screen re-renders (an error appears, a
query reloads). `form.reset()` remounts the controls with the reset values.

`hide_label=True` keeps the label for assistive technology only (`sr-only`), for a control whose
purpose the layout already shows (a price beside its service, a day filter beside its button).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reactpy import component, html, use_ref
from reactpy.core.vdom import make_vdom_constructor
from reactpy.types import VdomDict
from typing_extensions import TypeIs

from components.forms import Form
from components.kit._util import Handler, call, classes

Option = tuple[str, str] | str
"""A <select> option: (value, label), or one string used as both."""
OptionGroup = tuple[str, Sequence[Option]]
"""An <optgroup>: (group label, its options)."""

optgroup = make_vdom_constructor("optgroup")  # not among reactpy.html's elements


def field_ids(name: str, *, id_prefix: str = "field", id: str | None = None) -> tuple[str, str, str]:
    """(control id, hint id, error id) of the field `name`."""
    control = id or f"{id_prefix}-{name}"
    return control, f"{control}-hint", f"{control}-error"


class _Value:
    """Where a field's typed value lives between renders: the form's values or the field's own ref."""

    def __init__(self, name: str, form: Form | None, default: Any) -> None:
        self.name = name
        self.form = form
        self.ref = use_ref(default)
        if form is not None and name not in form.values:
            form.values[name] = default

    @property
    def current(self) -> Any:
        return self.form.values.get(self.name) if self.form is not None else self.ref.current

    def set(self, value: Any) -> None:
        if self.form is not None:
            self.form.values[self.name] = value
            self.form.changed()
        else:
            self.ref.current = value

    @property
    def key(self) -> str:
        """The control's key: a new one after `form.reset()` remounts it with the reset value."""
        return f"{self.name}-{self.form.version if self.form is not None else 0}"


def _frame(
    *,
    name: str,
    label: Any,
    control: VdomDict,
    ids: tuple[str, str, str],
    hint: Any,
    error: Any,
    check: bool = False,
    class_name: str | None = None,
    hide_label: bool = False,
) -> VdomDict:
    control_id, hint_id, error_id = ids
    label_attributes: dict[str, Any] = {"html_for": control_id}
    if hide_label:
        label_attributes["class_name"] = "sr-only"
    label_element = html.label(label_attributes, label)
    return html.div(
        {
            "class_name": classes(
                "field", f"field-{name}", check and "field-check", error and "is-invalid", class_name
            )
        },
        html.div({"class_name": "field-check-row"}, control, label_element) if check else label_element,
        "" if check else control,
        html.p({"class_name": "hint", "id": hint_id}, hint) if hint else "",
        html.p({"class_name": "form-error field-error", "id": error_id}, error) if error else "",
    )


def _aria(ids: tuple[str, str, str], hint: Any, error: Any, required: bool) -> dict[str, Any]:
    _control_id, hint_id, error_id = ids
    described = " ".join(i for i, shown in ((hint_id, hint), (error_id, error)) if shown)
    attributes: dict[str, Any] = {}
    if described:
        attributes["aria-describedby"] = described
    if error:
        attributes["aria-invalid"] = "true"
    if required:
        attributes["required"] = True
    return attributes


def _text_change(value: _Value, on_change: Handler | None) -> Any:
    async def changed(event: dict[str, Any]) -> None:
        text = event["target"]["value"]
        value.set(text)
        await call(on_change, text)

    return changed


def _given(**attributes: Any) -> dict[str, Any]:
    """The attributes that were given (not None)."""
    return {key: value for key, value in attributes.items() if value is not None}


def _text_control(
    name: str,
    value: _Value,
    ids: tuple[str, str, str],
    on_change: Handler | None,
    *,
    hint: Any,
    error: Any,
    required: bool,
    disabled: bool,
) -> dict[str, Any]:
    """What every text control (input, textarea, select) carries: its id and name, the kept value, the change handler and ARIA."""
    return {
        "id": ids[0],
        "name": name,
        "class_name": "input",
        "key": value.key,
        "default_value": value.current or "",
        "disabled": disabled,
        "on_change": _text_change(value, on_change),
        **_aria(ids, hint, error, required),
    }


@component
def Field(
    label: Any,
    name: str,
    *,
    default: str = "",
    form: Form | None = None,
    type: str = "text",
    hint: Any = None,
    error: Any = None,
    required: bool = False,
    max_length: int | None = 200,
    autocomplete: str | None = None,
    placeholder: str | None = None,
    input_mode: str | None = None,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    pattern: str | None = None,
    title: str | None = None,
    disabled: bool = False,
    on_change: Handler | None = None,
    id_prefix: str = "field",
    id: str | None = None,
    class_name: str | None = None,
    hide_label: bool = False,
    control_attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """A labelled <input>. `default` is the first value (the form's value wins when `form` is given);
    `on_change(text)` hears every change (sync or async) without a render of its own. `min`/`max`/`step`
    bound date, time and number inputs; `pattern` and `title` are the browser's own validation."""
    value = _Value(name, form, default)
    ids = field_ids(name, id_prefix=id_prefix, id=id)
    attributes = {
        "type": type,
        **_text_control(
            name, value, ids, on_change, hint=hint, error=error, required=required, disabled=disabled
        ),
        **_given(
            max_length=max_length,
            auto_complete=autocomplete,
            placeholder=placeholder,
            input_mode=input_mode,
            min=min,
            max=max,
            step=step,
            pattern=pattern,
            title=title,
        ),
    }
    return _frame(
        name=name,
        label=label,
        control=html.input({**attributes, **(control_attributes or {})}),
        ids=ids,
        hint=hint,
        error=error,
        class_name=class_name,
        hide_label=hide_label,
    )


@component
def TextArea(
    label: Any,
    name: str,
    *,
    default: str = "",
    form: Form | None = None,
    rows: int = 5,
    hint: Any = None,
    error: Any = None,
    required: bool = False,
    max_length: int | None = 5000,
    placeholder: str | None = None,
    autocomplete: str | None = None,
    spell_check: bool | None = None,
    disabled: bool = False,
    on_change: Handler | None = None,
    id_prefix: str = "field",
    id: str | None = None,
    class_name: str | None = None,
    hide_label: bool = False,
    control_attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """A labelled <textarea>; the same contract as `Field`."""
    value = _Value(name, form, default)
    ids = field_ids(name, id_prefix=id_prefix, id=id)
    attributes = {
        "rows": rows,
        **_text_control(
            name, value, ids, on_change, hint=hint, error=error, required=required, disabled=disabled
        ),
        **_given(
            max_length=max_length,
            placeholder=placeholder,
            auto_complete=autocomplete,
            spell_check=None if spell_check is None else ("true" if spell_check else "false"),
        ),
    }
    return _frame(
        name=name,
        label=label,
        control=html.textarea({**attributes, **(control_attributes or {})}),
        ids=ids,
        hint=hint,
        error=error,
        class_name=class_name,
        hide_label=hide_label,
    )


def _is_group(option: Option | OptionGroup) -> TypeIs[OptionGroup]:
    return not isinstance(option, str) and not isinstance(option[1], str)


def _options(options: Iterable[Option]) -> list[tuple[str, str]]:
    return [(o, o) if isinstance(o, str) else (str(o[0]), str(o[1])) for o in options]


def _option_elements(options: Sequence[Option | OptionGroup]) -> list[VdomDict]:
    elements: list[VdomDict] = []
    for option in options:
        if _is_group(option):
            label, members = option
            elements.append(
                optgroup(
                    {"label": label, "key": f"group-{label}"},
                    *(html.option({"value": v, "key": v}, text) for v, text in _options(members)),
                )
            )
        else:
            ((v, text),) = _options([option])
            elements.append(html.option({"value": v, "key": v}, text))
    return elements


@component
def Select(
    label: Any,
    name: str,
    *,
    options: Sequence[Option | OptionGroup],
    default: str | None = None,
    form: Form | None = None,
    placeholder: str | None = None,
    hint: Any = None,
    error: Any = None,
    required: bool = False,
    disabled: bool = False,
    on_change: Handler | None = None,
    id_prefix: str = "field",
    id: str | None = None,
    class_name: str | None = None,
    hide_label: bool = False,
    control_attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """A labelled <select>. `options` are (value, label) pairs or strings, or (group label, options)
    pairs shown as an <optgroup>; `placeholder` adds a first, empty option. Without a `default` the first
    option is selected (as the browser would)."""
    pairs = _options(
        [member for option in options for member in (option[1] if _is_group(option) else [option])]
    )
    first = "" if placeholder is not None else (pairs[0][0] if pairs else "")
    value = _Value(name, form, first if default is None else default)
    ids = field_ids(name, id_prefix=id_prefix, id=id)
    return _frame(
        name=name,
        label=label,
        control=html.select(
            {
                **_text_control(
                    name, value, ids, on_change, hint=hint, error=error, required=required, disabled=disabled
                ),
                **(control_attributes or {}),
            },
            # Options only: preact/compat reads `props.value` of every child of a select with a
            # defaultValue, so an empty-string child (no placeholder) breaks the page in the browser.
            *([html.option({"value": "", "key": ""}, placeholder)] if placeholder is not None else []),
            *_option_elements(options),
        ),
        ids=ids,
        hint=hint,
        error=error,
        class_name=class_name,
        hide_label=hide_label,
    )


def browser_field(
    label: Any,
    name: str,
    *,
    value: str = "",
    hint: Any = None,
    id_prefix: str = "field",
    type: str = "text",
    **attributes: Any,
) -> VdomDict:
    """Field's markup with nothing kept on the server, for a form the browser alone handles (a GET search
    form, browser.client_get_form): it holds no handler, so the form can be `frozen` and shared by every
    tab. `value` is the one it shows first; `attributes` are the input's own (max_length=10, …)."""
    ids = field_ids(name, id_prefix=id_prefix)
    control = html.input(
        {
            "type": type,
            "id": ids[0],
            "name": name,
            "class_name": "input",
            **({"default_value": value} if value else {}),
            **_aria(ids, hint, None, False),
            **_given(**attributes),
        }
    )
    return _frame(name=name, label=label, control=control, ids=ids, hint=hint, error=None)


def browser_select(
    label: Any,
    name: str,
    *,
    options: Sequence[Option | OptionGroup],
    value: str = "",
    id_prefix: str = "field",
) -> VdomDict:
    """Select's markup with nothing kept on the server (see `browser_field`): `value` chosen, else the
    first option."""
    ids = field_ids(name, id_prefix=id_prefix)
    control = html.select(
        {"id": ids[0], "name": name, "class_name": "input", **({"default_value": value} if value else {})},
        *_option_elements(options),
    )
    return _frame(name=name, label=label, control=control, ids=ids, hint=None, error=None)


@component
def Checkbox(
    label: Any,
    name: str,
    *,
    default: bool = False,
    form: Form | None = None,
    hint: Any = None,
    error: Any = None,
    required: bool = False,
    disabled: bool = False,
    on_change: Handler | None = None,
    id_prefix: str = "field",
    id: str | None = None,
    class_name: str | None = None,
    hide_label: bool = False,
    control_attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """A checkbox with its label beside it; `on_change(checked: bool)`. With a `form`, the value is kept
    in `form.values[name]` as a bool."""
    value = _Value(name, form, default)
    ids = field_ids(name, id_prefix=id_prefix, id=id)

    async def changed(event: dict[str, Any]) -> None:
        checked = bool(event["target"].get("checked"))
        value.set(checked)
        await call(on_change, checked)

    return _frame(
        name=name,
        label=label,
        control=html.input(
            {
                "id": ids[0],
                "name": name,
                "type": "checkbox",
                "key": value.key,
                "default_checked": bool(value.current),
                "disabled": disabled,
                "on_change": changed,
                **_aria(ids, hint, error, required),
                **(control_attributes or {}),
            }
        ),
        ids=ids,
        hint=hint,
        error=error,
        check=True,
        class_name=class_name,
        hide_label=hide_label,
    )
