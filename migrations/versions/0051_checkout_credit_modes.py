"""wallet credit at checkout (issue 29, item 3): the credit an order was paid with (`order_credits`) and each
visit's share of it on its charge (`ledger_visit_charges.credit`). The allowed payment modes (item 1) are a
business setting (feature_settings) and need no table.

Revision ID: 0051
Revises: 0050
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0051"
down_revision = "0050"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "order_credits",
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("patient_id", sa.String(length=36), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("returned_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("order_id", name=op.f("pk_order_credits")),
    )
    op.create_index(op.f("ix_order_credits_patient_id"), "order_credits", ["patient_id"], unique=False)
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.add_column(sa.Column("credit", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.drop_column("credit")
    op.drop_index(op.f("ix_order_credits_patient_id"), table_name="order_credits")
    op.drop_table("order_credits")
