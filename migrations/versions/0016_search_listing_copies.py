"""provider search at scale, 2: a ZIP code's rows carry a copy of what search filters and sorts providers by
(listed, type, time zone, weekly hours, rating, lowest price), indexed for the listed ones in rating order
and per schedule group; offers carry the provider's type; the listed providers' schedule index and the type
index order by rating, reviews and id (descending where the sort is), so a page is an index range

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25 19:15:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

PROVIDER_TYPE = sa.Enum(
    'doctor', 'nurse', 'technician', 'therapist', 'caregiver', 'counselor', 'pharmacist', 'nutritionist',
    'wellness_coach', 'fitness_instructor', 'beauty_professional', 'mental_health_therapist',
    'hair_professional', 'makeup_artist', 'cna', 'lvn', 'np', 'medical_assistant', 'medical_coder',
    'transportation', 'marriage_counselor', 'specialist', name='providertype', native_enum=False, length=32,
)
COPIES = ('provider_type', 'time_zone', 'schedule_key', 'rating_average', 'review_count', 'lowest_price')


def upgrade() -> None:
    with op.batch_alter_table('provider_zip_codes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('listed', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('provider_type', PROVIDER_TYPE, nullable=True))
        batch_op.add_column(
            sa.Column('time_zone', sa.String(length=64), nullable=False, server_default='America/New_York')
        )
        batch_op.add_column(sa.Column('schedule_key', sa.String(length=400), nullable=False, server_default=''))
        batch_op.add_column(
            sa.Column('rating_average', sa.Numeric(precision=3, scale=2), nullable=False, server_default='0')
        )
        batch_op.add_column(sa.Column('review_count', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('lowest_price', sa.Numeric(precision=10, scale=2), nullable=True))
    with op.batch_alter_table('provider_services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('provider_type', PROVIDER_TYPE, nullable=True))

    # The copies, from each row's provider (one pass per table).
    postgres = op.get_bind().dialect.name == 'postgresql'
    if postgres:
        op.execute(
            'UPDATE provider_zip_codes AS z SET listed = p.is_verified AND p.is_active, '
            + ', '.join(f'{c} = p.{c}' for c in COPIES)
            + ' FROM providers AS p WHERE p.id = z.provider_id'
        )
        op.execute(
            'UPDATE provider_services AS s SET provider_type = p.provider_type FROM providers AS p '
            'WHERE p.id = s.provider_id'
        )
    else:
        columns = ('listed', *COPIES)
        sources = ('p.is_verified AND p.is_active', *(f'p.{c}' for c in COPIES))
        op.execute(
            f"UPDATE provider_zip_codes SET ({', '.join(columns)}) = "
            f"(SELECT {', '.join(sources)} FROM providers AS p WHERE p.id = provider_zip_codes.provider_id)"
        )
        op.execute(
            'UPDATE provider_services SET provider_type = '
            '(SELECT p.provider_type FROM providers AS p WHERE p.id = provider_services.provider_id)'
        )

    with op.batch_alter_table('provider_zip_codes', schema=None) as batch_op:
        for name in ('listed', 'time_zone', 'schedule_key', 'rating_average', 'review_count'):
            batch_op.alter_column(name, server_default=None)
    op.create_index(
        'ix_provider_zip_codes_listed_rating',
        'provider_zip_codes',
        ['zip_code', sa.text('rating_average DESC'), sa.text('review_count DESC'), 'provider_id', 'provider_type'],
        postgresql_where=sa.text('listed'),
        sqlite_where=sa.text('listed = 1'),
    )
    op.create_index(
        'ix_provider_zip_codes_listed_schedule',
        'provider_zip_codes',
        [
            'zip_code', 'time_zone', 'schedule_key', sa.text('rating_average DESC'), sa.text('review_count DESC'),
            'provider_id', 'provider_type',
        ],
        postgresql_where=sa.text('listed'),
        sqlite_where=sa.text('listed = 1'),
    )
    op.create_index('ix_provider_services_type_service', 'provider_services', ['provider_type', 'service_id'])
    op.create_index(
        'ix_providers_listing_schedule_rating',
        'providers',
        [
            'is_verified', 'is_active', 'time_zone', 'schedule_key', sa.text('rating_average DESC'),
            sa.text('review_count DESC'), 'id', 'provider_type',
        ],
    )
    op.drop_index('ix_providers_listing_schedule', table_name='providers')
    op.create_index(
        'ix_providers_type_rating',
        'providers',
        [
            'provider_type', sa.text('rating_average DESC'), sa.text('review_count DESC'), 'id', 'is_verified',
            'is_active',
        ],
    )
    op.drop_index('ix_providers_type', table_name='providers')


def downgrade() -> None:
    op.create_index('ix_providers_type', 'providers', ['provider_type', 'rating_average'])
    op.drop_index('ix_providers_type_rating', table_name='providers')
    op.create_index(
        'ix_providers_listing_schedule', 'providers', ['is_verified', 'is_active', 'time_zone', 'schedule_key']
    )
    op.drop_index('ix_providers_listing_schedule_rating', table_name='providers')
    op.drop_index('ix_provider_services_type_service', table_name='provider_services')
    op.drop_index('ix_provider_zip_codes_listed_schedule', table_name='provider_zip_codes')
    op.drop_index('ix_provider_zip_codes_listed_rating', table_name='provider_zip_codes')
    with op.batch_alter_table('provider_services', schema=None) as batch_op:
        batch_op.drop_column('provider_type')
    with op.batch_alter_table('provider_zip_codes', schema=None) as batch_op:
        for name in ('lowest_price', 'review_count', 'rating_average', 'schedule_key', 'time_zone',
                     'provider_type', 'listed'):
            batch_op.drop_column(name)
