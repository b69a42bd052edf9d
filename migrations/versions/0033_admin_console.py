"""admin console: the periodic jobs' last run and outcome, one row per job, for /admin/health; on
PostgreSQL, a trigram index for the accounts search (e-mail and name, lowercased: app/services/admin/_users.py
SEARCH_TEXT), created when pg_trgm is available (without it the search still works, by a scan)

Revision ID: 0033
Revises: 0036
Create Date: 2026-11-26 11:30:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0033"
down_revision = '0036'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_runs",
        sa.Column("job", sa.String(120), primary_key=True),
        sa.Column("every_seconds", sa.Float(), nullable=False),
        sa.Column("last_run_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_ok", sa.Boolean(), nullable=False),
        sa.Column("last_count", sa.Integer(), nullable=False),
        sa.Column("last_success_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            DO $$
            BEGIN
                IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
                    CREATE EXTENSION IF NOT EXISTS pg_trgm;
                END IF;
                IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
                    CREATE INDEX IF NOT EXISTS ix_auth_users_search_trgm ON auth_users USING gin ((lower(
                        coalesce(email, '') || ' ' || coalesce(raw_user_meta_data ->> 'first_name', '')
                        || ' ' || coalesce(raw_user_meta_data ->> 'last_name', '')
                    )) gin_trgm_ops);
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE NOTICE 'pg_trgm could not be created: the accounts search scans the table';
            END
            $$;
            """
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_auth_users_search_trgm")
    op.drop_table("job_runs")
