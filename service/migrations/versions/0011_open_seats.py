"""open seats: a game keeps how many of its seats anyone may still join, and an
ended game the rematch started from it

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('open_seats', sa.Integer(), server_default='0', nullable=False))
    op.add_column('game', sa.Column('rematch_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=True))
    op.create_index('ix_game_open_seats', 'game', ['open_seats'])


def downgrade() -> None:
    op.drop_index('ix_game_open_seats', 'game')
    op.drop_column('game', 'rematch_id')
    op.drop_column('game', 'open_seats')
