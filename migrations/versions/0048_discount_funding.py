"""discount funding: a visit's charge records the sale's discount and who funds it (issue 29, item 6: the
business setting "Who pays for discounts", recorded when the order is booked so a later change never alters a
booked visit), and the part of a platform-funded discount refunds reversed.

Revision ID: 0048
Revises: 0047
Create Date: 2026-12-03 14:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0048"
down_revision = "0047"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.add_column(sa.Column("discount", sa.BigInteger(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("discount_funded_by", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("refunded_discount", sa.BigInteger(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.drop_column("refunded_discount")
        batch_op.drop_column("discount_funded_by")
        batch_op.drop_column("discount")
