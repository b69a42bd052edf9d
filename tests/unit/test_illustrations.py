"""The service-line illustrations: small static SVGs with nothing active in them, a light and a dark file per
picture that draw the same shapes, and decorative <img>s of a fixed size (components/illustrations.py)."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from app.settings import PROJECT_ROOT
from components.catalog_copy import CATEGORIES
from components.illustrations import HEIGHT, SERVICE_ILLUSTRATIONS, WIDTH, illustration
from tests.ui.harness import attrs, children

FOLDER = PROJECT_ROOT / "static" / "img" / "services"
SVG = "{http://www.w3.org/2000/svg}"
COLOURS = re.compile(r'\s(fill|stroke)(-opacity)?="[^"]*"')


def test_every_service_category_has_an_illustration() -> None:
    assert {category.slug for category in CATEGORIES} == set(SERVICE_ILLUSTRATIONS)


@pytest.mark.parametrize(
    "name", [f"{slug}{variant}" for slug in SERVICE_ILLUSTRATIONS for variant in ("", "-dark")]
)
def test_a_file_is_small_plain_svg_of_the_declared_size(name: str) -> None:
    source = (FOLDER / f"{name}.svg").read_text()
    assert len(source.encode()) < 4096
    root = ElementTree.fromstring(source)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    tags = {element.tag.removeprefix(SVG) for element in root.iter()}
    # Nothing a browser would run or fetch: shapes and groups only.
    assert tags <= {"svg", "g", "path", "rect", "circle", "ellipse"}, tags
    assert "href" not in source and "url(" not in source and "style" not in source


@pytest.mark.parametrize("slug", SERVICE_ILLUSTRATIONS)
def test_the_dark_file_draws_the_same_shapes_in_other_colours(slug: str) -> None:
    light = (FOLDER / f"{slug}.svg").read_text()
    dark = (FOLDER / f"{slug}-dark.svg").read_text()
    assert light != dark
    assert COLOURS.sub("", light) == COLOURS.sub("", dark)


def test_the_images_are_decorative_lazy_and_sized() -> None:
    tile = illustration("iv-therapy", class_name="card-media")
    assert attrs(tile)["class_name"] == "illus card-media"
    light, dark = children(tile)
    assert attrs(light)["src"] == "/static/img/services/iv-therapy.svg"
    assert attrs(dark)["src"] == "/static/img/services/iv-therapy-dark.svg"
    for image in (light, dark):
        attributes = attrs(image)
        assert attributes["alt"] == "" and attributes["loading"] == "lazy"
        assert (attributes["width"], attributes["height"]) == (str(WIDTH), str(HEIGHT))
    with pytest.raises(ValueError):
        illustration("dentistry")
