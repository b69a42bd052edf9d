"""rate limit counters shared by every worker and host (app/ratelimit.py PostgresCounters)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 00:40:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'rate_limit_counters',
        sa.Column('bucket', sa.String(length=255), nullable=False),
        sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
        sa.Column('hits', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('bucket', name=op.f('pk_rate_limit_counters')),
    )
    op.create_index('ix_rate_limit_counters_window_start', 'rate_limit_counters', ['window_start'])


def downgrade() -> None:
    op.drop_index('ix_rate_limit_counters_window_start', table_name='rate_limit_counters')
    op.drop_table('rate_limit_counters')
