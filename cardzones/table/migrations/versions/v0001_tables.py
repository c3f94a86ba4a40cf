"""Tables, seats, numbered actions and snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        # The creation record as JSON text, in the order it was given (setup
        # order is part of the game). Secret-bearing: it holds the seed.
        sa.Column("creation", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("player", sa.String(200), nullable=True),
        sa.Column("token_digest", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "token_digest"),
    )
    op.create_table(
        "actions",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("act", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )
    op.create_table(
        "snapshots",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("tables")
