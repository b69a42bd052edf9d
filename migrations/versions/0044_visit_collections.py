"""visit collections: what a provider collected in person for a pay-at-visit visit (issue 29, item 1)

Four columns on `ledger_visit_charges` rather than a table of collections: a visit is collected at most a few
times (at the door, then perhaps the rest later), and every collection is already its own immutable
`collected_at_visit` journal entry with its amount, who recorded it (actor_id), when, and the method in its
description. The charge keeps the running total the screens and the payment-due rule need in one row read
(`collected`, cents: the provider's price first, then the fee) and the latest collection's method, recorder
and time. Pay-at-visit visits completed
before this revision were booked the old way (all of it into the provider's pending earning): they count as
collected in full, without a method. The new account kind (provider_receivable) and entry kinds (collected_at_visit, fee_netted) need no
change here: the kind columns are plain strings (non-native enums without a CHECK).

Revision ID: 0044
Revises: 0043
Create Date: 2026-12-03 13:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0044"
down_revision = "0043"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.add_column(sa.Column("collected", sa.BigInteger(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("collection_method", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("collected_by", sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column("collected_at", sa.DateTime(timezone=True), nullable=True))
    # Pay-at-visit visits completed before this revision were booked as collected (`visit_completed`, into
    # the provider's pending earning): they are not payment due. No method: nobody recorded one.
    charges = sa.table(
        "ledger_visit_charges",
        sa.column("collected", sa.BigInteger()),
        sa.column("price", sa.BigInteger()),
        sa.column("fee", sa.BigInteger()),
        sa.column("paid_ahead", sa.Boolean()),
        sa.column("completed_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        charges.update()
        .where(charges.c.paid_ahead == sa.false(), charges.c.completed_at.is_not(None))
        .values(collected=charges.c.price + charges.c.fee)
    )


def downgrade() -> None:
    with op.batch_alter_table("ledger_visit_charges", schema=None) as batch_op:
        batch_op.drop_column("collected_at")
        batch_op.drop_column("collected_by")
        batch_op.drop_column("collection_method")
        batch_op.drop_column("collected")
