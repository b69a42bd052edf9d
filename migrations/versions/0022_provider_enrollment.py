"""provider enrollment (issue 13): applications, licences, credential documents, the applications' timeline
and the managed list of decision reasons (filled by `seed`, like the service catalog); providers can be suspended and have their credentials
lapse

Revision ID: 0022
Revises: 0020 (re-chained after 0021 when that lands)
Create Date: 2026-11-28 09:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    target_table = target.split('.')[0]
    return sa.ForeignKeyConstraint(
        [column], [target], name=op.f(f'fk_{table}_{column}_{target_table}'), ondelete=ondelete
    )


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN (no batch copy on SQLite: it would lose the descending indexes).
    op.add_column('providers', sa.Column('suspended_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('providers', sa.Column('suspension_reason', sa.String(length=500), nullable=False, server_default=''))
    op.add_column('providers', sa.Column('credentials_lapsed_at', sa.DateTime(timezone=True), nullable=True))

    op.create_table(
        'provider_applications',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('status', sa.Enum('draft', 'submitted', 'in_review', 'needs_information', 'approved', 'rejected',
                                    name='applicationstatus', native_enum=False, length=24), nullable=False),
        sa.Column('step', sa.SmallInteger(), nullable=False),
        sa.Column('first_name', sa.String(length=80), nullable=False),
        sa.Column('last_name', sa.String(length=80), nullable=False),
        sa.Column('provider_type', sa.Enum(
            'doctor', 'nurse', 'technician', 'therapist', 'caregiver', 'counselor', 'pharmacist', 'nutritionist',
            'wellness_coach', 'fitness_instructor', 'beauty_professional', 'mental_health_therapist',
            'hair_professional', 'makeup_artist', 'cna', 'lvn', 'np', 'medical_assistant', 'medical_coder',
            'transportation', 'marriage_counselor', 'specialist', name='providertype', native_enum=False, length=32),
            nullable=True),
        sa.Column('phone', sa.String(length=20), nullable=False),
        sa.Column('photo_key', sa.String(length=64), nullable=False),
        sa.Column('languages', sa.JSON(), nullable=False),
        sa.Column('bio', sa.Text(), nullable=False),
        sa.Column('npi', sa.String(length=10), nullable=False),
        sa.Column('offers', sa.JSON(), nullable=False),
        sa.Column('zip_codes', sa.JSON(), nullable=False),
        sa.Column('weekly_hours', sa.JSON(), nullable=False),
        sa.Column('time_zone', sa.String(length=64), nullable=False),
        sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('status_changed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('decided_by', sa.String(length=36), nullable=True),
        sa.Column('decision_reasons', sa.JSON(), nullable=False),
        sa.Column('decision_message', sa.Text(), nullable=False),
        sa.Column('reapply_after', sa.DateTime(timezone=True), nullable=True),
        sa.Column('provider_id', sa.String(length=36), nullable=True),
        sa.Column('last_nudged_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint('step BETWEEN 0 AND 5', name=op.f('ck_provider_applications_step_range')),
        _fk('provider_applications', 'user_id', 'auth_users.id', 'CASCADE'),
        _fk('provider_applications', 'decided_by', 'auth_users.id', 'SET NULL'),
        _fk('provider_applications', 'provider_id', 'providers.id', 'SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_applications')),
        sa.UniqueConstraint('user_id', name=op.f('uq_provider_applications_user_id')),
    )
    op.create_index('ix_provider_applications_queue', 'provider_applications', ['status', 'status_changed_at'])
    op.create_index('ix_provider_applications_idle', 'provider_applications', ['status', 'updated_at'])

    op.create_table(
        'provider_licenses',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('application_id', sa.String(length=36), nullable=False),
        sa.Column('provider_id', sa.String(length=36), nullable=True),
        sa.Column('license_type', sa.String(length=40), nullable=False),
        sa.Column('state', sa.String(length=2), nullable=False),
        sa.Column('number', sa.String(length=40), nullable=False),
        sa.Column('expires_on', sa.Date(), nullable=False),
        sa.Column('reminded_days', sa.SmallInteger(), nullable=True),
        sa.Column('lapsed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        _fk('provider_licenses', 'application_id', 'provider_applications.id', 'CASCADE'),
        _fk('provider_licenses', 'provider_id', 'providers.id', 'SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_licenses')),
    )
    op.create_index('ix_provider_licenses_application_id', 'provider_licenses', ['application_id'])
    op.create_index('ix_provider_licenses_provider_expires', 'provider_licenses', ['provider_id', 'expires_on'])
    op.create_index('ix_provider_licenses_state', 'provider_licenses', ['state'])

    op.create_table(
        'credential_documents',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('application_id', sa.String(length=36), nullable=False),
        sa.Column('provider_id', sa.String(length=36), nullable=True),
        sa.Column('kind', sa.Enum('license', 'government_id', 'malpractice_insurance', 'cpr_bls',
                                  name='documentkind', native_enum=False, length=24), nullable=False),
        sa.Column('filename', sa.String(length=200), nullable=False),
        sa.Column('content_type', sa.String(length=100), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('storage_key', sa.String(length=200), nullable=False),
        sa.Column('issued_on', sa.Date(), nullable=True),
        sa.Column('expires_on', sa.Date(), nullable=True),
        sa.Column('status', sa.Enum('pending', 'approved', 'rejected', name='documentstatus', native_enum=False,
                                    length=24), nullable=False),
        sa.Column('reviewed_by', sa.String(length=36), nullable=True),
        sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('rejection_reason', sa.String(length=500), nullable=False),
        sa.Column('uploaded_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('reminded_days', sa.SmallInteger(), nullable=True),
        sa.Column('lapsed_at', sa.DateTime(timezone=True), nullable=True),
        _fk('credential_documents', 'application_id', 'provider_applications.id', 'CASCADE'),
        _fk('credential_documents', 'provider_id', 'providers.id', 'SET NULL'),
        _fk('credential_documents', 'reviewed_by', 'auth_users.id', 'SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_credential_documents')),
        sa.UniqueConstraint('storage_key', name=op.f('uq_credential_documents_storage_key')),
    )
    op.create_index('ix_credential_documents_application_id', 'credential_documents', ['application_id'])
    op.create_index('ix_credential_documents_provider_id', 'credential_documents', ['provider_id'])
    op.create_index('ix_credential_documents_status_uploaded', 'credential_documents', ['status', 'uploaded_at'])
    op.create_index('ix_credential_documents_expires_on', 'credential_documents', ['expires_on'])

    op.create_table(
        'application_events',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('application_id', sa.String(length=36), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('actor_id', sa.String(length=36), nullable=True),
        sa.Column('kind', sa.Enum('created', 'submitted', 'info_requested', 'resubmitted', 'in_review', 'approved',
                                  'rejected', 'document_approved', 'document_rejected', 'nudged', 'suspended',
                                  'reinstated', 'lapsed', 'withdrawn', name='eventkind', native_enum=False,
                                  length=24), nullable=False),
        sa.Column('details', sa.JSON(), nullable=False),
        _fk('application_events', 'application_id', 'provider_applications.id', 'CASCADE'),
        _fk('application_events', 'actor_id', 'auth_users.id', 'SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_application_events')),
    )
    op.create_index('ix_application_events_application_at', 'application_events', ['application_id', 'at'])

    op.create_table(
        'decision_reasons',
        sa.Column('code', sa.String(length=40), nullable=False),
        sa.Column('label', sa.String(length=200), nullable=False),
        sa.Column('advice', sa.String(length=400), nullable=False),
        sa.Column('applies_to', sa.Enum('information', 'rejection', 'both', name='reasonuse', native_enum=False,
                                        length=16), nullable=False),
        sa.Column('position', sa.SmallInteger(), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint('code', name=op.f('pk_decision_reasons')),
    )


def downgrade() -> None:
    op.drop_table('decision_reasons')
    op.drop_index('ix_application_events_application_at', table_name='application_events')
    op.drop_table('application_events')
    for name in ('expires_on', 'status_uploaded', 'provider_id', 'application_id'):
        op.drop_index(f'ix_credential_documents_{name}', table_name='credential_documents')
    op.drop_table('credential_documents')
    for name in ('state', 'provider_expires', 'application_id'):
        op.drop_index(f'ix_provider_licenses_{name}', table_name='provider_licenses')
    op.drop_table('provider_licenses')
    op.drop_index('ix_provider_applications_idle', table_name='provider_applications')
    op.drop_index('ix_provider_applications_queue', table_name='provider_applications')
    op.drop_table('provider_applications')
    for column in ('credentials_lapsed_at', 'suspension_reason', 'suspended_at'):
        op.drop_column('providers', column)
