"""a received message's bytes are kept once (inbound_message), however many of our
addresses it came to; inbound_mail keeps one row per address and when it was handed
to a worker (queued_at)

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inbound_message',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    )
    # Each existing row's bytes become a message of the same id.
    op.execute("INSERT INTO inbound_message (id, raw, received_at) SELECT id, raw, received_at FROM inbound_mail")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SELECT setval(pg_get_serial_sequence('inbound_message', 'id'), "
                   "COALESCE((SELECT max(id) FROM inbound_message), 0) + 1, false)")
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('inbound_message_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('queued_at', sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE inbound_mail SET inbound_message_id = id")
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.alter_column('inbound_message_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_foreign_key('fk_inbound_mail_inbound_message_id', 'inbound_message',
                                    ['inbound_message_id'], ['id'])
        batch_op.create_index(batch_op.f('ix_inbound_mail_inbound_message_id'), ['inbound_message_id'], unique=False)
        batch_op.drop_column('raw')


def downgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw', sa.LargeBinary(), nullable=True))
    op.execute("UPDATE inbound_mail SET raw = (SELECT raw FROM inbound_message "
               "WHERE inbound_message.id = inbound_mail.inbound_message_id)")
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.alter_column('raw', existing_type=sa.LargeBinary(), nullable=False)
        batch_op.drop_index(batch_op.f('ix_inbound_mail_inbound_message_id'))
        batch_op.drop_constraint('fk_inbound_mail_inbound_message_id', type_='foreignkey')
        batch_op.drop_column('queued_at')
        batch_op.drop_column('inbound_message_id')
    op.drop_table('inbound_message')
