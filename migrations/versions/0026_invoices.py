"""invoices (issue 14 part 8): invoices to organizations or patients, their lines, and the per-year counter
their numbers come from; on PostgreSQL a trigram index for the staff list's substring search. The ledger's
new account and entry kinds (platform_invoices, invoice_paid) need no change: its kinds are stored as
VARCHAR(24) without a CHECK.

Revision ID: 0026
Revises: 0027 (the head when main was merged in; 0024 when written)
Create Date: 2026-11-26 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0026'
down_revision = '0027'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'invoice_counters',
        sa.Column('year', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('last', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('year', name=op.f('pk_invoice_counters')),
    )
    op.create_table(
        'invoices',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('number', sa.String(length=16), nullable=False),
        sa.Column('status', sa.Enum('draft', 'sent', 'paid', 'void', name='invoicestatus', native_enum=False, length=16), nullable=False),
        sa.Column('recipient_kind', sa.Enum('organization', 'patient', name='recipientkind', native_enum=False, length=16), nullable=False),
        sa.Column('patient_id', sa.String(length=36), nullable=True),
        sa.Column('recipient_name', sa.String(length=200), nullable=False),
        sa.Column('recipient_email', sa.String(length=320), nullable=False),
        sa.Column('recipient_address', sa.String(length=500), nullable=False),
        sa.Column('search_text', sa.String(length=600), nullable=False),
        sa.Column('due_on', sa.Date(), nullable=False),
        sa.Column('notes', sa.String(length=1000), nullable=False),
        sa.Column('total_cents', sa.BigInteger(), nullable=False),
        sa.Column('created_by', sa.String(length=36), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('payment_method', sa.String(length=16), nullable=False),
        sa.Column('payment_reference', sa.String(length=100), nullable=False),
        sa.Column('ledger_entry_id', sa.String(length=36), nullable=True),
        sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('void_reason', sa.String(length=500), nullable=False),
        sa.CheckConstraint('total_cents >= 0', name=op.f('ck_invoices_total_not_negative')),
        sa.ForeignKeyConstraint(['patient_id'], ['auth_users.id'], name=op.f('fk_invoices_patient_id_auth_users'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_invoices')),
        sa.UniqueConstraint('number', name=op.f('uq_invoices_number')),
    )
    with op.batch_alter_table('invoices', schema=None) as batch_op:
        batch_op.create_index('ix_invoices_created', ['created_at'], unique=False)
        batch_op.create_index('ix_invoices_patient_status', ['patient_id', 'status'], unique=False)
        batch_op.create_index('ix_invoices_status_created', ['status', 'created_at'], unique=False)
    op.create_table(
        'invoice_lines',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('invoice_id', sa.String(length=36), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('description', sa.String(length=200), nullable=False),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.Column('unit_price_cents', sa.BigInteger(), nullable=False),
        sa.Column('amount_cents', sa.BigInteger(), nullable=False),
        sa.CheckConstraint('quantity > 0 AND unit_price_cents >= 0', name=op.f('ck_invoice_lines_line_positive')),
        sa.ForeignKeyConstraint(['invoice_id'], ['invoices.id'], name=op.f('fk_invoice_lines_invoice_id_invoices'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_invoice_lines')),
    )
    with op.batch_alter_table('invoice_lines', schema=None) as batch_op:
        batch_op.create_index('ix_invoice_lines_invoice', ['invoice_id', 'position'], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        # Substring search (LIKE '%term%') on the lower-cased number, name and e-mail uses this index.
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute("CREATE INDEX ix_invoices_search_trgm ON invoices USING gin (search_text gin_trgm_ops)")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_invoices_search_trgm")
    with op.batch_alter_table('invoice_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_invoice_lines_invoice')
    op.drop_table('invoice_lines')
    with op.batch_alter_table('invoices', schema=None) as batch_op:
        batch_op.drop_index('ix_invoices_status_created')
        batch_op.drop_index('ix_invoices_patient_status')
        batch_op.drop_index('ix_invoices_created')
    op.drop_table('invoices')
    op.drop_table('invoice_counters')
