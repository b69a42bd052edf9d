"""The assembly: the FastAPI application with every HTTP surface and the ReactPy app (`main`), the ReactPy
root and router (`ui`), seeding (`seed`) and the command line (`cli`, run as `python -m medivisit`).

It is the top layer: it may import everything below it, and nothing imports it.
"""
