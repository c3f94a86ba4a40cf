"""The table chat: what the seats said, numbered per table."""

from cardzones.table import columns

revision, down_revision = "0003", "0002"


def upgrade() -> None:
    columns.create(("chat", columns.chat()))


def downgrade() -> None:
    columns.drop("chat")
