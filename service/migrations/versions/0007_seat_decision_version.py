"""a seat keeps the game's version at which its current decision began, so a move sent
for that decision stays current while the others move

Revision ID: 0007
Revises: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Unknown for games under way: such a seat's moves need the game's own version until
    # its next decision begins.
    op.add_column('seat', sa.Column('decision_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column('seat', 'decision_version')
