"""provider search at scale: offers indexed by (service, price) with the provider and places, so ordering by
price walks the index alone (no table visits); listed providers by lowest price with
their rating (ties on price sort in the index)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 17:00:00
"""

from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        'ix_provider_services_service_price_offer',
        'provider_services',
        ['service_id', 'price', 'provider_id', 'location_mask'],
    )
    op.drop_index('ix_provider_services_service_price', table_name='provider_services')
    op.create_index(
        'ix_providers_listing_price_rating',
        'providers',
        ['is_verified', 'is_active', 'lowest_price', 'rating_average', 'review_count', 'id'],
    )
    op.drop_index('ix_providers_listing_price', table_name='providers')


def downgrade() -> None:
    op.create_index('ix_providers_listing_price', 'providers', ['is_verified', 'is_active', 'lowest_price'])
    op.drop_index('ix_providers_listing_price_rating', table_name='providers')
    op.create_index('ix_provider_services_service_price', 'provider_services', ['service_id', 'price'])
    op.drop_index('ix_provider_services_service_price_offer', table_name='provider_services')
