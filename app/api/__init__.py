"""JSON HTTP surfaces registered before the ReactPy catch-all: health, functions."""
