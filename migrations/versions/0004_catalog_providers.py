"""catalog and providers: service categories and services (list prices, durations, preparation, allowed
locations), provider profiles with their services, ZIP-code service areas, weekly hours, time off and reviews

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21 12:05:31.188715
"""

from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('service_categories',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('slug', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_service_categories')),
    sa.UniqueConstraint('slug', name=op.f('uq_service_categories_slug'))
    )
    op.create_table('providers',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=True),
    sa.Column('first_name', sa.String(length=80), nullable=False),
    sa.Column('last_name', sa.String(length=80), nullable=False),
    sa.Column('provider_type', sa.Enum('doctor', 'nurse', 'technician', 'therapist', 'caregiver', 'counselor', 'pharmacist', 'nutritionist', 'wellness_coach', 'fitness_instructor', 'beauty_professional', 'mental_health_therapist', 'hair_professional', 'makeup_artist', 'cna', 'lvn', 'np', 'medical_assistant', 'medical_coder', 'transportation', 'marriage_counselor', 'specialist', name='providertype', native_enum=False, length=32), nullable=False),
    sa.Column('license_type', sa.String(length=40), nullable=False),
    sa.Column('license_number', sa.String(length=40), nullable=False),
    sa.Column('license_state', sa.String(length=2), nullable=False),
    sa.Column('is_verified', sa.Boolean(), nullable=False),
    sa.Column('is_active', sa.Boolean(), nullable=False),
    sa.Column('bio', sa.Text(), nullable=False),
    sa.Column('photo_url', sa.String(length=2048), nullable=False),
    sa.Column('languages', sa.JSON(), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('rating_average', sa.Numeric(precision=3, scale=2), nullable=False),
    sa.Column('review_count', sa.Integer(), nullable=False),
    sa.Column('schedule_key', sa.String(length=400), nullable=False),
    sa.Column('lowest_price', sa.Numeric(precision=10, scale=2), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('review_count >= 0', name=op.f('ck_providers_review_count_not_negative')),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_providers_user_id_auth_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_providers')),
    sa.UniqueConstraint('user_id', name=op.f('uq_providers_user_id'))
    )
    with op.batch_alter_table('providers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_providers_created_at'), ['created_at'], unique=False)
        batch_op.create_index('ix_providers_listing', ['is_verified', 'is_active', 'rating_average', 'review_count'], unique=False)
        batch_op.create_index('ix_providers_listing_price', ['is_verified', 'is_active', 'lowest_price'], unique=False)
        batch_op.create_index('ix_providers_listing_schedule', ['is_verified', 'is_active', 'time_zone', 'schedule_key'], unique=False)
        batch_op.create_index('ix_providers_type', ['provider_type', 'rating_average'], unique=False)

    op.create_table('services',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('category_id', sa.String(length=36), nullable=False),
    sa.Column('slug', sa.String(length=80), nullable=False),
    sa.Column('name', sa.String(length=160), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('preparation', sa.Text(), nullable=False),
    sa.Column('duration_minutes', sa.Integer(), nullable=False),
    sa.Column('price', sa.Numeric(precision=10, scale=2), nullable=False),
    sa.Column('location_mask', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('is_active', sa.Boolean(), nullable=False),
    sa.CheckConstraint('duration_minutes > 0', name=op.f('ck_services_duration_positive')),
    sa.CheckConstraint('price >= 0', name=op.f('ck_services_price_not_negative')),
    sa.ForeignKeyConstraint(['category_id'], ['service_categories.id'], name=op.f('fk_services_category_id_service_categories'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_services')),
    sa.UniqueConstraint('slug', name=op.f('uq_services_slug'))
    )
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_services_category_id'), ['category_id'], unique=False)

    op.create_table('provider_reviews',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('author_id', sa.String(length=36), nullable=True),
    sa.Column('author_name', sa.String(length=120), nullable=False),
    sa.Column('appointment_id', sa.String(length=36), nullable=True),
    sa.Column('visit_completed', sa.Boolean(), nullable=False),
    sa.Column('rating', sa.SmallInteger(), nullable=False),
    sa.Column('comment', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('rating BETWEEN 1 AND 5', name=op.f('ck_provider_reviews_rating_range')),
    sa.ForeignKeyConstraint(['author_id'], ['auth_users.id'], name=op.f('fk_provider_reviews_author_id_auth_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_provider_reviews_provider_id_providers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_reviews')),
    sa.UniqueConstraint('appointment_id', name=op.f('uq_provider_reviews_appointment_id'))
    )
    with op.batch_alter_table('provider_reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_provider_reviews_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_provider_reviews_provider_id'), ['provider_id'], unique=False)

    op.create_table('provider_services',
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('service_id', sa.String(length=36), nullable=False),
    sa.Column('price', sa.Numeric(precision=10, scale=2), nullable=False),
    sa.Column('location_mask', sa.Integer(), nullable=False),
    sa.CheckConstraint('price >= 0', name=op.f('ck_provider_services_price_not_negative')),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_provider_services_provider_id_providers'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['service_id'], ['services.id'], name=op.f('fk_provider_services_service_id_services'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('provider_id', 'service_id', name=op.f('pk_provider_services'))
    )
    with op.batch_alter_table('provider_services', schema=None) as batch_op:
        batch_op.create_index('ix_provider_services_service_price', ['service_id', 'price'], unique=False)

    op.create_table('provider_time_off',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.CheckConstraint('starts_at < ends_at', name=op.f('ck_provider_time_off_span')),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_provider_time_off_provider_id_providers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_time_off'))
    )
    with op.batch_alter_table('provider_time_off', schema=None) as batch_op:
        batch_op.create_index('ix_provider_time_off_provider_ends', ['provider_id', 'ends_at'], unique=False)

    op.create_table('provider_weekly_hours',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.Column('weekday', sa.SmallInteger(), nullable=False),
    sa.Column('start_minute', sa.SmallInteger(), nullable=False),
    sa.Column('end_minute', sa.SmallInteger(), nullable=False),
    sa.CheckConstraint('start_minute >= 0 AND start_minute < end_minute AND end_minute <= 1440', name=op.f('ck_provider_weekly_hours_span')),
    sa.CheckConstraint('weekday BETWEEN 0 AND 6', name=op.f('ck_provider_weekly_hours_weekday_range')),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_provider_weekly_hours_provider_id_providers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_weekly_hours'))
    )
    with op.batch_alter_table('provider_weekly_hours', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_provider_weekly_hours_provider_id'), ['provider_id'], unique=False)

    op.create_table('provider_zip_codes',
    sa.Column('zip_code', sa.String(length=5), nullable=False),
    sa.Column('provider_id', sa.String(length=36), nullable=False),
    sa.ForeignKeyConstraint(['provider_id'], ['providers.id'], name=op.f('fk_provider_zip_codes_provider_id_providers'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('zip_code', 'provider_id', name=op.f('pk_provider_zip_codes'))
    )
    with op.batch_alter_table('provider_zip_codes', schema=None) as batch_op:
        batch_op.create_index('ix_provider_zip_codes_provider_id', ['provider_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('provider_zip_codes', schema=None) as batch_op:
        batch_op.drop_index('ix_provider_zip_codes_provider_id')

    op.drop_table('provider_zip_codes')
    with op.batch_alter_table('provider_weekly_hours', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_provider_weekly_hours_provider_id'))

    op.drop_table('provider_weekly_hours')
    with op.batch_alter_table('provider_time_off', schema=None) as batch_op:
        batch_op.drop_index('ix_provider_time_off_provider_ends')

    op.drop_table('provider_time_off')
    with op.batch_alter_table('provider_services', schema=None) as batch_op:
        batch_op.drop_index('ix_provider_services_service_price')

    op.drop_table('provider_services')
    with op.batch_alter_table('provider_reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_provider_reviews_provider_id'))
        batch_op.drop_index(batch_op.f('ix_provider_reviews_created_at'))

    op.drop_table('provider_reviews')
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_services_category_id'))

    op.drop_table('services')
    with op.batch_alter_table('providers', schema=None) as batch_op:
        batch_op.drop_index('ix_providers_type')
        batch_op.drop_index('ix_providers_listing_schedule')
        batch_op.drop_index('ix_providers_listing_price')
        batch_op.drop_index('ix_providers_listing')
        batch_op.drop_index(batch_op.f('ix_providers_created_at'))

    op.drop_table('providers')
    op.drop_table('service_categories')
