"""ads (issue 17 part 4): advertisers' flights with their creative, the placements each runs in (at the
price bought), creative images, and per-day view/click/spend counters

Revision ID: 0041
Revises: 0042
Create Date: 2026-11-26 13:35:39
"""

from alembic import op
import sqlalchemy as sa


revision = '0041'
down_revision = '0042'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('ad_images',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('owner_id', sa.String(length=36), nullable=False),
    sa.Column('stored_name', sa.String(length=80), nullable=False),
    sa.Column('content_type', sa.String(length=64), nullable=False),
    sa.Column('size_bytes', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_id'], ['auth_users.id'], name=op.f('fk_ad_images_owner_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ad_images'))
    )
    with op.batch_alter_table('ad_images', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ad_images_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_ad_images_owner_id'), ['owner_id'], unique=False)

    op.create_table('ad_flights',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('advertiser_id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('budget_cents', sa.BigInteger(), nullable=False),
    sa.Column('spent_millicents', sa.BigInteger(), nullable=False),
    sa.Column('headline', sa.String(length=60), nullable=False),
    sa.Column('body', sa.String(length=140), nullable=False),
    sa.Column('link_url', sa.String(length=500), nullable=False),
    sa.Column('image_id', sa.String(length=36), nullable=True),
    sa.Column('flags', sa.JSON(), nullable=False),
    sa.Column('reason', sa.String(length=500), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('reviewed_by', sa.String(length=36), nullable=True),
    sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('budget_cents > 0', name=op.f('ck_ad_flights_budget_positive')),
    sa.CheckConstraint('ends_on >= starts_on', name=op.f('ck_ad_flights_dates_in_order')),
    sa.CheckConstraint('spent_millicents <= budget_cents * 1000', name=op.f('ck_ad_flights_spend_within_budget')),
    sa.ForeignKeyConstraint(['advertiser_id'], ['auth_users.id'], name=op.f('fk_ad_flights_advertiser_id_auth_users'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['image_id'], ['ad_images.id'], name=op.f('fk_ad_flights_image_id_ad_images'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ad_flights'))
    )
    with op.batch_alter_table('ad_flights', schema=None) as batch_op:
        batch_op.create_index('ix_ad_flights_advertiser_created', ['advertiser_id', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_ad_flights_created_at'), ['created_at'], unique=False)
        batch_op.create_index('ix_ad_flights_status_created', ['status', 'created_at'], unique=False)

    op.create_table('ad_daily_stats',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('flight_id', sa.String(length=36), nullable=False),
    sa.Column('placement', sa.String(length=32), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('views', sa.BigInteger(), nullable=False),
    sa.Column('clicks', sa.BigInteger(), nullable=False),
    sa.Column('cost_millicents', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['flight_id'], ['ad_flights.id'], name=op.f('fk_ad_daily_stats_flight_id_ad_flights'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ad_daily_stats')),
    sa.UniqueConstraint('flight_id', 'placement', 'day', name='uq_ad_daily_stats_flight_placement_day')
    )
    with op.batch_alter_table('ad_daily_stats', schema=None) as batch_op:
        batch_op.create_index('ix_ad_daily_stats_day', ['day'], unique=False)

    op.create_table('ad_flight_placements',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('flight_id', sa.String(length=36), nullable=False),
    sa.Column('placement', sa.String(length=32), nullable=False),
    sa.Column('cpm_cents', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['flight_id'], ['ad_flights.id'], name=op.f('fk_ad_flight_placements_flight_id_ad_flights'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ad_flight_placements')),
    sa.UniqueConstraint('flight_id', 'placement', name='uq_ad_flight_placements_flight_placement')
    )
    with op.batch_alter_table('ad_flight_placements', schema=None) as batch_op:
        batch_op.create_index('ix_ad_flight_placements_placement', ['placement', 'flight_id'], unique=False)


def downgrade() -> None:
    op.drop_table('ad_daily_stats')
    op.drop_table('ad_flight_placements')
    op.drop_table('ad_flights')
    op.drop_table('ad_images')
