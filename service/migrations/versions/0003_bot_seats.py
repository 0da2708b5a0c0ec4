"""bot seats

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('bot')
