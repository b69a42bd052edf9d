"""Refunds to the card (issue 29, item 3): card_refunds, one row per refund sent back to a patient's card
(its refund transaction's id, the Stripe refund and charge, the amount in cents and its status).

Revision ID: 0050
Revises: 0049
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0050"
down_revision = "0049"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_refunds",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("appointment_id", sa.String(length=36), nullable=True),
        sa.Column("patient_id", sa.String(length=36), nullable=False),
        sa.Column("payment_intent_id", sa.String(length=255), nullable=False),
        sa.Column("refund_id", sa.String(length=255), nullable=True),
        sa.Column("charge_id", sa.String(length=255), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum("pending", "succeeded", "failed", name="cardrefundstatus", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("failure_reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["id"], ["transactions.id"], name=op.f("fk_card_refunds_id_transactions"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["order_id"], ["orders.id"], name=op.f("fk_card_refunds_order_id_orders"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_refunds")),
        sa.UniqueConstraint("refund_id", name=op.f("uq_card_refunds_refund_id")),
    )
    op.create_index("ix_card_refunds_order", "card_refunds", ["order_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_card_refunds_order", table_name="card_refunds")
    op.drop_table("card_refunds")
