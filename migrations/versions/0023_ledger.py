"""ledger (issue 14): people's accounts with their balances (never below zero: a CHECK constraint),
journal entries and their postings (append-only: UPDATE and DELETE refused by triggers), each visit's
charge, and payout requests (one open request per provider: a partial unique index)

Revision ID: 0023
Revises: 0020
Create Date: 2026-11-28 01:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None

APPEND_ONLY = "the ledger is append-only: correct it with a new entry"
JOURNAL = ("ledger_entries", "ledger_postings")


def _create_append_only_triggers() -> None:
    """Refuse UPDATE and DELETE of entries and postings (and TRUNCATE on PostgreSQL) in the database."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"""
            CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '{APPEND_ONLY}' USING ERRCODE = 'insufficient_privilege';
            END;
            $$
            """
        )
        for table in JOURNAL:
            op.execute(
                f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION ledger_append_only()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()"
            )
        return
    for table in JOURNAL:
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
            )


def _drop_append_only_triggers() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in JOURNAL:
        if postgresql:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
    if postgresql:
        op.execute("DROP FUNCTION IF EXISTS ledger_append_only()")


def upgrade() -> None:
    op.create_table('ledger_accounts',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.Enum('world', 'patient_booked', 'patient_credit', 'provider_pending', 'provider_available', 'provider_payout', 'platform_fees', name='accountkind', native_enum=False, length=24), nullable=False),
    sa.Column('owner_id', sa.String(length=36), nullable=False),
    sa.Column('balance', sa.BigInteger(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('balance >= 0', name=op.f('ck_ledger_accounts_balance_not_negative')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_accounts'))
    )
    with op.batch_alter_table('ledger_accounts', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_accounts_owner', ['owner_id', 'kind'], unique=True)

    op.create_table('ledger_entries',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('kind', sa.Enum('order_placed', 'booking_voided', 'visit_completed', 'earning_released', 'refund', 'payout_requested', 'payout_returned', 'payout_paid', 'credit_adjustment', name='entrykind', native_enum=False, length=24), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=False),
    sa.Column('order_id', sa.String(length=36), nullable=True),
    sa.Column('appointment_id', sa.String(length=36), nullable=True),
    sa.Column('payout_id', sa.String(length=36), nullable=True),
    sa.Column('actor_id', sa.String(length=36), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entries'))
    )
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_entries_appointment', ['appointment_id'], unique=False)
        batch_op.create_index('ix_ledger_entries_kind_created', ['kind', 'created_at'], unique=False)
        batch_op.create_index('ix_ledger_entries_payout', ['payout_id'], unique=False)

    op.create_table('payout_requests',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('requested_by', sa.String(length=36), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.Enum('pending', 'approved', 'in_transit', 'paid', 'rejected', 'failed', name='payoutstatus', native_enum=False, length=24), nullable=False),
    sa.Column('approvals_needed', sa.Integer(), nullable=False),
    sa.Column('first_approver_id', sa.String(length=36), nullable=True),
    sa.Column('second_approver_id', sa.String(length=36), nullable=True),
    sa.Column('decided_by', sa.String(length=36), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=False),
    sa.Column('transaction_id', sa.String(length=36), nullable=True),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('approved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('amount > 0', name=op.f('ck_payout_requests_amount_positive')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payout_requests'))
    )
    with op.batch_alter_table('payout_requests', schema=None) as batch_op:
        batch_op.create_index('ix_payout_requests_one_open', ['provider_id'], unique=True, sqlite_where=sa.text("status IN ('pending', 'approved', 'in_transit')"), postgresql_where=sa.text("status IN ('pending', 'approved', 'in_transit')"))
        batch_op.create_index('ix_payout_requests_provider_requested', ['provider_id', 'requested_at'], unique=False)
        batch_op.create_index('ix_payout_requests_status_requested', ['status', 'requested_at'], unique=False)

    op.create_table('ledger_postings',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('entry_id', sa.String(length=36), nullable=False),
    sa.Column('account_id', sa.String(length=64), nullable=False),
    sa.Column('account_kind', sa.Enum('world', 'patient_booked', 'patient_credit', 'provider_pending', 'provider_available', 'provider_payout', 'platform_fees', name='accountkind', native_enum=False, length=24), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('amount <> 0', name=op.f('ck_ledger_postings_amount_not_zero')),
    sa.ForeignKeyConstraint(['entry_id'], ['ledger_entries.id'], name=op.f('fk_ledger_postings_entry_id_ledger_entries'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_postings'))
    )
    with op.batch_alter_table('ledger_postings', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_postings_account_created', ['account_id', 'created_at'], unique=False)
        batch_op.create_index('ix_ledger_postings_entry', ['entry_id'], unique=False)
        batch_op.create_index('ix_ledger_postings_kind_created', ['account_kind', 'created_at'], unique=False)

    op.create_table('ledger_visit_charges',
    sa.Column('appointment_id', sa.String(length=36), nullable=False),
    sa.Column('order_id', sa.String(length=36), nullable=False),
    sa.Column('patient_id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('price', sa.BigInteger(), nullable=False),
    sa.Column('fee', sa.BigInteger(), nullable=False),
    sa.Column('paid_ahead', sa.Boolean(), nullable=False),
    sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('completed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('released_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('refunded_earning', sa.BigInteger(), nullable=False),
    sa.Column('refunded_fee', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('refunded_earning <= price AND refunded_fee <= fee', name=op.f('ck_ledger_visit_charges_refund_within_charge')),
    sa.ForeignKeyConstraint(['appointment_id'], ['appointments.id'], name=op.f('fk_ledger_visit_charges_appointment_id_appointments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('appointment_id', name=op.f('pk_ledger_visit_charges'))
    )
    with op.batch_alter_table('ledger_visit_charges', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_visit_charges_order', ['order_id'], unique=False)
        batch_op.create_index('ix_ledger_visit_charges_provider', ['provider_id', 'completed_at'], unique=False)
        batch_op.create_index('ix_ledger_visit_charges_release_due', ['completed_at'], unique=False, sqlite_where=sa.text('released_at IS NULL AND completed_at IS NOT NULL'), postgresql_where=sa.text('released_at IS NULL AND completed_at IS NOT NULL'))

    _create_append_only_triggers()


def downgrade() -> None:
    _drop_append_only_triggers()
    with op.batch_alter_table('ledger_visit_charges', schema=None) as batch_op:
        batch_op.drop_index('ix_ledger_visit_charges_release_due', sqlite_where=sa.text('released_at IS NULL AND completed_at IS NOT NULL'), postgresql_where=sa.text('released_at IS NULL AND completed_at IS NOT NULL'))
        batch_op.drop_index('ix_ledger_visit_charges_provider')
        batch_op.drop_index('ix_ledger_visit_charges_order')

    op.drop_table('ledger_visit_charges')
    with op.batch_alter_table('ledger_postings', schema=None) as batch_op:
        batch_op.drop_index('ix_ledger_postings_kind_created')
        batch_op.drop_index('ix_ledger_postings_entry')
        batch_op.drop_index('ix_ledger_postings_account_created')

    op.drop_table('ledger_postings')
    with op.batch_alter_table('payout_requests', schema=None) as batch_op:
        batch_op.drop_index('ix_payout_requests_status_requested')
        batch_op.drop_index('ix_payout_requests_provider_requested')
        batch_op.drop_index('ix_payout_requests_one_open', sqlite_where=sa.text("status IN ('pending', 'approved', 'in_transit')"), postgresql_where=sa.text("status IN ('pending', 'approved', 'in_transit')"))

    op.drop_table('payout_requests')
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_ledger_entries_payout')
        batch_op.drop_index('ix_ledger_entries_kind_created')
        batch_op.drop_index('ix_ledger_entries_appointment')

    op.drop_table('ledger_entries')
    with op.batch_alter_table('ledger_accounts', schema=None) as batch_op:
        batch_op.drop_index('ix_ledger_accounts_owner')

    op.drop_table('ledger_accounts')
