"""The command line's options that several commands take, each written once
as an ``Annotated`` type: a command's parameter names its type, and the
option's flag and help come with it."""

from __future__ import annotations

from typing import Annotated

import typer

DB_HELP = "the database: a SQLite file (the default) or postgresql://user@host/db"

#: The table store: ``serve``, ``export`` and ``replay``.
Db = Annotated[str | None, typer.Option("--db", help=DB_HELP)]
#: A table of the store, by its id.
TableId = Annotated[str, typer.Argument(help="the table id")]
#: Print JSON instead of the text for people.
PrintJson = Annotated[bool, typer.Option("--json", help="print JSON")]
#: Print the whole answer as one JSON object.
OneJson = Annotated[bool, typer.Option("--json", help="one JSON object")]
#: One game of the card index.
CardGame = Annotated[
    str | None, typer.Option("--ruleset", help="only this game (a rule set with card data)")
]
