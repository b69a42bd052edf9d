"""DataTable (sorting, paging, the 100-row cap, the empty state) and Chart (an SVG image, no script)."""

from __future__ import annotations

import base64
import re

from reactpy import component, use_state

from components.kit import Chart, Column, DataTable, clamp_page_size
from components.kit.chart import DARK, LIGHT, render_svg
from tests.ui.harness import attrs, find, find_all, text

COLUMNS = [
    Column("name", "Name", sortable=True),
    Column("visits", "Visits", sortable=True, numeric=True),
    Column("email", "E-mail", render=lambda row: row["email"].lower()),
]
ROWS = [{"name": f"Patient {i:03}", "visits": i, "email": f"P{i}@EXAMPLE.COM"} for i in range(250)]


def test_page_size_is_clamped_to_100_rows():
    assert clamp_page_size(1000) == 100 and clamp_page_size(0) == 1
    table = DataTable(COLUMNS, ROWS, caption="Patients", page_size=500, on_page=lambda p: None)
    assert len(find_all(table, "tbody")[0]["children"]) == 100
    assert text(find(table, "span", class_="page-status")) == "Page 1 of 3"
    server_paged = DataTable(COLUMNS, ROWS, caption="Patients", page_size=1000, total=5000)
    assert len(find_all(server_paged, "tr")) == 101  # the header row and 100 rows


def test_cells_are_labelled_for_small_screens_and_rendered():
    table = DataTable(COLUMNS, ROWS[:2], caption="Patients")
    assert text(find(table, "caption")) == "Patients"
    first = find_all(table, "td")[:3]
    assert [attrs(td)["data-label"] for td in first] == ["Name", "Visits", "E-mail"]
    assert [text(td) for td in first] == ["Patient 000", "0", "p0@example.com"]


def test_empty_state_replaces_the_table():
    table = DataTable(COLUMNS, [], caption="Patients", empty="No patients match these filters.")
    assert not find_all(table, "table")
    assert text(find(table, "p", class_="staff-empty")) == "No patients match these filters."


def test_sorted_header_has_aria_sort_and_links_ask_for_the_other_direction():
    table = DataTable(
        COLUMNS, ROWS[:3], caption="Patients", sort_key="visits", sort_dir="asc",
        sort_href=lambda key, direction: f"?sort={key}&dir={direction}",
    )  # fmt: skip
    name, visits, email = find_all(table, "th")
    assert attrs(visits)["aria-sort"] == "ascending" and "aria-sort" not in attrs(name)
    assert attrs(find(visits, "a"))["href"] == "?sort=visits&dir=desc"
    assert attrs(find(name, "a"))["href"] == "?sort=name&dir=asc"
    assert not find_all(email, "a") and not find_all(email, "button")  # not sortable


async def test_sort_buttons_and_pager_call_back(mount):
    calls: list[tuple] = []

    @component
    def Screen():
        sort, set_sort = use_state(("name", "asc"))
        page, set_page = use_state(1)

        async def on_sort(key, direction):
            calls.append(("sort", key, direction))
            set_sort((key, direction))

        def on_page(number):
            calls.append(("page", number))
            set_page(number)

        return DataTable(
            COLUMNS, ROWS, caption="Patients", sort_key=sort[0], sort_dir=sort[1], on_sort=on_sort,
            page=page, page_size=100, on_page=on_page,
        )  # fmt: skip

    async with mount(Screen) as ui:
        await ui.fire(ui.find("button", "Name"))
        assert calls[-1] == ("sort", "name", "desc")
        assert attrs(ui.find("th", "Name"))["aria-sort"] == "descending"
        await ui.fire(ui.find("button", "Next"))
        assert calls[-1] == ("page", 2)
        assert text(ui.find("span", class_="page-status")) == "Page 2 of 3"
        assert text(ui.find_all("td")[0]) == "Patient 100"
        assert ui.find("button", "Previous")


def _svgs(chart) -> list[str]:
    images = find_all(chart, "img")
    assert images, "the chart renders images"
    out = []
    for image in images:
        src = attrs(image)["src"]
        assert src.startswith("data:image/svg+xml;base64,")
        out.append(base64.b64decode(src.split(",", 1)[1]).decode())
    return out


def test_chart_is_an_svg_image_with_viewbox_and_no_script():
    chart = Chart("Visits per day", [("Visits", [3, 5, None])], labels=["Mon", "Tue", "Wed"])
    light, dark = _svgs(chart)
    for svg in (light, dark):
        assert svg.startswith("<svg") and 'viewBox="0 0 640 320"' in svg
        assert "<script" not in svg and "<?xml" not in svg
        assert not re.search(r'(?:xlink:)?href="(?:https?:)?//', svg)  # nothing external
    assert "#0f766e" in light and "#2dd4bf" in dark  # a palette per theme
    canvas = find(chart, role="img")
    assert attrs(canvas)["aria-label"] == "Visits per day. Visits: Mon 3, Tue 5, Wed no data."
    assert all(attrs(i)["alt"] == "" for i in find_all(chart, "img"))  # the wrapper carries the text
    assert {attrs(i)["class_name"] for i in find_all(chart, "img")} == {
        "chart-img chart-light",
        "chart-img chart-dark",
    }


def test_chart_output_is_stable_and_kinds_render():
    args = ("line", (("A", (1, 2)),), ("x", "y"), LIGHT, 300, 200, None, None, False)
    render_svg.cache_clear()
    first = render_svg(*args)
    render_svg.cache_clear()
    assert render_svg(*args) == first  # no random ids or dates
    for kind in ("pie", "horizontal_bar", "stacked_bar"):
        assert "viewBox" in _svgs(Chart("Mix", [("Share", [1, 2])], labels=["a", "b"], kind=kind))[0]


def _luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_chart_palettes_contrast_on_their_theme():
    for palette in (LIGHT, DARK):
        assert contrast(palette.text, palette.surface) >= 4.5
        assert contrast(palette.strong, palette.surface) >= 4.5
        assert all(contrast(colour, palette.surface) >= 3 for colour in palette.series)
