"""One checkout for a mixed cart and store orders paid by card (issue 29, item 4): a store order keeps the
visit order placed with it from the same cart (`visit_order_id`, one payment) and when a card order was paid
(`paid_at`); a store order paid by card on its own has its Stripe Checkout Session in `store_card_payments`.

Revision ID: 0053
Revises: 0051
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0053"
down_revision = "0051"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("store_orders") as batch:
        batch.add_column(sa.Column("visit_order_id", sa.String(36), nullable=True))
        batch.add_column(sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_foreign_key(
            "fk_store_orders_visit_order_id_orders", "orders", ["visit_order_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_store_orders_visit_order_id", ["visit_order_id"])
    op.create_table(
        "store_card_payments",
        sa.Column(
            "store_order_id",
            sa.String(36),
            sa.ForeignKey("store_orders.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("checkout_session_id", sa.String(255), nullable=False, unique=True),
        sa.Column("payment_intent_id", sa.String(255), nullable=True),
        sa.Column("checkout_url", sa.String(2048), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("failure_reason", sa.String(200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_store_card_payments_intent", "store_card_payments", ["payment_intent_id"])


def downgrade() -> None:
    op.drop_index("ix_store_card_payments_intent", table_name="store_card_payments")
    op.drop_table("store_card_payments")
    with op.batch_alter_table("store_orders") as batch:
        batch.drop_index("ix_store_orders_visit_order_id")
        batch.drop_constraint("fk_store_orders_visit_order_id_orders", type_="foreignkey")
        batch.drop_column("paid_at")
        batch.drop_column("visit_order_id")
