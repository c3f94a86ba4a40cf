"""A table's end: when a seat finished the game, and which seat."""

from cardzones.table import columns

revision, down_revision = "0002", "0001"


def upgrade() -> None:
    columns.add("tables", columns.finished())


def downgrade() -> None:
    columns.remove("tables", columns.finished())
