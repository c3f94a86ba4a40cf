"""Taking back acts takes consent: each table's standing request and the
seats that accepted it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "take_backs",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("acts", sa.Integer, nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("head", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("accepted", sa.Text, nullable=False),
        sa.Column("refused", sa.String(200), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("take_backs")
