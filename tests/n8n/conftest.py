"""The opt-in n8n test borrows the service tests' `identity` fixture (fast hashing, a signing key of its own)."""

from tests.unit.conftest import identity

__all__ = ["identity"]
