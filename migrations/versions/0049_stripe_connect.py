"""Stripe Connect payouts (issue 29, item 2): each provider's Stripe Express account and what Stripe last said
of it (connect_accounts), and the Stripe transfer a payout was sent by (payout_requests.transfer_id).

Revision ID: 0049
Revises: 0048
Create Date: 2026-12-04 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0049"
down_revision = "0048"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "connect_accounts",
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=255), nullable=False),
        sa.Column("details_submitted", sa.Boolean(), nullable=False),
        sa.Column("payouts_enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["provider_id"],
            ["providers.id"],
            name=op.f("fk_connect_accounts_provider_id_providers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("provider_id", name=op.f("pk_connect_accounts")),
        sa.UniqueConstraint("account_id", name=op.f("uq_connect_accounts_account_id")),
    )
    with op.batch_alter_table("payout_requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("transfer_id", sa.String(length=255), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_payout_requests_transfer_id"), ["transfer_id"])


def downgrade() -> None:
    with op.batch_alter_table("payout_requests", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_payout_requests_transfer_id"), type_="unique")
        batch_op.drop_column("transfer_id")
    op.drop_table("connect_accounts")
