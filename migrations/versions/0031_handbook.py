"""staff handbook: the articles of /staff/documentation (Markdown), one per slug, ordered by topic and
position; the starting articles are reference data added by `python -m medivisit seed`

Revision ID: 0031
Revises: 0025
Create Date: 2026-11-26 10:30:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0031'
down_revision = '0025'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'handbook_articles',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('slug', sa.String(80), nullable=False, unique=True),
        sa.Column('title', sa.String(120), nullable=False),
        sa.Column('summary', sa.String(300), nullable=False, server_default=''),
        sa.Column('topic', sa.String(60), nullable=False, server_default=''),
        sa.Column('position', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('body', sa.Text(), nullable=False, server_default=''),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_by', sa.String(36), nullable=True),
    )
    op.create_index('ix_handbook_articles_topic', 'handbook_articles', ['topic', 'position'])
    op.create_index('ix_handbook_articles_created_at', 'handbook_articles', ['created_at'])


def downgrade() -> None:
    op.drop_index('ix_handbook_articles_created_at', table_name='handbook_articles')
    op.drop_index('ix_handbook_articles_topic', table_name='handbook_articles')
    op.drop_table('handbook_articles')
