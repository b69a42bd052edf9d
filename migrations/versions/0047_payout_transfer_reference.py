"""payout transfer reference: the bank transfer's reference staff record when they send a payout (issue 29,
item 2, payouts without Stripe), shown to the provider beside the payout.

Revision ID: 0047
Revises: 0046
Create Date: 2026-12-03 14:05:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0047"
down_revision = "0046"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("payout_requests", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("transfer_reference", sa.String(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("payout_requests", schema=None) as batch_op:
        batch_op.drop_column("transfer_reference")
