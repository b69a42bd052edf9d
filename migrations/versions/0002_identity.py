"""identity: users, identities, sessions, refresh tokens, MFA factors/challenges/AMR claims, one-time tokens,
PKCE flow states (the built-in /auth/v1 service)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 10:58:01.718365
"""

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('auth_users',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('aud', sa.String(length=255), nullable=False),
    sa.Column('role', sa.String(length=255), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('phone', sa.String(length=32), nullable=True),
    sa.Column('encrypted_password', sa.String(length=255), nullable=True),
    sa.Column('email_confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('phone_confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('invited_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('confirmation_sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('recovery_sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('email_change', sa.String(length=320), nullable=True),
    sa.Column('email_change_sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reauthentication_sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_sign_in_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('banned_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('raw_app_meta_data', sa.JSON(), nullable=False),
    sa.Column('raw_user_meta_data', sa.JSON(), nullable=False),
    sa.Column('is_anonymous', sa.Boolean(), nullable=False),
    sa.Column('is_sso_user', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_users')),
    sa.UniqueConstraint('email', name=op.f('uq_auth_users_email')),
    sa.UniqueConstraint('phone', name=op.f('uq_auth_users_phone'))
    )
    with op.batch_alter_table('auth_users', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_users_created_at'), ['created_at'], unique=False)

    op.create_table('auth_flow_states',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=True),
    sa.Column('auth_code', sa.String(length=64), nullable=False),
    sa.Column('code_challenge', sa.String(length=128), nullable=False),
    sa.Column('code_challenge_method', sa.String(length=8), nullable=False),
    sa.Column('provider_type', sa.String(length=32), nullable=False),
    sa.Column('authentication_method', sa.String(length=32), nullable=False),
    sa.Column('auth_code_issued_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_flow_states_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_flow_states')),
    sa.UniqueConstraint('auth_code', name=op.f('uq_auth_flow_states_auth_code'))
    )
    with op.batch_alter_table('auth_flow_states', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_flow_states_user_id'), ['user_id'], unique=False)

    op.create_table('auth_identities',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('provider_id', sa.String(length=255), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('identity_data', sa.JSON(), nullable=False),
    sa.Column('provider', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('last_sign_in_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_identities_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_identities')),
    sa.UniqueConstraint('provider_id', 'provider', name='uq_auth_identities_provider_id')
    )
    with op.batch_alter_table('auth_identities', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_identities_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_identities_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_identities_user_id'), ['user_id'], unique=False)

    op.create_table('auth_mfa_factors',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('friendly_name', sa.String(length=255), nullable=False),
    sa.Column('factor_type', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('secret', sa.String(length=255), nullable=False),
    sa.Column('phone', sa.String(length=32), nullable=False),
    sa.Column('last_challenged_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_mfa_factors_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_mfa_factors'))
    )
    with op.batch_alter_table('auth_mfa_factors', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_mfa_factors_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_mfa_factors_user_id'), ['user_id'], unique=False)

    op.create_table('auth_one_time_tokens',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('token_type', sa.String(length=32), nullable=False),
    sa.Column('token_hash', sa.Text(), nullable=False),
    sa.Column('relates_to', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_one_time_tokens_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_one_time_tokens')),
    sa.UniqueConstraint('user_id', 'token_type', name='uq_auth_one_time_tokens_user_type')
    )
    with op.batch_alter_table('auth_one_time_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_one_time_tokens_token_hash'), ['token_hash'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_one_time_tokens_user_id'), ['user_id'], unique=False)

    op.create_table('auth_sessions',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('aal', sa.String(length=8), nullable=False),
    sa.Column('factor_id', sa.String(length=36), nullable=True),
    sa.Column('not_after', sa.DateTime(timezone=True), nullable=True),
    sa.Column('refreshed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('user_agent', sa.String(length=512), nullable=True),
    sa.Column('ip', sa.String(length=64), nullable=True),
    sa.Column('tag', sa.String(length=255), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_sessions_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_sessions'))
    )
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_sessions_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_sessions_user_id'), ['user_id'], unique=False)

    op.create_table('auth_mfa_amr_claims',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('session_id', sa.String(length=36), nullable=False),
    sa.Column('authentication_method', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['auth_sessions.id'], name=op.f('fk_auth_mfa_amr_claims_session_id_auth_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_mfa_amr_claims')),
    sa.UniqueConstraint('session_id', 'authentication_method', name='uq_auth_mfa_amr_claims_session_method')
    )
    with op.batch_alter_table('auth_mfa_amr_claims', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_mfa_amr_claims_session_id'), ['session_id'], unique=False)

    op.create_table('auth_mfa_challenges',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('factor_id', sa.String(length=36), nullable=False),
    sa.Column('ip_address', sa.String(length=64), nullable=False),
    sa.Column('verified_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['factor_id'], ['auth_mfa_factors.id'], name=op.f('fk_auth_mfa_challenges_factor_id_auth_mfa_factors'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_mfa_challenges'))
    )
    with op.batch_alter_table('auth_mfa_challenges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_mfa_challenges_factor_id'), ['factor_id'], unique=False)

    op.create_table('auth_refresh_tokens',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('session_id', sa.String(length=36), nullable=False),
    sa.Column('parent', sa.String(length=64), nullable=True),
    sa.Column('revoked', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['auth_sessions.id'], name=op.f('fk_auth_refresh_tokens_session_id_auth_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['auth_users.id'], name=op.f('fk_auth_refresh_tokens_user_id_auth_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_refresh_tokens')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_auth_refresh_tokens_token_hash'))
    )
    with op.batch_alter_table('auth_refresh_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_refresh_tokens_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_refresh_tokens_parent'), ['parent'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_refresh_tokens_session_id'), ['session_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_refresh_tokens_user_id'), ['user_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('auth_refresh_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_refresh_tokens_user_id'))
        batch_op.drop_index(batch_op.f('ix_auth_refresh_tokens_session_id'))
        batch_op.drop_index(batch_op.f('ix_auth_refresh_tokens_parent'))
        batch_op.drop_index(batch_op.f('ix_auth_refresh_tokens_created_at'))

    op.drop_table('auth_refresh_tokens')
    with op.batch_alter_table('auth_mfa_challenges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_mfa_challenges_factor_id'))

    op.drop_table('auth_mfa_challenges')
    with op.batch_alter_table('auth_mfa_amr_claims', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_mfa_amr_claims_session_id'))

    op.drop_table('auth_mfa_amr_claims')
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_sessions_user_id'))
        batch_op.drop_index(batch_op.f('ix_auth_sessions_created_at'))

    op.drop_table('auth_sessions')
    with op.batch_alter_table('auth_one_time_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_one_time_tokens_user_id'))
        batch_op.drop_index(batch_op.f('ix_auth_one_time_tokens_token_hash'))

    op.drop_table('auth_one_time_tokens')
    with op.batch_alter_table('auth_mfa_factors', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_mfa_factors_user_id'))
        batch_op.drop_index(batch_op.f('ix_auth_mfa_factors_created_at'))

    op.drop_table('auth_mfa_factors')
    with op.batch_alter_table('auth_identities', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_identities_user_id'))
        batch_op.drop_index(batch_op.f('ix_auth_identities_email'))
        batch_op.drop_index(batch_op.f('ix_auth_identities_created_at'))

    op.drop_table('auth_identities')
    with op.batch_alter_table('auth_flow_states', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_flow_states_user_id'))

    op.drop_table('auth_flow_states')
    with op.batch_alter_table('auth_users', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_users_created_at'))

    op.drop_table('auth_users')
