"""public shell: outbox, bug reports, unknown paths

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 10:40:27.520047
"""

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('bug_reports',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('user_agent', sa.String(length=512), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bug_reports'))
    )
    with op.batch_alter_table('bug_reports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bug_reports_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_bug_reports_email'), ['email'], unique=False)

    op.create_table('not_found_paths',
    sa.Column('path', sa.String(length=512), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.Column('first_seen', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('path', name=op.f('pk_not_found_paths'))
    )
    with op.batch_alter_table('not_found_paths', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_not_found_paths_last_seen'), ['last_seen'], unique=False)

    op.create_table('outbox_messages',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('sender', sa.String(length=320), nullable=False),
    sa.Column('recipients', sa.JSON(), nullable=False),
    sa.Column('subject', sa.String(length=998), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('status', sa.Enum('queued', 'sent', 'failed', name='outboxstatus', native_enum=False, length=16), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_messages'))
    )
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_messages_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_messages_status'), ['status'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('outbox_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_messages_status'))
        batch_op.drop_index(batch_op.f('ix_outbox_messages_created_at'))

    op.drop_table('outbox_messages')
    with op.batch_alter_table('not_found_paths', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_not_found_paths_last_seen'))

    op.drop_table('not_found_paths')
    with op.batch_alter_table('bug_reports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bug_reports_email'))
        batch_op.drop_index(batch_op.f('ix_bug_reports_created_at'))

    op.drop_table('bug_reports')
