"""staff appointments (issue 15): indexes for the filters of /staff/appointments — a day or week of visits
by metro (the visit's state and city) and by service line (the services of a category)

Revision ID: 0029
Revises: 0032
Create Date: 2026-11-26 10:00:00
"""

from alembic import op


revision = '0029'
down_revision = '0032'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_appointments_metro_starts', 'appointments', ['state', 'city', 'starts_at'])
    op.create_index('ix_appointments_service_starts', 'appointments', ['service_id', 'starts_at'])


def downgrade() -> None:
    op.drop_index('ix_appointments_service_starts', table_name='appointments')
    op.drop_index('ix_appointments_metro_starts', table_name='appointments')
