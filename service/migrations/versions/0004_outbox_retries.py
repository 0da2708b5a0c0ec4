"""outbox retries: a claim per delivery, the next attempt's time, a dead state;
addresses stored in lower case; server-side web sessions; sign-in links name an
address, not a user

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('dead_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_error', sa.String(length=300), nullable=True))
    op.create_table('websession',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('websession', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_websession_user_id'), ['user_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_websession_token_hash'), ['token_hash'], unique=True)
    with op.batch_alter_table('signinlink', schema=None) as batch_op:
        batch_op.add_column(sa.Column('email', sa.String(length=254), nullable=True))
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=True)
    # Addresses are compared in lower case from now on; an address whose lower-case
    # twin already exists keeps its spelling (merging two accounts is left to a person).
    op.execute('UPDATE "user" SET email = lower(email) WHERE email <> lower(email) AND NOT EXISTS '
               '(SELECT 1 FROM "user" AS twin WHERE twin.email = lower("user".email))')
    op.execute('UPDATE seat SET email = lower(email) WHERE email <> lower(email) AND NOT EXISTS '
               '(SELECT 1 FROM seat AS twin WHERE twin.game_id = seat.game_id AND twin.email = lower(seat.email))')


def downgrade() -> None:
    op.execute('DELETE FROM signinlink WHERE user_id IS NULL')
    with op.batch_alter_table('signinlink', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column('email')
    op.drop_table('websession')
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.drop_column('last_error')
        batch_op.drop_column('dead_at')
        batch_op.drop_column('next_attempt_at')
        batch_op.drop_column('claimed_until')
