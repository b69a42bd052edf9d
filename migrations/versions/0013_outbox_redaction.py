"""outbox: one-time codes and links are removed from stored messages after delivery or expiry

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24 00:50:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('redact_after', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_outbox_messages_redact_after', ['redact_after'], unique=False)
    # Codes and links already stored in plain text: nothing tells them apart from other mail but their
    # senders' subjects, so every identity message older than this migration is redacted now.
    op.execute(
        "UPDATE outbox_messages SET html = '<p>[This message held a one-time code or link. It was removed.]</p>' "
        "WHERE subject LIKE '%Confirm your sign-up' OR subject LIKE '%You are invited' "
        "OR subject LIKE '%Your sign-in link' OR subject LIKE '%Reset your password' "
        "OR subject LIKE '%Confirm your new e-mail address' OR subject LIKE '%Confirm it is you'"
    )


def downgrade() -> None:
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_messages_redact_after')
        batch_op.drop_column('redact_after')
