"""The table chat: what the seats said, numbered per table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        # Numbered from 1 per table; the key makes a second writer of the same
        # number fail instead of writing twice.
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        # The table's event number when it was said, so that a replay shows it
        # among the events.
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("chat")
