"""Rates counted across processes: the recent events of each key (a client
address's new tables, its new WebSockets), so that several server processes
on one database keep one limit."""

from alembic import op

from cardzones.table import columns

revision, down_revision = "0006", "0005"


def upgrade() -> None:
    columns.create(("rate_windows", columns.rate_windows()))
    # The rows past their window are forgotten by time.
    op.create_index("rate_windows_until", "rate_windows", ["until"])


def downgrade() -> None:
    op.drop_index("rate_windows_until", "rate_windows")
    columns.drop("rate_windows")
