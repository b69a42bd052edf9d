"""help center: public articles (Markdown, draft or published, in five categories), 'Was this helpful?'
votes (one per voter and article), and the full-text index: an FTS5 table kept in step by triggers on
SQLite, a generated tsvector column with a GIN index on PostgreSQL

Revision ID: 0036
Revises: 0030
Create Date: 2026-11-26 11:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0036'
down_revision = '0030'
branch_labels = None
depends_on = None

_VECTOR = (
    "setweight(to_tsvector('english', coalesce(title, '')), 'A') || "
    "setweight(to_tsvector('english', coalesce(summary, '')), 'B') || "
    "setweight(to_tsvector('english', coalesce(body, '')), 'C')"
)
_FTS_ROW = "(new.id, new.title, new.summary, new.body)"


def upgrade() -> None:
    op.create_table(
        'help_articles',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('slug', sa.String(80), nullable=False, unique=True),
        sa.Column('title', sa.String(120), nullable=False),
        sa.Column('summary', sa.String(300), nullable=False, server_default=''),
        sa.Column('category', sa.Enum('booking', 'payments', 'visits', 'accounts', 'providers',
                                      name='helpcategory', native_enum=False, length=16), nullable=False),
        sa.Column('status', sa.Enum('draft', 'published', name='helpstatus', native_enum=False, length=16),
                  nullable=False),
        sa.Column('position', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('body', sa.Text(), nullable=False, server_default=''),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_by', sa.String(36), nullable=True),
    )
    op.create_index('ix_help_articles_category', 'help_articles', ['category', 'status', 'position'])
    op.create_index('ix_help_articles_created_at', 'help_articles', ['created_at'])
    op.create_table(
        'help_votes',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('article_id', sa.String(36), sa.ForeignKey('help_articles.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('voter', sa.String(80), nullable=False),
        sa.Column('helpful', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('article_id', 'voter', name='uq_help_votes_article_voter'),
    )
    op.create_index('ix_help_votes_created_at', 'help_votes', ['created_at'])
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f"ALTER TABLE help_articles ADD COLUMN search_vector tsvector GENERATED ALWAYS AS ({_VECTOR}) STORED")
        op.execute("CREATE INDEX ix_help_articles_search ON help_articles USING gin (search_vector)")
    else:
        op.execute(
            "CREATE VIRTUAL TABLE help_articles_fts USING fts5("
            "article_id UNINDEXED, title, summary, body, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        op.execute(
            "CREATE TRIGGER help_articles_fts_insert AFTER INSERT ON help_articles BEGIN "
            f"INSERT INTO help_articles_fts (article_id, title, summary, body) VALUES {_FTS_ROW}; END"
        )
        op.execute(
            "CREATE TRIGGER help_articles_fts_update AFTER UPDATE ON help_articles BEGIN "
            "DELETE FROM help_articles_fts WHERE article_id = old.id; "
            f"INSERT INTO help_articles_fts (article_id, title, summary, body) VALUES {_FTS_ROW}; END"
        )
        op.execute(
            "CREATE TRIGGER help_articles_fts_delete AFTER DELETE ON help_articles BEGIN "
            "DELETE FROM help_articles_fts WHERE article_id = old.id; END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP INDEX IF EXISTS ix_help_articles_search")
    else:
        for name in ('insert', 'update', 'delete'):
            op.execute(f"DROP TRIGGER IF EXISTS help_articles_fts_{name}")
        op.execute("DROP TABLE IF EXISTS help_articles_fts")
    op.drop_index('ix_help_votes_created_at', table_name='help_votes')
    op.drop_table('help_votes')
    op.drop_index('ix_help_articles_created_at', table_name='help_articles')
    op.drop_index('ix_help_articles_category', table_name='help_articles')
    op.drop_table('help_articles')
