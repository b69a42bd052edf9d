"""organizations and corporate work (issue 17): organizations with members and invitations; corporate leads
with notes, contracts with their services, event days and the visits booked on them

Revision ID: 0040
Revises: 0041
Create Date: 2026-11-26 13:35:22.326656
"""

from alembic import op
import sqlalchemy as sa


revision = '0040'
down_revision = '0041'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('organizations',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('kind', sa.Enum('company', 'agency', name='organizationkind', native_enum=False, length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_organizations'))
    )
    op.create_index(op.f('ix_organizations_created_at'), 'organizations', ['created_at'])
    op.create_index('ix_organizations_name_lower', 'organizations', [sa.text('lower(name)')])

    op.create_table('corporate_leads',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('company', sa.String(length=120), nullable=False),
    sa.Column('contact_name', sa.String(length=100), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('phone', sa.String(length=32), nullable=False),
    sa.Column('site_count', sa.Integer(), nullable=False),
    sa.Column('site_location', sa.String(length=120), nullable=False),
    sa.Column('headcount', sa.Integer(), nullable=False),
    sa.Column('services', sa.JSON(), nullable=False),
    sa.Column('dates_wanted', sa.String(length=200), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('status', sa.Enum('new', 'contacted', 'proposal', 'won', 'lost', name='leadstatus', native_enum=False, length=16), nullable=False),
    sa.Column('assigned_to', sa.String(length=36), nullable=True),
    sa.Column('organization_id', sa.String(length=36), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('site_count > 0 AND headcount > 0', name=op.f('ck_corporate_leads_counts_positive')),
    sa.ForeignKeyConstraint(['assigned_to'], ['auth_users.id'], name=op.f('fk_corporate_leads_assigned_to_auth_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_corporate_leads_organization_id_organizations'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_leads'))
    )
    op.create_index('ix_corporate_leads_assigned_status', 'corporate_leads', ['assigned_to', 'status'])
    op.create_index(op.f('ix_corporate_leads_created_at'), 'corporate_leads', ['created_at'])
    op.create_index('ix_corporate_leads_status_created', 'corporate_leads', ['status', 'created_at'])

    op.create_table('organization_invitations',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('role', sa.Enum('admin', 'member', name='memberrole', native_enum=False, length=16), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('invited_by', sa.String(length=36), nullable=True),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['invited_by'], ['auth_users.id'], name=op.f('fk_organization_invitations_invited_by_auth_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_organization_invitations_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_organization_invitations')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_organization_invitations_token_hash'))
    )
    op.create_index(op.f('ix_organization_invitations_created_at'), 'organization_invitations', ['created_at'])
    op.create_index('ix_organization_invitations_org_accepted', 'organization_invitations', ['organization_id', 'accepted_at'])

    op.create_table('organization_members',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('role', sa.Enum('admin', 'member', name='memberrole', native_enum=False, length=16), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_organization_members_organization_id_organizations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_organization_members_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_organization_members')),
    sa.UniqueConstraint('user_id', name=op.f('uq_organization_members_user_id'))
    )
    op.create_index(op.f('ix_organization_members_joined_at'), 'organization_members', ['joined_at'])
    op.create_index('ix_organization_members_org_role', 'organization_members', ['organization_id', 'role'])

    op.create_table('corporate_contracts',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('lead_id', sa.String(length=36), nullable=True),
    sa.Column('title', sa.String(length=120), nullable=False),
    sa.Column('sites', sa.String(length=500), nullable=False),
    sa.Column('billing_email', sa.String(length=320), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('status', sa.Enum('draft', 'active', 'ended', name='contractstatus', native_enum=False, length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('starts_on <= ends_on', name=op.f('ck_corporate_contracts_period')),
    sa.ForeignKeyConstraint(['lead_id'], ['corporate_leads.id'], name=op.f('fk_corporate_contracts_lead_id_corporate_leads'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_corporate_contracts_organization_id_organizations'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_contracts'))
    )
    op.create_index(op.f('ix_corporate_contracts_created_at'), 'corporate_contracts', ['created_at'])
    op.create_index('ix_corporate_contracts_org_status', 'corporate_contracts', ['organization_id', 'status'])
    op.create_index('ix_corporate_contracts_status_created', 'corporate_contracts', ['status', 'created_at'])

    op.create_table('corporate_lead_notes',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('lead_id', sa.String(length=36), nullable=False),
    sa.Column('author_id', sa.String(length=36), nullable=True),
    sa.Column('author_name', sa.String(length=100), nullable=False),
    sa.Column('body', sa.String(length=1000), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['author_id'], ['auth_users.id'], name=op.f('fk_corporate_lead_notes_author_id_auth_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['lead_id'], ['corporate_leads.id'], name=op.f('fk_corporate_lead_notes_lead_id_corporate_leads'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_lead_notes'))
    )
    op.create_index('ix_corporate_lead_notes_lead_created', 'corporate_lead_notes', ['lead_id', 'created_at'])

    op.create_table('corporate_contract_services',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('contract_id', sa.String(length=36), nullable=False),
    sa.Column('service_id', sa.String(length=36), nullable=False),
    sa.Column('price_cents', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('price_cents >= 0', name=op.f('ck_corporate_contract_services_price_not_negative')),
    sa.ForeignKeyConstraint(['contract_id'], ['corporate_contracts.id'], name=op.f('fk_corporate_contract_services_contract_id_corporate_contracts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['service_id'], ['services.id'], name=op.f('fk_corporate_contract_services_service_id_services'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_contract_services'))
    )
    op.create_index('uq_corporate_contract_services_contract_service', 'corporate_contract_services', ['contract_id', 'service_id'], unique=True)

    op.create_table('corporate_event_days',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('contract_id', sa.String(length=36), nullable=False),
    sa.Column('service_id', sa.String(length=36), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('address_line', sa.String(length=200), nullable=False),
    sa.Column('zip_code', sa.String(length=5), nullable=False),
    sa.Column('price_cents', sa.BigInteger(), nullable=False),
    sa.Column('invoice_id', sa.String(length=36), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['contract_id'], ['corporate_contracts.id'], name=op.f('fk_corporate_event_days_contract_id_corporate_contracts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['invoice_id'], ['invoices.id'], name=op.f('fk_corporate_event_days_invoice_id_invoices'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['service_id'], ['services.id'], name=op.f('fk_corporate_event_days_service_id_services'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_event_days'))
    )
    op.create_index('ix_corporate_event_days_contract_starts', 'corporate_event_days', ['contract_id', 'starts_at'])
    op.create_index(op.f('ix_corporate_event_days_created_at'), 'corporate_event_days', ['created_at'])

    op.create_table('corporate_event_visits',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('event_day_id', sa.String(length=36), nullable=False),
    sa.Column('appointment_id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.ForeignKeyConstraint(['appointment_id'], ['appointments.id'], name=op.f('fk_corporate_event_visits_appointment_id_appointments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_day_id'], ['corporate_event_days.id'], name=op.f('fk_corporate_event_visits_event_day_id_corporate_event_days'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_corporate_event_visits_provider_id_providers'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_corporate_event_visits')),
    sa.UniqueConstraint('appointment_id', name=op.f('uq_corporate_event_visits_appointment_id'))
    )
    op.create_index('ix_corporate_event_visits_day', 'corporate_event_visits', ['event_day_id'])
    op.create_index('ix_corporate_event_visits_provider', 'corporate_event_visits', ['provider_id', 'event_day_id'])


def downgrade() -> None:
    # Dropping a table drops its indexes.
    op.drop_table('corporate_event_visits')
    op.drop_table('corporate_event_days')
    op.drop_table('corporate_contract_services')
    op.drop_table('corporate_lead_notes')
    op.drop_table('corporate_contracts')
    op.drop_table('organization_members')
    op.drop_table('organization_invitations')
    op.drop_table('corporate_leads')
    op.drop_table('organizations')
