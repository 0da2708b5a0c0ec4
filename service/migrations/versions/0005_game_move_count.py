"""the game row keeps its move count, the last move's sequence number, so a move
needs no read of the move log

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('game', sa.Column('move_count', sa.Integer(), server_default='0', nullable=False))
    op.execute("UPDATE game SET move_count = COALESCE((SELECT max(seq) FROM move WHERE move.game_id = game.id), 0)")


def downgrade() -> None:
    op.drop_column('game', 'move_count')
