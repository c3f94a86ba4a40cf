"""Rates counted across processes: the recent events of each key (a client
address's new tables, its new WebSockets), so that several server processes
on one database keep one limit.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_windows",
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("times", sa.Text, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    # The rows past their window are forgotten by time.
    op.create_index("rate_windows_until", "rate_windows", ["until"])


def downgrade() -> None:
    op.drop_index("rate_windows_until", "rate_windows")
    op.drop_table("rate_windows")
