"""Finishing takes consent: each seat's vote, and when a standing proposal
finishes the game without the others.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable: a table made before this version has no proposal standing.
    op.add_column("tables", sa.Column("finish_until", sa.Float, nullable=True))
    op.create_table(
        "finish_votes",
        sa.Column(
            "table_id",
            sa.String(64),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("vote", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "player"),
    )


def downgrade() -> None:
    op.drop_table("finish_votes")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("finish_until")
