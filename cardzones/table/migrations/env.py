"""Alembic's entry point for the table store's migrations.

:meth:`cardzones.table.store.Store.migrate` runs them at start, with the
store's own connection in ``config.attributes["connection"]``; nothing else
configures them.
"""

from __future__ import annotations

from alembic import context

from cardzones.table.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
