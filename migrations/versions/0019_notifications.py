"""notifications: the in-app inbox (one row per recipient and event, with what was e-mailed) and each
person's preferences per category and channel; partial indexes for the inbox tabs, the unread badge and the
daily digest

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 09:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None

UNREAD = 'read_at IS NULL AND archived_at IS NULL'


def _where(postgresql: str, sqlite: str | None = None) -> dict:
    return {'postgresql_where': sa.text(postgresql), 'sqlite_where': sa.text(sqlite or postgresql)}


def upgrade() -> None:
    op.create_table('notifications',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('recipient_id', sa.String(length=36), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('category', sa.String(length=24), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('body', sa.String(length=300), nullable=False),
    sa.Column('link', sa.String(length=300), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('read_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('digest_pending', sa.Boolean(), nullable=False),
    sa.Column('emailed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['recipient_id'], ['auth_users.id'], name=op.f('fk_notifications_recipient_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notifications'))
    )
    op.create_index('ix_notifications_inbox', 'notifications', ['recipient_id', 'created_at', 'id'], **_where('archived_at IS NULL'))
    op.create_index('ix_notifications_archived', 'notifications', ['recipient_id', 'created_at', 'id'], **_where('archived_at IS NOT NULL'))
    op.create_index('ix_notifications_unread', 'notifications', ['recipient_id', 'category', 'created_at'], **_where(UNREAD))
    op.create_index('ix_notifications_digest', 'notifications', ['recipient_id', 'created_at'], **_where('digest_pending', 'digest_pending = 1'))
    op.create_table('notification_preferences',
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('category', sa.String(length=24), nullable=False),
    sa.Column('in_app', sa.Boolean(), nullable=False),
    sa.Column('email', sa.Boolean(), nullable=False),
    sa.Column('digest', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_notification_preferences_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'category', name=op.f('pk_notification_preferences'))
    )


def downgrade() -> None:
    op.drop_table('notification_preferences')
    op.drop_index('ix_notifications_digest', table_name='notifications')
    op.drop_index('ix_notifications_unread', table_name='notifications')
    op.drop_index('ix_notifications_archived', table_name='notifications')
    op.drop_index('ix_notifications_inbox', table_name='notifications')
    op.drop_table('notifications')
