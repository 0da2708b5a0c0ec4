"""table talk: messages to a game's table, each seat's private notes, a player's
choice of how table talk reaches him by email and a seat's mute

Revision ID: 0008
Revises: 0007
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('user', sa.Column('talk_mail', sa.String(length=12), server_default='next', nullable=False))
    op.add_column('seat', sa.Column('table_muted', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'table_message',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False),
        sa.Column('seat_id', sa.Integer(), sa.ForeignKey('seat.id'), nullable=False),
        sa.Column('text', sa.String(length=1000), nullable=False),
        sa.Column('via', sa.String(length=8), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_table_message_game_id', 'table_message', ['game_id'])
    op.create_index('ix_table_message_created_at', 'table_message', ['created_at'])
    op.create_table(
        'seat_note',
        sa.Column('seat_id', sa.Integer(), sa.ForeignKey('seat.id'), primary_key=True),
        sa.Column('text', sa.String(length=10000), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('seat_note')
    op.drop_index('ix_table_message_created_at', 'table_message')
    op.drop_index('ix_table_message_game_id', 'table_message')
    op.drop_table('table_message')
    op.drop_column('seat', 'table_muted')
    op.drop_column('user', 'talk_mail')
