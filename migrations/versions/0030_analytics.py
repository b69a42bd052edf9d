"""analytics (issue 15 part 2): searches by ZIP code that found no provider, counted per ZIP per UTC day
(no personal data), and an index giving each patient's first completed visit (new vs returning patients)
from the index alone

Revision ID: 0030
Revises: 0026
Create Date: 2026-11-26 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0030'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'unmet_search_days',
        sa.Column('day', sa.Date(), nullable=False),
        sa.Column('zip_code', sa.String(length=5), nullable=False),
        sa.Column('searches', sa.Integer(), nullable=False),
        sa.CheckConstraint('searches >= 0', name=op.f('ck_unmet_search_days_searches_non_negative')),
        sa.PrimaryKeyConstraint('day', 'zip_code', name=op.f('pk_unmet_search_days')),
    )
    op.create_index(
        'ix_appointments_status_patient_starts', 'appointments', ['status', 'patient_id', 'starts_at']
    )


def downgrade() -> None:
    op.drop_index('ix_appointments_status_patient_starts', table_name='appointments')
    op.drop_table('unmet_search_days')
