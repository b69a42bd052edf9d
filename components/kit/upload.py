"""A file that uploads as soon as it is chosen (static/js/uploads.js posts it; components/browser.py has
the data attributes): `file_input`, the visually hidden file input; `file_button`, its label drawn as a
small button (a plus and the label: "Upload a photo", "Replace CV"); and `upload_receiver`, the hidden sink
the browser fills with what it staged (its change tells the screen) and the live line that reports the
upload's progress and errors. All three go inside an element carrying `browser.upload_scope()`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components import browser
from components.icons import icon
from components.kit._util import classes


def file_button(label: Any, *, input_id: str, class_name: str | None = None) -> VdomDict:
    """`label.btn.btn-outline.btn-sm` for the file input `input_id`: a plus, then `label`."""
    return html.label(
        {"class_name": classes("btn btn-outline btn-sm", class_name), "html_for": input_id},
        icon("plus", size=16),
        label,
    )


def file_input(
    input_id: str,
    *,
    accept: str,
    max_bytes: int,
    url: str | None = None,
    max_files: int = 1,
    **attributes: Any,
) -> VdomDict:
    """The file input (`sr-only`: its `file_button` is what shows), taking `accept` files of at most
    `max_bytes`, posted to `url` (or /api/uploads); other `attributes` (aria-*) go on it."""
    return html.input(
        {
            "id": input_id,
            "type": "file",
            "class_name": "sr-only",
            "accept": accept,
            **attributes,
            **browser.upload_input(max_bytes=max_bytes, max_files=max_files, url=url),
        }
    )


def upload_receiver(on_uploaded: Callable[[dict], Any]) -> VdomDict:
    """The hidden sink (`on_uploaded` hears its change: the staged files' JSON in its value) and the
    `span.attach-status` live line the browser writes the upload's progress and errors into."""
    return html._(
        html.input({"type": "hidden", **browser.upload_sink(), "on_change": on_uploaded}),
        html.span({"class_name": "attach-status", **browser.upload_status(), "role": "status"}),
    )
