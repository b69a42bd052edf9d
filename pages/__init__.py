"""Public and signed-in screens, one module per screen; `pages.routes` is the route table."""
