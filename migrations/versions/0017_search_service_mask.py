"""provider search at scale, 3: each catalog service has a bit (`services.search_bit`), and providers and their
ZIP-code rows carry the mask of the services offered (`service_mask`), included in the ZIP code's listing
indexes: a ZIP code's matches for a service are counted and walked inside the index, without joining the
offers

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25 23:45:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

LISTED = {'postgresql_where': sa.text('listed'), 'sqlite_where': sa.text('listed = 1')}
RATING = ['zip_code', sa.text('rating_average DESC'), sa.text('review_count DESC'), 'provider_id', 'provider_type']
SCHEDULE = [
    'zip_code', 'time_zone', 'schedule_key', sa.text('rating_average DESC'), sa.text('review_count DESC'),
    'provider_id', 'provider_type',
]


def upgrade() -> None:
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('search_bit', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint('uq_services_search_bit', ['search_bit'])
    for table in ('providers', 'provider_zip_codes'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            # The default stays (no offers, no bits): dropping it would rebuild `providers` on SQLite.
            batch_op.add_column(sa.Column('service_mask', sa.BigInteger(), nullable=False, server_default='0'))
    # The ZIP code's listing indexes are rebuilt with the mask (dropped first: the backfill is cheaper without).
    op.drop_index('ix_provider_zip_codes_listed_rating', table_name='provider_zip_codes')
    op.drop_index('ix_provider_zip_codes_listed_schedule', table_name='provider_zip_codes')

    # Bits in order of creation (then slug), up to 63; the masks from the offers, then copied by ZIP code.
    bind = op.get_bind()
    services = bind.execute(sa.text('SELECT id FROM services ORDER BY position, slug')).scalars().all()
    for bit, service_id in enumerate(services[:63]):
        bind.execute(sa.text('UPDATE services SET search_bit = :bit WHERE id = :id'), {'bit': bit, 'id': service_id})
    postgres = bind.dialect.name == 'postgresql'
    if postgres:
        op.execute(
            'UPDATE providers AS p SET service_mask = m.mask FROM ('
            ' SELECT o.provider_id, bit_or(CAST(1 AS BIGINT) << s.search_bit) AS mask'
            ' FROM provider_services AS o JOIN services AS s ON s.id = o.service_id'
            ' WHERE s.search_bit IS NOT NULL GROUP BY o.provider_id'
            ') AS m WHERE m.provider_id = p.id'
        )
        op.execute(
            'UPDATE provider_zip_codes AS z SET service_mask = p.service_mask FROM providers AS p '
            'WHERE p.id = z.provider_id AND p.service_mask <> 0'
        )
    else:
        # SQLite has no bit_or: the bits are distinct per provider, so their sum is their OR.
        op.execute(
            'UPDATE providers SET service_mask = coalesce((SELECT sum(1 << s.search_bit) FROM provider_services '
            'AS o JOIN services AS s ON s.id = o.service_id WHERE o.provider_id = providers.id '
            'AND s.search_bit IS NOT NULL), 0)'
        )
        op.execute(
            'UPDATE provider_zip_codes SET service_mask = '
            '(SELECT p.service_mask FROM providers AS p WHERE p.id = provider_zip_codes.provider_id)'
        )
    op.create_index('ix_provider_zip_codes_listed_rating', 'provider_zip_codes', [*RATING, 'service_mask'], **LISTED)
    op.create_index(
        'ix_provider_zip_codes_listed_schedule', 'provider_zip_codes', [*SCHEDULE, 'service_mask'], **LISTED
    )


def downgrade() -> None:
    op.drop_index('ix_provider_zip_codes_listed_schedule', table_name='provider_zip_codes')
    op.drop_index('ix_provider_zip_codes_listed_rating', table_name='provider_zip_codes')
    op.create_index('ix_provider_zip_codes_listed_rating', 'provider_zip_codes', RATING, **LISTED)
    op.create_index('ix_provider_zip_codes_listed_schedule', 'provider_zip_codes', SCHEDULE, **LISTED)
    for table in ('provider_zip_codes', 'providers'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('service_mask')
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_constraint('uq_services_search_bit', type_='unique')
        batch_op.drop_column('search_bit')
