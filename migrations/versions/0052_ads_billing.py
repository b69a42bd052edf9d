"""ads paid for (issue 29, item 5): RESERVED for the helper building it; replace this docstring and fill in or delete.

Revision ID: 0052
Revises: 0051
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "0052"
down_revision = "0051"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
