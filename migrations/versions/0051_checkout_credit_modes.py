"""wallet credit at checkout and allowed payment modes (issue 29, items 1 and 3): RESERVED for the helper building it; replace this docstring and fill in or delete.

Revision ID: 0051
Revises: 0050
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "0051"
down_revision = "0050"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
