"""upload quotas: index attachments by uploader and time (the daily quota sums them)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 00:20:00
"""

from alembic import op


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_ticket_attachments_uploader_created', 'ticket_attachments', ['uploaded_by', 'created_at'])


def downgrade() -> None:
    op.drop_index('ix_ticket_attachments_uploader_created', table_name='ticket_attachments')
