"""automation (issue 15 part 4): the n8n webhook integration (one row), its durable outbox of event
deliveries and each delivery's attempts (the delivery log)

Revision ID: 0028
Revises: 0033
Create Date: 2026-11-26 10:30:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0028'
down_revision = '0033'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'automation_integration',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('webhook_url', sa.String(length=2048), nullable=False),
        sa.Column('connected', sa.Boolean(), nullable=False),
        sa.Column('connected_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('disabled_reason', sa.String(length=200), nullable=False),
        sa.Column('simulation', sa.Boolean(), nullable=False),
        sa.Column('secret_sealed', sa.Text(), nullable=False),
        sa.Column('previous_secret_sealed', sa.Text(), nullable=False),
        sa.Column('previous_secret_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('header_name', sa.String(length=64), nullable=False),
        sa.Column('header_token_sealed', sa.Text(), nullable=False),
        sa.Column('disabled_types', sa.JSON(), nullable=False),
        sa.Column('detailed_types', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_automation_integration')),
    )
    op.create_table(
        'automation_deliveries',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('message_id', sa.String(length=40), nullable=False),
        sa.Column('event_type', sa.String(length=64), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column(
            'status',
            sa.Enum('pending', 'delivered', 'failed', 'simulated', name='deliverystatus', native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_status_code', sa.Integer(), nullable=True),
        sa.Column('manual', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_automation_deliveries')),
        sa.UniqueConstraint('message_id', name=op.f('uq_automation_deliveries_message_id')),
    )
    op.create_index(op.f('ix_automation_deliveries_event_type'), 'automation_deliveries', ['event_type'])
    op.create_index(op.f('ix_automation_deliveries_status'), 'automation_deliveries', ['status'])
    op.create_index(op.f('ix_automation_deliveries_next_attempt_at'), 'automation_deliveries', ['next_attempt_at'])
    op.create_index(op.f('ix_automation_deliveries_created_at'), 'automation_deliveries', ['created_at'])
    op.create_table(
        'automation_attempts',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('delivery_id', sa.String(length=36), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column(
            'trigger',
            sa.Enum('scheduled', 'redeliver', 'test', name='attempttrigger', native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column('url', sa.String(length=2048), nullable=False),
        sa.Column('status_code', sa.Integer(), nullable=True),
        sa.Column('ok', sa.Boolean(), nullable=False),
        sa.Column('simulated', sa.Boolean(), nullable=False),
        sa.Column('error', sa.String(length=200), nullable=False),
        sa.Column('response_excerpt', sa.String(length=500), nullable=False),
        sa.Column('duration_ms', sa.Integer(), nullable=False),
        sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['delivery_id'], ['automation_deliveries.id'],
            name=op.f('fk_automation_attempts_delivery_id_automation_deliveries'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_automation_attempts')),
    )
    op.create_index(op.f('ix_automation_attempts_delivery_id'), 'automation_attempts', ['delivery_id'])
    op.create_index(op.f('ix_automation_attempts_attempted_at'), 'automation_attempts', ['attempted_at'])


def downgrade() -> None:
    op.drop_table('automation_attempts')
    op.drop_table('automation_deliveries')
    op.drop_table('automation_integration')
