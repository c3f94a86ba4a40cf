"""Finishing takes consent: each seat's vote, and when a standing proposal
finishes the game without the others."""

from cardzones.table import columns

revision, down_revision = "0004", "0003"


def upgrade() -> None:
    columns.add("tables", columns.finish_until())
    columns.create(("finish_votes", columns.finish_votes()))


def downgrade() -> None:
    columns.drop("finish_votes")
    columns.remove("tables", columns.finish_until())
