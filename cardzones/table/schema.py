"""The store's tables, as SQLAlchemy Core describes them. The migrations in
``migrations/versions`` make them; this module is what the code reads and
writes through, and a test checks that the two agree. Both build each table
from the columns of :mod:`cardzones.table.columns`, where they are described."""

from __future__ import annotations

import sqlalchemy as sa

from cardzones.table import columns

metadata = sa.MetaData()

#: One row per table: its creation record (secret-bearing: it holds the seed).
#: ``finished_*`` are set once, when a seat finishes the game: no act is taken
#: after it, and its players may replay it from any seat's point of view.
#: ``finish_until`` is set while a proposal to finish stands
#: (cardzones.table.finish).
tables = sa.Table(
    "tables", metadata, *columns.tables(), *columns.finished(), *columns.finish_until()
)

#: One row per seat and one for the spectator: the digest of its token.
seats = sa.Table("seats", metadata, *columns.seats())

#: The numbered actions of each table: ``(table_id, number)`` is the key, so a
#: second writer of the same number fails instead of writing twice.
actions = sa.Table("actions", metadata, *columns.actions())

#: The table's state after some actions, so that a restart replays only the rest.
snapshots = sa.Table("snapshots", metadata, *columns.snapshots())

#: The table chat: player text, numbered per table. It never holds anything
#: the server knows about the game, only what a seat typed.
chat = sa.Table("chat", metadata, *columns.chat())

#: Each seat's standing vote to finish its table: agree or concede
#: (cardzones.table.finish). A decline deletes the agreements.
finish_votes = sa.Table("finish_votes", metadata, *columns.finish_votes())

#: Each table's standing request to take back acts, if any, and the seats
#: that accepted it (a JSON list) (cardzones.table.take_back). A request is
#: answered only while the table's last event is its ``head``; ``refused`` is
#: the seat that refused it (the asking seat: withdrew it), None while it stands.
take_backs = sa.Table("take_backs", metadata, *columns.take_backs())

#: Events counted per key across every process of the store (a client
#: address's new tables, its new WebSockets): the times of those in the
#: window, as a JSON list, and when the row may be forgotten.
rate_windows = sa.Table(
    "rate_windows", metadata, *columns.rate_windows(), sa.Index("rate_windows_until", "until")
)
