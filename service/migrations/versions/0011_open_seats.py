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
    # Batch mode: SQLite (the embedded default) cannot add a foreign key with ALTER TABLE;
    # there the table is copied, on PostgreSQL the columns are added in place.
    with op.batch_alter_table('game') as game:
        game.add_column(sa.Column('open_seats', sa.Integer(), server_default='0', nullable=False))
        game.add_column(sa.Column('rematch_id', sa.Integer(), nullable=True))
        game.create_foreign_key('fk_game_rematch_id_game', 'game', ['rematch_id'], ['id'])
        game.create_index('ix_game_open_seats', ['open_seats'])


def downgrade() -> None:
    with op.batch_alter_table('game') as game:
        game.drop_index('ix_game_open_seats')
        game.drop_constraint('fk_game_rematch_id_game', type_='foreignkey')
        game.drop_column('rematch_id')
        game.drop_column('open_seats')
