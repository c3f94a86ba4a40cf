"""The store's columns, each written once: the schema (:mod:`cardzones.table.schema`)
and the migrations that make it (``migrations/versions``) build their tables
from the functions here.

Each function gives the columns one revision made, and a revision is never
edited once released: a later change to a table is a new revision with a
function of its own, so that every database, however old, upgrades through
the same steps. A test compares the migrated schema with the code's.

The functions make new :class:`sqlalchemy.Column` objects on every call: a
column belongs to the one table it is given to.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.schema import SchemaItem

#: A table's id, and a seat's token digest (SHA-256 in hex).
ID = sa.String(64)
#: A player's name, a seat.
NAME = sa.String(200)
#: A seat's role, a vote.
WORD = sa.String(16)

#: A column's type, as SQLAlchemy takes it: an instance or the class.
Kind = sa.types.TypeEngine[Any] | type[sa.types.TypeEngine[Any]]


def required(**types: Kind) -> list[sa.Column[Any]]:
    """One NOT NULL column for each keyword, in the order given."""
    return [sa.Column(name, kind, nullable=False) for name, kind in types.items()]


def optional(**types: Kind) -> list[sa.Column[Any]]:
    """One nullable column for each keyword, in the order given."""
    return [sa.Column(name, kind, nullable=True) for name, kind in types.items()]


def of_table(key: str | None, *items: SchemaItem) -> list[SchemaItem]:
    """The columns of a table whose rows belong to one table of ``tables``
    (deleted with it): ``table_id``, then ``items``, keyed by ``table_id`` and
    ``key``. With no ``key`` the table holds at most one row per table."""
    owner = sa.ForeignKey("tables.id", ondelete="CASCADE")
    if key is None:
        return [sa.Column("table_id", ID, owner, primary_key=True), *items]
    return [
        sa.Column("table_id", ID, owner, nullable=False),
        *items,
        sa.PrimaryKeyConstraint("table_id", key),
    ]


# -- revision 0001 -------------------------------------------------------------


def tables() -> list[SchemaItem]:
    """A table's creation record, as JSON text in the order it was given
    (setup order is part of the game). Secret-bearing: it holds the seed."""
    return [
        sa.Column("id", ID, primary_key=True),
        *required(created=sa.Float, ruleset=sa.String(32), creation=sa.Text),
    ]


def seats() -> list[SchemaItem]:
    """One row per seat and one for the spectator (no player): the digest of
    its token."""
    return of_table(
        "token_digest", *required(role=WORD), *optional(player=NAME), *required(token_digest=ID)
    )


def actions() -> list[SchemaItem]:
    """The numbered actions: a second writer of the same number fails."""
    return of_table("number", *required(number=sa.Integer, seat=NAME, at=sa.Float, act=sa.Text))


def snapshots() -> list[SchemaItem]:
    """The game's state after some actions."""
    return of_table("number", *required(number=sa.Integer, state=sa.Text))


# -- revision 0002 -------------------------------------------------------------


def finished() -> list[sa.Column[Any]]:
    """Added to ``tables``: when a seat finished the game, which seat, and
    the number of the last act."""
    return optional(finished_at=sa.Float, finished_by=NAME, finished_number=sa.Integer)


# -- revision 0003 -------------------------------------------------------------


def chat() -> list[SchemaItem]:
    """What the seats said, numbered from 1 per table, each with the table's
    event number when it was said (a replay shows it among the events)."""
    return of_table(
        "seq", *required(seq=sa.Integer, seat=NAME, at=sa.Float, after=sa.Integer, text=sa.Text)
    )


# -- revision 0004 -------------------------------------------------------------


def finish_until() -> list[sa.Column[Any]]:
    """Added to ``tables``: when a standing proposal to finish finishes the
    game without the seats that have not voted."""
    return optional(finish_until=sa.Float)


def finish_votes() -> list[SchemaItem]:
    """Each seat's standing vote to finish its table."""
    return of_table("player", *required(player=NAME, vote=WORD, at=sa.Float))


# -- revision 0005 -------------------------------------------------------------


def take_backs() -> list[SchemaItem]:
    """Each table's standing request to take back acts: who asked, how many,
    the event it goes back to, the event it answers, when, the seats that
    accepted it (a JSON list) and the seat that refused it."""
    return of_table(
        None,
        *required(player=NAME, acts=sa.Integer, target=sa.Integer, head=sa.Integer),
        *required(at=sa.Float, accepted=sa.Text),
        *optional(refused=NAME),
    )


# -- revision 0006 -------------------------------------------------------------


def rate_windows() -> list[SchemaItem]:
    """The times of a key's recent events (a JSON list) and when the row may
    be forgotten."""
    return [
        sa.Column("key", sa.String(300), primary_key=True),
        *required(times=sa.Text, until=sa.Float),
    ]


# -- the migrations' steps -------------------------------------------------------
# Alembic is imported by the steps alone: the code that only reads and writes
# through the schema never loads it.


def create(*made: tuple[str, list[SchemaItem]]) -> None:
    """Create each ``(name, columns)`` table, in order."""
    from alembic import op

    for name, items in made:
        op.create_table(name, *items)


def drop(*names: str) -> None:
    """Drop the named tables, in order."""
    from alembic import op

    for name in names:
        op.drop_table(name)


def add(table: str, columns: list[sa.Column[Any]]) -> None:
    """Add nullable columns: SQLite and Postgres add them in place, and a row
    made before has none of what they hold."""
    from alembic import op

    for column in columns:
        op.add_column(table, column)


def remove(table: str, columns: list[sa.Column[Any]]) -> None:
    """Drop the columns :func:`add` added, last first (SQLite rebuilds the table)."""
    from alembic import op

    with op.batch_alter_table(table) as batch:
        for column in reversed(columns):
            batch.drop_column(column.name)
