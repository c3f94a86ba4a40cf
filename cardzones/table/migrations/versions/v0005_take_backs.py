"""Taking back acts takes consent: each table's standing request and the
seats that accepted it."""

from cardzones.table import columns

revision, down_revision = "0005", "0004"


def upgrade() -> None:
    columns.create(("take_backs", columns.take_backs()))


def downgrade() -> None:
    columns.drop("take_backs")
