"""ad view marks: one billed view of a flight per placement per network (a keyed hash of the client's /24
or /48) per window, whatever the cookies (issue 27)

Revision ID: 0043
Revises: 0040
Create Date: 2026-12-01 23:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0043"
down_revision = "0040"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ad_view_marks",
        sa.Column("flight_id", sa.String(length=36), nullable=False),
        sa.Column("placement", sa.String(length=32), nullable=False),
        sa.Column("network", sa.String(length=32), nullable=False),
        sa.Column("period", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["flight_id"],
            ["ad_flights.id"],
            name=op.f("fk_ad_view_marks_flight_id_ad_flights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("flight_id", "placement", "network", "period", name=op.f("pk_ad_view_marks")),
    )
    op.create_index("ix_ad_view_marks_period", "ad_view_marks", ["period"])


def downgrade() -> None:
    op.drop_index("ix_ad_view_marks_period", table_name="ad_view_marks")
    op.drop_table("ad_view_marks")
