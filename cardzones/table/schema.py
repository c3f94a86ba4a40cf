"""The store's tables, as SQLAlchemy Core describes them. The migrations in
``migrations/versions`` make them; this module is what the code reads and
writes through, and a test checks that the two agree."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

#: One row per table: its creation record (secret-bearing: it holds the seed).
tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("creation", sa.Text, nullable=False),
    # Set once, when a seat finishes the game: no act is taken after it, and
    # its players may replay it from any seat's point of view.
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("finished_by", sa.String(200), nullable=True),
    sa.Column("finished_number", sa.Integer, nullable=True),
    # While a proposal to finish stands: when it finishes the game without
    # the seats that have not voted (cardzones.table.finish).
    sa.Column("finish_until", sa.Float, nullable=True),
)

#: One row per seat and one for the spectator: the digest of its token.
seats = sa.Table(
    "seats",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("player", sa.String(200), nullable=True),
    sa.Column("token_digest", sa.String(64), nullable=False),
    sa.PrimaryKeyConstraint("table_id", "token_digest"),
)

#: The numbered actions of each table: ``(table_id, number)`` is the key, so a
#: second writer of the same number fails instead of writing twice.
actions = sa.Table(
    "actions",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("seat", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("act", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "number"),
)

#: The table's state after some actions, so that a restart replays only the rest.
snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "number"),
)

#: The table chat: player text, numbered per table. It never holds anything
#: the server knows about the game, only what a seat typed.
chat = sa.Table(
    "chat",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("seat", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("after", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq"),
)

#: Each seat's standing vote to finish its table: agree or concede
#: (cardzones.table.finish). A decline deletes the agreements.
finish_votes = sa.Table(
    "finish_votes",
    metadata,
    sa.Column(
        "table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("vote", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "player"),
)

#: Each table's standing request to take back acts, if any, and the seats
#: that accepted it (a JSON list) (cardzones.table.take_back). A request is
#: answered only while the table's last event is its ``head``.
take_backs = sa.Table(
    "take_backs",
    metadata,
    sa.Column(
        "table_id",
        sa.String(64),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("acts", sa.Integer, nullable=False),
    sa.Column("target", sa.Integer, nullable=False),
    sa.Column("head", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("accepted", sa.Text, nullable=False),
    # The seat that refused it (the asking seat: withdrew it); None while it stands.
    sa.Column("refused", sa.String(200), nullable=True),
)

#: Events counted per key across every process of the store (a client
#: address's new tables, its new WebSockets): the times of those in the
#: window, as a JSON list, and when the row may be forgotten.
rate_windows = sa.Table(
    "rate_windows",
    metadata,
    sa.Column("key", sa.String(300), primary_key=True),
    sa.Column("times", sa.Text, nullable=False),
    sa.Column("until", sa.Float, nullable=False),
    sa.Index("rate_windows_until", "until"),
)
