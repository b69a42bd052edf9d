"""one checkout for a mixed cart, store card payment (issue 29, item 4): RESERVED for the helper building it; replace this docstring and fill in or delete.

Revision ID: 0053
Revises: 0052
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "0053"
down_revision = "0052"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
