"""feature toggles: an administrator's run-time choice per key (sign-ups, flash sale, …); a key without a
row keeps the server's setting

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-26 11:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0032'
down_revision = '0031'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'feature_settings',
        sa.Column('key', sa.String(40), primary_key=True),
        sa.Column('value', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_by', sa.String(36), nullable=True),
    )


def downgrade() -> None:
    op.drop_table('feature_settings')
