"""Ads are paid (issue 29, item 5): a flight's billing (card or invoice), its pacing (the day's cap and spend),
the delivered spend booked as ad revenue and when its money was closed; the card payments of flights'
budgets (`ad_payments`, one Stripe Checkout Session each); advertisers staff approved for invoicing
(`ad_advertiser_terms`).

Revision ID: 0054
Revises: 0053
Create Date: 2026-12-06 21:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0054"
down_revision = "0053"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ad_flights") as batch:
        batch.add_column(sa.Column("billing", sa.String(16), nullable=False, server_default=""))
        batch.add_column(sa.Column("paced_on", sa.Date(), nullable=True))
        batch.add_column(
            sa.Column("pace_cap_millicents", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("paced_millicents", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("booked_cents", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("invoice_id", sa.String(36), nullable=True))
    # Flights approved before billing existed ran on terms.
    op.execute("UPDATE ad_flights SET billing = 'invoice' WHERE status NOT IN ('review', 'rejected')")
    op.create_table(
        "ad_payments",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "flight_id", sa.String(36), sa.ForeignKey("ad_flights.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("checkout_session_id", sa.String(255), nullable=False, unique=True),
        sa.Column("payment_intent_id", sa.String(255), nullable=True),
        sa.Column("checkout_url", sa.String(2048), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("failure_reason", sa.String(200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("refunded_cents", sa.BigInteger(), nullable=False),
        sa.Column("refund_id", sa.String(255), nullable=True),
        sa.Column("refunded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("refunded_cents <= amount", name="refund_within_payment"),
    )
    op.create_index("ix_ad_payments_flight", "ad_payments", ["flight_id", "created_at"])
    op.create_index("ix_ad_payments_created_at", "ad_payments", ["created_at"])
    op.create_table(
        "ad_advertiser_terms",
        sa.Column(
            "advertiser_id",
            sa.String(36),
            sa.ForeignKey("auth_users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("invoiced", sa.Boolean(), nullable=False),
        sa.Column("set_by", sa.String(36), nullable=True),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ad_advertiser_terms")
    op.drop_index("ix_ad_payments_created_at", table_name="ad_payments")
    op.drop_index("ix_ad_payments_flight", table_name="ad_payments")
    op.drop_table("ad_payments")
    with op.batch_alter_table("ad_flights") as batch:
        for name in (
            "invoice_id",
            "settled_at",
            "booked_cents",
            "paced_millicents",
            "pace_cap_millicents",
            "paced_on",
            "billing",
        ):
            batch.drop_column(name)
