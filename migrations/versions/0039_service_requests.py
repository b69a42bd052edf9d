"""service requests (issue 17): a patient's request for a visit (service, place, ZIP code, preferred time
windows, private notes) and the providers' offers on it, one per provider and request

Revision ID: 0039
Revises: 0028
Create Date: 2026-11-26 14:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0039'
down_revision = '0028'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'service_requests',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('patient_id', sa.String(36), sa.ForeignKey('auth_users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('service_id', sa.String(36), sa.ForeignKey('services.id', ondelete='RESTRICT'),
                  nullable=False),
        sa.Column('location', sa.Enum('home', 'office', 'clinic', 'virtual', 'corporate_venue',
                                      name='servicelocation', native_enum=False, length=16), nullable=False),
        sa.Column('zip_code', sa.String(5), nullable=False),
        sa.Column('state', sa.String(2), nullable=False),
        sa.Column('time_zone', sa.String(64), nullable=False),
        sa.Column('windows', sa.JSON(), nullable=False),
        sa.Column('notes', sa.Text(), nullable=False),
        sa.Column('status', sa.Enum('open', 'offered', 'booked', 'expired', 'cancelled', name='requeststatus',
                                    native_enum=False, length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('appointment_id', sa.String(36), sa.ForeignKey('appointments.id', ondelete='SET NULL'),
                  nullable=True),
        sa.Column('order_number', sa.String(16), nullable=False),
    )
    op.create_index('ix_service_requests_board', 'service_requests',
                    ['status', 'service_id', 'zip_code', 'created_at'])
    op.create_index('ix_service_requests_patient', 'service_requests', ['patient_id', 'created_at'])
    op.create_index('ix_service_requests_expiry', 'service_requests', ['status', 'expires_at'])
    op.create_index('ix_service_requests_created_at', 'service_requests', ['created_at'])
    op.create_table(
        'service_request_offers',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('request_id', sa.String(36), sa.ForeignKey('service_requests.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('provider_id', sa.String(36), sa.ForeignKey('providers.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('price', sa.Numeric(10, 2), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('message', sa.String(300), nullable=False),
        sa.Column('status', sa.Enum('pending', 'accepted', 'declined', 'withdrawn', 'expired',
                                    name='offerstatus', native_enum=False, length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint('request_id', 'provider_id', name='uq_service_request_offers_request_provider'),
    )
    op.create_index('ix_service_request_offers_provider', 'service_request_offers',
                    ['provider_id', 'created_at'])
    op.create_index('ix_service_request_offers_created_at', 'service_request_offers', ['created_at'])


def downgrade() -> None:
    op.drop_table('service_request_offers')
    op.drop_table('service_requests')
