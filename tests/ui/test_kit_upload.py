"""The kit's pieces of a file that uploads as soon as it is chosen (components/kit/upload.py): the hidden
file input, its label drawn as a button, and the sink and live status line uploads.js fills."""

from __future__ import annotations

from components.kit import file_button, file_input, upload_receiver
from tests.ui.harness import attrs, classes, find, find_all, text


def test_the_button_is_the_label_of_the_hidden_input():
    button = file_button("Upload a photo", input_id="photo-file", class_name="enroll-file-button")
    assert button["tagName"] == "label" and attrs(button)["html_for"] == "photo-file"
    assert classes(button) == {"btn", "btn-outline", "btn-sm", "enroll-file-button"}
    assert "i-plus" in classes(find(button, "span")) and text(button) == "Upload a photo"


def test_the_input_is_a_visually_hidden_file_input_posting_to_its_url():
    field = file_input(
        "cv", accept=".pdf", max_bytes=2048, url="/api/careers/cv", **{"aria-required": "true"}
    )
    a = attrs(field)
    assert field["tagName"] == "input" and a["type"] == "file" and a["id"] == "cv"
    assert classes(field) == {"sr-only"} and a["accept"] == ".pdf" and a["aria-required"] == "true"
    assert a["data-upload-url"] == "/api/careers/cv" and a["data-max-bytes"] == "2048"
    assert a["data-max-files"] == "1"


def test_the_receiver_is_the_hidden_sink_and_the_status_line():
    def heard(_event: dict) -> None:
        return None

    receiver = upload_receiver(heard)
    sink = find(receiver, "input")
    assert attrs(sink)["type"] == "hidden" and "data-upload-sink" in attrs(sink)
    assert "on_change" in sink["eventHandlers"]
    [status] = find_all(receiver, "span")
    assert classes(status) == {"attach-status"} and attrs(status)["role"] == "status"
