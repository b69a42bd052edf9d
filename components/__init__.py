"""Shared UI: the site frame, building blocks, the per-connection context and the hooks into the domain."""
