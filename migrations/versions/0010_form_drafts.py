"""form drafts: unsent ticket, reply, review and visit-notes text kept across reconnects and restarts

Revision ID: 0010
Revises: 0006
Create Date: 2026-11-24 00:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('form_drafts',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('owner_key', sa.String(length=80), nullable=False),
    sa.Column('form_key', sa.String(length=120), nullable=False),
    sa.Column('fields', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_form_drafts')),
    sa.UniqueConstraint('owner_key', 'form_key', name='uq_form_drafts_owner_form')
    )
    with op.batch_alter_table('form_drafts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_form_drafts_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_form_drafts_owner_key'), ['owner_key'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('form_drafts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_form_drafts_owner_key'))
        batch_op.drop_index(batch_op.f('ix_form_drafts_expires_at'))

    op.drop_table('form_drafts')
