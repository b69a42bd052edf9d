"""A hello-world ReactPy app (a counter on ReactPy's own page), the yardstick of tools/bench_pages.py: whatever
ReactPy, the browser and this machine cost by themselves, measured in the same run as the product.

Usage: python tools/hello_reactpy.py --port 8001
"""

from __future__ import annotations

import argparse

import uvicorn
from fastapi import FastAPI
from reactpy import component, html, use_state
from reactpy.backend import fastapi as reactpy_fastapi


@component
def Counter():  # noqa: ANN201
    count, set_count = use_state(0)
    return html.main(
        html.h1("Hello, world"),
        html.button(
            {"id": "count", "type": "button", "on_click": lambda _event: set_count(count + 1)},
            f"Clicked {count}",
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = FastAPI()
    reactpy_fastapi.configure(app, Counter)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
