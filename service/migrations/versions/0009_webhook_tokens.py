"""webhook tokens: the Mailgun signature tokens already accepted, so a replayed post is
refused

Revision ID: 0009
Revises: 0008
"""
import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'webhook_token',
        sa.Column('token', sa.String(length=200), primary_key=True),
        sa.Column('signed_at', sa.BigInteger(), nullable=False),
    )
    op.create_index('ix_webhook_token_signed_at', 'webhook_token', ['signed_at'])


def downgrade() -> None:
    op.drop_index('ix_webhook_token_signed_at', 'webhook_token')
    op.drop_table('webhook_token')
