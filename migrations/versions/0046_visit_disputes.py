"""visit disputes: a patient's "Report a problem with this visit" and how payments staff resolved it
(issue 29, item 3)

One table. A partial unique index keeps one open dispute per visit (two reports at once cannot both land);
the staff queue reads (status, opened_at); the patient's visit card reads its visit's latest dispute through
(appointment_id, opened_at). The ledger's release job skips a visit with an open dispute.

Revision ID: 0046
Revises: 0045
Create Date: 2026-12-03 14:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0046"
down_revision = "0045"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "visit_disputes",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("appointment_id", sa.String(length=36), nullable=False),
        sa.Column("patient_id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("refunded_cents", sa.BigInteger(), nullable=False),
        sa.Column("resolution_note", sa.String(length=500), nullable=False),
        sa.Column("resolved_by", sa.String(length=36), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["appointment_id"],
            ["appointments.id"],
            name=op.f("fk_visit_disputes_appointment_id_appointments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_visit_disputes")),
    )
    op.create_index(
        "uq_visit_disputes_one_open",
        "visit_disputes",
        ["appointment_id"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_index("ix_visit_disputes_appointment", "visit_disputes", ["appointment_id", "opened_at"])
    op.create_index("ix_visit_disputes_queue", "visit_disputes", ["status", "opened_at"])


def downgrade() -> None:
    op.drop_index("ix_visit_disputes_queue", table_name="visit_disputes")
    op.drop_index("ix_visit_disputes_appointment", table_name="visit_disputes")
    op.drop_index("uq_visit_disputes_one_open", table_name="visit_disputes")
    op.drop_table("visit_disputes")
