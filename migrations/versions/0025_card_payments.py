"""card payments (issue 14, PAYMENT_GATEWAY=stripe): each order's card payment (its Stripe Checkout Session
and PaymentIntent, awaiting / paid / failed), each patient's Stripe Customer, and the webhook events already
processed (their id is the primary key: a replay is processed once)

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-26 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_payments",
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("patient_id", sa.String(length=36), nullable=False),
        sa.Column("gateway", sa.String(length=32), nullable=False),
        sa.Column("checkout_session_id", sa.String(length=255), nullable=False),
        sa.Column("payment_intent_id", sa.String(length=255), nullable=True),
        sa.Column("checkout_url", sa.String(length=2048), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column(
            "status",
            sa.Enum("awaiting", "paid", "failed", name="cardpaymentstatus", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("failure_reason", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["order_id"], ["orders.id"], name=op.f("fk_card_payments_order_id_orders"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("order_id", name=op.f("pk_card_payments")),
        sa.UniqueConstraint("checkout_session_id", name=op.f("uq_card_payments_checkout_session_id")),
    )
    with op.batch_alter_table("card_payments", schema=None) as batch_op:
        batch_op.create_index("ix_card_payments_intent", ["payment_intent_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_card_payments_patient_id"), ["patient_id"], unique=False)

    op.create_table(
        "payment_customers",
        sa.Column("user_id", sa.String(length=36), nullable=False),
        sa.Column("gateway", sa.String(length=32), nullable=False),
        sa.Column("customer_id", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["auth_users.id"],
            name=op.f("fk_payment_customers_user_id_auth_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_payment_customers")),
        sa.UniqueConstraint("customer_id", name=op.f("uq_payment_customers_customer_id")),
    )
    op.create_table(
        "payment_events",
        sa.Column("id", sa.String(length=255), nullable=False),
        sa.Column("gateway", sa.String(length=32), nullable=False),
        sa.Column("type", sa.String(length=100), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_events")),
    )


def downgrade() -> None:
    op.drop_table("payment_events")
    op.drop_table("payment_customers")
    with op.batch_alter_table("card_payments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_card_payments_patient_id"))
        batch_op.drop_index("ix_card_payments_intent")
    op.drop_table("card_payments")
