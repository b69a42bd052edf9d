"""The HTTP surfaces: FastAPI routers that medivisit/main.py registers before the ReactPy catch-all
(health, functions, /auth/v1 and the browser's form posts, uploads and downloads, CSV exports, PDF
documents, webhooks). The screens' layer: they import the domains' public surfaces and no UI; deps.py
opens the request's unit of work.
"""
