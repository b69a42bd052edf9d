"""staff preferences: the time zone a member pins for the portal and their help-desk signature

Revision ID: 0035
Revises: 0029
Create Date: 2026-11-26 11:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0035'
down_revision = '0029'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'staff_preferences',
        sa.Column('user_id', sa.String(36), sa.ForeignKey('auth_users.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('time_zone', sa.String(64), nullable=True),
        sa.Column('signature', sa.Text(), nullable=False, server_default=''),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('staff_preferences')
