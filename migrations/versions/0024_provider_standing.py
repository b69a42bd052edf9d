"""provider standing (issue 13, staff side): a licence may be recorded on a provider's profile without an
application (providers seeded, imported or created from the command line, who never applied); indexes for
Provider Management's search by name (a prefix of the first or last name, case-insensitive); and a licence
for every existing provider whose profile names one, so the licence-state rule does not unlist them

Revision ID: 0024
Revises: 0022
Create Date: 2026-11-28 12:00:00

The profiles' licences carry no expiry date: the backfilled licence is given one 90 days after the upgrade,
so the good-standing job's 90-day reminder goes out at once and asks the provider for the real licence (and
the provider lapses if none is recorded by then). New installs have no providers yet: nothing is backfilled.
"""

import uuid
from datetime import UTC, datetime, timedelta

from alembic import op
import sqlalchemy as sa


revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None

GRACE_DAYS = 90


def upgrade() -> None:
    with op.batch_alter_table('provider_licenses') as batch:
        batch.alter_column('application_id', existing_type=sa.String(length=36), nullable=True)
    op.create_index(
        'ix_providers_last_name_lower', 'providers', [sa.text('lower(last_name)'), sa.text('lower(first_name)'), 'id']
    )
    op.create_index('ix_providers_first_name_lower', 'providers', [sa.text('lower(first_name)')])
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT p.id, p.license_type, p.license_state, p.license_number FROM providers AS p "
            "WHERE p.license_state <> '' AND p.license_number <> '' "
            "AND NOT EXISTS (SELECT 1 FROM provider_licenses AS l WHERE l.provider_id = p.id)"
        )
    ).all()
    if rows:
        now = datetime.now(UTC)
        expires = now.date() + timedelta(days=GRACE_DAYS)
        licenses = sa.table(
            'provider_licenses',
            sa.column('id'), sa.column('application_id'), sa.column('provider_id'), sa.column('license_type'),
            sa.column('state'), sa.column('number'), sa.column('expires_on', sa.Date()),
            sa.column('created_at', sa.DateTime(timezone=True)),
        )
        op.bulk_insert(licenses, [
            {'id': str(uuid.uuid4()), 'application_id': None, 'provider_id': pid, 'license_type': kind[:40],
             'state': state, 'number': number, 'expires_on': expires, 'created_at': now}
            for pid, kind, state, number in rows
        ])


def downgrade() -> None:
    op.execute(sa.text('DELETE FROM provider_licenses WHERE application_id IS NULL'))
    op.drop_index('ix_providers_first_name_lower', table_name='providers')
    op.drop_index('ix_providers_last_name_lower', table_name='providers')
    with op.batch_alter_table('provider_licenses') as batch:
        batch.alter_column('application_id', existing_type=sa.String(length=36), nullable=False)
