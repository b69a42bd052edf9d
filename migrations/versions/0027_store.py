"""the store (issue 14 part 9): products and their images, products in carts, store orders and their lines

Revision ID: 0027
Revises: 0035
Create Date: 2026-11-26 10:20:00

The ledger's new account and entry kinds (store_sales; store_order_placed, _voided, _delivered) need no
change here: its kind columns are plain strings (non-native enums without a CHECK).
"""

from alembic import op
import sqlalchemy as sa


revision = '0027'
down_revision = '0035'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'products',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('description', sa.Text(), nullable=False),
        sa.Column('category', sa.String(length=32), nullable=False),
        sa.Column('price_cents', sa.BigInteger(), nullable=False),
        sa.Column('stock', sa.Integer(), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint('stock >= 0', name=op.f('ck_products_stock_not_negative')),
        sa.CheckConstraint('price_cents > 0', name=op.f('ck_products_price_positive')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_products')),
    )
    op.create_index('ix_products_active_category_name', 'products', ['active', 'category', 'name'])
    op.create_index('ix_products_created_at', 'products', ['created_at'])
    op.create_index('ix_products_name_lower', 'products', [sa.text('lower(name)')])
    op.create_table(
        'product_images',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('product_id', sa.String(length=36), nullable=False),
        sa.Column('stored_name', sa.String(length=80), nullable=False),
        sa.Column('content_type', sa.String(length=64), nullable=False),
        sa.Column('size_bytes', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('uploaded_by', sa.String(length=36), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['product_id'], ['products.id'], name=op.f('fk_product_images_product_id_products'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_product_images')),
    )
    op.create_index('ix_product_images_created_at', 'product_images', ['created_at'])
    op.create_index('ix_product_images_product', 'product_images', ['product_id', 'position'])
    op.create_table(
        'cart_products',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('product_id', sa.String(length=36), nullable=False),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint('quantity >= 1', name=op.f('ck_cart_products_quantity_positive')),
        sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_cart_products_user_id_auth_users'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['product_id'], ['products.id'], name=op.f('fk_cart_products_product_id_products'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_cart_products')),
    )
    op.create_index('ix_cart_products_added_at', 'cart_products', ['added_at'])
    op.create_index('ix_cart_products_user_product', 'cart_products', ['user_id', 'product_id'], unique=True)
    op.create_table(
        'store_orders',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('number', sa.String(length=16), nullable=False),
        sa.Column('patient_id', sa.String(length=36), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('fulfilment', sa.String(length=16), nullable=False),
        sa.Column('subtotal_cents', sa.BigInteger(), nullable=False),
        sa.Column('fee_cents', sa.BigInteger(), nullable=False),
        sa.Column('total_cents', sa.BigInteger(), nullable=False),
        sa.Column('payment_method', sa.String(length=32), nullable=False),
        sa.Column('ship_name', sa.String(length=100), nullable=False),
        sa.Column('ship_line1', sa.String(length=200), nullable=False),
        sa.Column('ship_line2', sa.String(length=200), nullable=False),
        sa.Column('ship_city', sa.String(length=100), nullable=False),
        sa.Column('ship_state', sa.String(length=2), nullable=False),
        sa.Column('ship_zip', sa.String(length=5), nullable=False),
        sa.Column('carrier', sa.String(length=40), nullable=False),
        sa.Column('tracking_number', sa.String(length=40), nullable=False),
        sa.Column('note', sa.String(length=500), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('shipped_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('returned_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('canceled_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint('total_cents = subtotal_cents + fee_cents', name=op.f('ck_store_orders_total_adds_up')),
        sa.ForeignKeyConstraint(['patient_id'], ['auth_users.id'], name=op.f('fk_store_orders_patient_id_auth_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_store_orders')),
        sa.UniqueConstraint('number', name=op.f('uq_store_orders_number')),
    )
    op.create_index('ix_store_orders_created_at', 'store_orders', ['created_at'])
    op.create_index('ix_store_orders_patient_created', 'store_orders', ['patient_id', 'created_at'])
    op.create_index('ix_store_orders_fulfilment_created', 'store_orders', ['fulfilment', 'created_at'])
    op.create_table(
        'store_order_lines',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('order_id', sa.String(length=36), nullable=False),
        sa.Column('product_id', sa.String(length=36), nullable=True),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('unit_price_cents', sa.BigInteger(), nullable=False),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.CheckConstraint('quantity >= 1', name=op.f('ck_store_order_lines_quantity_positive')),
        sa.ForeignKeyConstraint(['order_id'], ['store_orders.id'], name=op.f('fk_store_order_lines_order_id_store_orders'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['product_id'], ['products.id'], name=op.f('fk_store_order_lines_product_id_products'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_store_order_lines')),
    )
    op.create_index('ix_store_order_lines_order', 'store_order_lines', ['order_id'])


def downgrade() -> None:
    op.drop_table('store_order_lines')
    op.drop_table('store_orders')
    op.drop_table('cart_products')
    op.drop_table('product_images')
    op.drop_table('products')
