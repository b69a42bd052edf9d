"""forum: categories, topics, posts (published / pending / hidden / rejected, a review queue), likes, flags
(one per member and post), bookmarks and watching per topic, members' standing (approved posts, silences)
and the moderators' log

Revision ID: 0037
Revises: 0039
Create Date: 2026-11-26 14:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0037'
down_revision = '0039'
branch_labels = None
depends_on = None

_STATUS = ('published', 'pending', 'hidden', 'rejected')


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, length=16)


def _user(name: str = 'user_id', **kw) -> sa.Column:
    return sa.Column(name, sa.String(36), sa.ForeignKey('auth_users.id', ondelete='CASCADE'), nullable=False, **kw)


def upgrade() -> None:
    op.create_table(
        'forum_categories',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('slug', sa.String(80), nullable=False, unique=True),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('description', sa.String(300), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
    )
    op.create_table(
        'forum_topics',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('category_id', sa.String(36), sa.ForeignKey('forum_categories.id', ondelete='CASCADE'),
                  nullable=False),
        _user('author_id'),
        sa.Column('title', sa.String(150), nullable=False),
        sa.Column('slug', sa.String(80), nullable=False),
        sa.Column('status', _enum('poststatus', *_STATUS), nullable=False),
        sa.Column('reply_count', sa.Integer(), nullable=False),
        sa.Column('accepted_post_id', sa.String(36), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_activity_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_forum_topics_author_id', 'forum_topics', ['author_id'])
    op.create_index('ix_forum_topics_created_at', 'forum_topics', ['created_at'])
    op.create_index('ix_forum_topics_latest', 'forum_topics', ['status', 'last_activity_at'])
    op.create_index('ix_forum_topics_category_latest', 'forum_topics', ['category_id', 'status', 'last_activity_at'])
    op.create_table(
        'forum_posts',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('topic_id', sa.String(36), sa.ForeignKey('forum_topics.id', ondelete='CASCADE'), nullable=False),
        _user('author_id'),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('quote_of', sa.String(36), nullable=True),
        sa.Column('status', _enum('poststatus', *_STATUS), nullable=False),
        sa.Column('needs_review', sa.Boolean(), nullable=False),
        sa.Column('review_reason', _enum('reviewreason', 'new_member', 'safety', 'flags'), nullable=True),
        sa.Column('safety_category', sa.String(40), nullable=False),
        sa.Column('moderation_reason', sa.String(500), nullable=False),
        sa.Column('like_count', sa.Integer(), nullable=False),
        sa.Column('flag_count', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('edited_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_forum_posts_created_at', 'forum_posts', ['created_at'])
    op.create_index('ix_forum_posts_topic', 'forum_posts', ['topic_id', 'number'])
    op.create_index('ix_forum_posts_queue', 'forum_posts', ['needs_review', 'created_at'])
    op.create_index('ix_forum_posts_status', 'forum_posts', ['status', 'created_at'])
    op.create_index('ix_forum_posts_author', 'forum_posts', ['author_id', 'status'])
    op.create_table(
        'forum_likes',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('post_id', sa.String(36), sa.ForeignKey('forum_posts.id', ondelete='CASCADE'), nullable=False),
        _user(),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('post_id', 'user_id', name='uq_forum_likes_post_user'),
    )
    op.create_index('ix_forum_likes_user_id', 'forum_likes', ['user_id'])
    op.create_index('ix_forum_likes_created_at', 'forum_likes', ['created_at'])
    op.create_table(
        'forum_flags',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('post_id', sa.String(36), sa.ForeignKey('forum_posts.id', ondelete='CASCADE'), nullable=False),
        _user(),
        sa.Column('reason', _enum('flagreason', 'off_topic', 'inappropriate', 'spam', 'misinformation', 'other'),
                  nullable=False),
        sa.Column('note', sa.String(500), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('post_id', 'user_id', name='uq_forum_flags_post_user'),
    )
    op.create_index('ix_forum_flags_user_id', 'forum_flags', ['user_id'])
    op.create_index('ix_forum_flags_created_at', 'forum_flags', ['created_at'])
    op.create_table(
        'forum_topic_users',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('topic_id', sa.String(36), sa.ForeignKey('forum_topics.id', ondelete='CASCADE'), nullable=False),
        _user(),
        sa.Column('level', _enum('watchlevel', 'watching', 'muted'), nullable=True),
        sa.Column('bookmarked', sa.Boolean(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('topic_id', 'user_id', name='uq_forum_topic_users_topic_user'),
    )
    op.create_index('ix_forum_topic_users_watchers', 'forum_topic_users', ['topic_id', 'level'])
    op.create_index('ix_forum_topic_users_bookmarks', 'forum_topic_users', ['user_id', 'bookmarked'])
    op.create_table(
        'forum_members',
        sa.Column('user_id', sa.String(36), sa.ForeignKey('auth_users.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('approved_posts', sa.Integer(), nullable=False),
        sa.Column('silenced_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('silence_reason', sa.String(500), nullable=False),
    )
    op.create_index('ix_forum_members_silenced_until', 'forum_members', ['silenced_until'])
    op.create_table(
        'forum_moderation_log',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('moderator_id', sa.String(36), nullable=True),
        sa.Column('action', _enum('moderationaction', 'approve', 'reject', 'edit', 'hide', 'unhide', 'silence',
                                  'unsilence'), nullable=False),
        sa.Column('post_id', sa.String(36), nullable=True),
        sa.Column('topic_id', sa.String(36), nullable=True),
        sa.Column('member_id', sa.String(36), nullable=True),
        sa.Column('reason', sa.String(500), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_forum_moderation_log_created_at', 'forum_moderation_log', ['created_at'])


def downgrade() -> None:
    for table in ('forum_moderation_log', 'forum_members', 'forum_topic_users', 'forum_flags', 'forum_likes',
                  'forum_posts', 'forum_topics', 'forum_categories'):
        op.drop_table(table)
