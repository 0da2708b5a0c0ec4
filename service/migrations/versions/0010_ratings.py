"""ratings: a game may be rated; each player's rating per game

Revision ID: 0010
Revises: 0009
"""
import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'rating',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user.id'), nullable=False),
        sa.Column('game_type', sa.String(length=32), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('user_id', 'game_type'),
    )
    op.create_index('ix_rating_user_id', 'rating', ['user_id'])
    op.create_index('ix_rating_game_type', 'rating', ['game_type'])


def downgrade() -> None:
    op.drop_index('ix_rating_game_type', 'rating')
    op.drop_index('ix_rating_user_id', 'rating')
    op.drop_table('rating')
    op.drop_column('game', 'rated')
