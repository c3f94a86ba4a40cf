"""A table's end: when a seat finished the game, and which seat.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable columns: SQLite and Postgres add them in place; a table made
    # before this version is not finished.
    op.add_column("tables", sa.Column("finished_at", sa.Float, nullable=True))
    op.add_column("tables", sa.Column("finished_by", sa.String(200), nullable=True))
    op.add_column("tables", sa.Column("finished_number", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("finished_number")
        batch.drop_column("finished_by")
        batch.drop_column("finished_at")
