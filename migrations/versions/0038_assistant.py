"""assistant (issue 16 part 3): the AI assistant's stored conversations, their messages and each user's
assistant preferences

Revision ID: 0038
Revises: 0037
Create Date: 2026-11-26 14:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = '0038'
down_revision = '0037'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'assistant_conversations',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('title', sa.String(length=120), nullable=False),
        sa.Column('red_flag_category', sa.String(length=64), nullable=True),
        sa.Column('red_flag_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['user_id'], ['auth_users.id'],
            name=op.f('fk_assistant_conversations_user_id_auth_users'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_assistant_conversations')),
    )
    op.create_index(
        'ix_assistant_conversations_user_updated', 'assistant_conversations', ['user_id', 'updated_at']
    )
    op.create_table(
        'assistant_messages',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('conversation_id', sa.String(length=36), nullable=False),
        sa.Column(
            'kind',
            sa.Enum(
                'question', 'answer', 'emergency', 'crisis', 'refusal', 'not_found', 'booking',
                name='answerkind', native_enum=False, length=16,
            ),
            nullable=False,
        ),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('sources', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['conversation_id'], ['assistant_conversations.id'],
            name=op.f('fk_assistant_messages_conversation_id_assistant_conversations'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_assistant_messages')),
    )
    op.create_index(
        'ix_assistant_messages_conversation_created', 'assistant_messages', ['conversation_id', 'created_at']
    )
    op.create_table(
        'assistant_preferences',
        sa.Column('user_id', sa.String(length=36), nullable=False),
        sa.Column('keep_history', sa.Boolean(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['user_id'], ['auth_users.id'],
            name=op.f('fk_assistant_preferences_user_id_auth_users'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('user_id', name=op.f('pk_assistant_preferences')),
    )


def downgrade() -> None:
    op.drop_table('assistant_preferences')
    op.drop_index('ix_assistant_messages_conversation_created', table_name='assistant_messages')
    op.drop_table('assistant_messages')
    op.drop_index('ix_assistant_conversations_user_updated', table_name='assistant_conversations')
    op.drop_table('assistant_conversations')
