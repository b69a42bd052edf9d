"""Refunds of store orders to the card (issue 29, item 3): a card refund belongs to a visit order or to a store
order (`card_refunds.store_order_id`; a store order paid with visits on one checkout names both), so its
`order_id` may be empty (a store order paid on its own).

Revision ID: 0055
Revises: 0054
Create Date: 2026-12-06 22:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0055"
down_revision = "0054"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("card_refunds") as batch:
        batch.alter_column("order_id", existing_type=sa.String(length=36), nullable=True)
        batch.add_column(sa.Column("store_order_id", sa.String(length=36), nullable=True))
        batch.create_foreign_key(
            op.f("fk_card_refunds_store_order_id_store_orders"),
            "store_orders",
            ["store_order_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_index("ix_card_refunds_store_order", ["store_order_id"], unique=False)


def downgrade() -> None:
    op.execute("DELETE FROM card_refunds WHERE order_id IS NULL")
    with op.batch_alter_table("card_refunds") as batch:
        batch.drop_index("ix_card_refunds_store_order")
        batch.drop_constraint(op.f("fk_card_refunds_store_order_id_store_orders"), type_="foreignkey")
        batch.drop_column("store_order_id")
        batch.alter_column("order_id", existing_type=sa.String(length=36), nullable=False)
