"""careers: job postings (draft, open, closed), the applications sent to them, and the CVs (staged on
upload, claimed by the application they are sent with)

Revision ID: 0042
Revises: 0038
Create Date: 2026-11-26 14:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0042'
down_revision = '0038'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'career_postings',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('slug', sa.String(80), nullable=False, unique=True),
        sa.Column('title', sa.String(120), nullable=False),
        sa.Column('team', sa.String(80), nullable=False),
        sa.Column('remote', sa.Boolean(), nullable=False),
        sa.Column('city', sa.String(80), nullable=False),
        sa.Column('state', sa.String(2), nullable=False),
        sa.Column('employment_type', sa.Enum('full_time', 'part_time', 'contract', 'per_diem',
                                             name='employmenttype', native_enum=False, length=16),
                  nullable=False),
        sa.Column('description', sa.Text(), nullable=False),
        sa.Column('status', sa.Enum('draft', 'open', 'closed', name='postingstatus', native_enum=False,
                                    length=16), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_by', sa.String(36), nullable=True),
    )
    op.create_index('ix_career_postings_status', 'career_postings', ['status', 'opened_at'])
    op.create_index('ix_career_postings_created_at', 'career_postings', ['created_at'])
    op.create_table(
        'career_applications',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('posting_id', sa.String(36), sa.ForeignKey('career_postings.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('name', sa.String(120), nullable=False),
        sa.Column('email', sa.String(254), nullable=False),
        sa.Column('phone', sa.String(32), nullable=False),
        sa.Column('cover_note', sa.Text(), nullable=False),
        sa.Column('status', sa.Enum('new', 'reviewing', 'interview', 'offer', 'hired', 'rejected',
                                    name='applicationstatus', native_enum=False, length=16), nullable=False),
        sa.Column('notes', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_career_applications_posting', 'career_applications',
                    ['posting_id', 'status', 'created_at'])
    op.create_index('ix_career_applications_created_at', 'career_applications', ['created_at'])
    op.create_table(
        'career_files',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('uploader', sa.String(80), nullable=False),
        sa.Column('application_id', sa.String(36),
                  sa.ForeignKey('career_applications.id', ondelete='CASCADE'), nullable=True),
        sa.Column('filename', sa.String(120), nullable=False),
        sa.Column('content_type', sa.String(100), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('storage_key', sa.String(64), nullable=False, unique=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_career_files_uploader', 'career_files', ['uploader', 'application_id'])
    op.create_index('ix_career_files_application_id', 'career_files', ['application_id'])
    op.create_index('ix_career_files_created_at', 'career_files', ['created_at'])


def downgrade() -> None:
    op.drop_table('career_files')
    op.drop_table('career_applications')
    op.drop_table('career_postings')
