"""store orders' shipping and sales tax (issue 29, item 4): two columns, and the CHECK that a total adds up

A store order now records subtotal, shipping, tax, fee and total. Orders placed before this revision had
neither shipping nor tax (both 0) and keep the 5 % fee they were placed with, so the new CHECK
(total = subtotal + shipping + tax + fee) holds for them unchanged. The ledger's new account kind
(`sales_tax`) needs no change here: the kind columns are plain strings.

Revision ID: 0045
Revises: 0044
Create Date: 2026-12-03 14:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0045"
down_revision = "0044"
branch_labels = None
depends_on = None

OLD = "total_cents = subtotal_cents + fee_cents"
NEW = "total_cents = subtotal_cents + shipping_cents + tax_cents + fee_cents"


def upgrade() -> None:
    with op.batch_alter_table("store_orders", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shipping_cents", sa.BigInteger(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("tax_cents", sa.BigInteger(), nullable=False, server_default="0"))
        batch_op.drop_constraint(batch_op.f("ck_store_orders_total_adds_up"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_store_orders_total_adds_up"), NEW)


def downgrade() -> None:
    with op.batch_alter_table("store_orders", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_store_orders_total_adds_up"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_store_orders_total_adds_up"), OLD)
        batch_op.drop_column("tax_cents")
        batch_op.drop_column("shipping_cents")
