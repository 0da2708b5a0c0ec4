"""inbound mail: replies kept raw, and addresses whose mail bounces

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_key', sqlmodel.sql.sqltypes.AutoString(length=250), nullable=False),
    sa.Column('recipient', sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
    sa.Column('envelope_from', sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.Column('detail', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('message_key'),
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mail_processed_at'), ['processed_at'], unique=False)
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bouncing_since', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('bouncing_since')
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_mail_processed_at'))
    op.drop_table('inbound_mail')
