"""ticket overdue notices: when the staff were told a ticket missed its first-response or resolution due
time (each breach is announced once), and partial indexes holding only the open tickets whose breach is not
announced yet (the periodic job's scan)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 09:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None

OPEN_TICKET = "status NOT IN ('resolved', 'closed')"
FIRST_RESPONSE_UNANNOUNCED = (
    f'{OPEN_TICKET} AND first_responded_at IS NULL AND first_response_overdue_notified_at IS NULL'
)
RESOLUTION_UNANNOUNCED = f'{OPEN_TICKET} AND resolution_overdue_notified_at IS NULL'


def _where(condition: str) -> dict:
    return {'postgresql_where': sa.text(condition), 'sqlite_where': sa.text(condition)}


def upgrade() -> None:
    with op.batch_alter_table('tickets') as batch:
        batch.add_column(sa.Column('first_response_overdue_notified_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('resolution_overdue_notified_at', sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        'ix_tickets_first_response_watch', 'tickets', ['first_response_due_at'], **_where(FIRST_RESPONSE_UNANNOUNCED)
    )
    op.create_index('ix_tickets_resolution_watch', 'tickets', ['resolution_due_at'], **_where(RESOLUTION_UNANNOUNCED))


def downgrade() -> None:
    op.drop_index('ix_tickets_resolution_watch', table_name='tickets')
    op.drop_index('ix_tickets_first_response_watch', table_name='tickets')
    with op.batch_alter_table('tickets') as batch:
        batch.drop_column('resolution_overdue_notified_at')
        batch.drop_column('first_response_overdue_notified_at')
