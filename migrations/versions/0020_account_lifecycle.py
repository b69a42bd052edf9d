"""account lifecycle: the VIP welcome seen, the onboarding checklist dismissed and a scheduled deletion
(account_states), and the patient's saved visit address (account_addresses)

Revision ID: 0020
Revises: 0018
Create Date: 2026-11-27 01:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'account_states',
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('vip_welcome_seen_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('onboarding_dismissed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('deletion_requested_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('deletion_due_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['user_id'], ['auth_users.id'], name=op.f('fk_account_states_user_id_auth_users'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('user_id', name=op.f('pk_account_states')),
    )
    op.create_index(op.f('ix_account_states_deletion_due_at'), 'account_states', ['deletion_due_at'])
    op.create_table(
        'account_addresses',
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('address_line', sa.String(length=200), nullable=False),
        sa.Column('city', sa.String(length=100), nullable=False),
        sa.Column('state', sa.String(length=2), nullable=False),
        sa.Column('zip_code', sa.String(length=5), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['user_id'], ['auth_users.id'], name=op.f('fk_account_addresses_user_id_auth_users'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('user_id', name=op.f('pk_account_addresses')),
    )


def downgrade() -> None:
    op.drop_table('account_addresses')
    op.drop_index(op.f('ix_account_states_deletion_due_at'), table_name='account_states')
    op.drop_table('account_states')
