"""provider search at scale, 4: a provider's offers indexed with their price and places, so the probes search
makes per candidate (a place of visit, the lowest price in scope) read the index alone; a ZIP code's listed
providers in order of lowest price, so a price page in a service or category reads only those whose lowest
price is within the page's bound

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26 05:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None

LISTED = {'postgresql_where': sa.text('listed'), 'sqlite_where': sa.text('listed = 1')}


def upgrade() -> None:
    op.create_index(
        'ix_provider_services_provider_offer',
        'provider_services',
        ['provider_id', 'service_id', 'price', 'location_mask'],
    )
    op.create_index(
        'ix_provider_zip_codes_listed_price',
        'provider_zip_codes',
        [
            'zip_code', 'lowest_price', sa.text('rating_average DESC'), sa.text('review_count DESC'), 'provider_id',
            'provider_type', 'service_mask',
        ],
        **LISTED,
    )


def downgrade() -> None:
    op.drop_index('ix_provider_zip_codes_listed_price', table_name='provider_zip_codes')
    op.drop_index('ix_provider_services_provider_offer', table_name='provider_services')
