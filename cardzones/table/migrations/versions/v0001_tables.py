"""Tables, seats, numbered actions and snapshots."""

from cardzones.table import columns

revision, down_revision = "0001", None


def upgrade() -> None:
    columns.create(
        ("tables", columns.tables()),
        ("seats", columns.seats()),
        ("actions", columns.actions()),
        ("snapshots", columns.snapshots()),
    )


def downgrade() -> None:
    columns.drop("snapshots", "actions", "seats", "tables")
