"""The JSON Schemas (draft 2020-12) of what the engine sends: a view
(``view.schema.json``) and a log (``log.schema.json``). docs/json.md describes
the forms field by field; the tests validate every view and log they make
against these files.

>>> load("view")["properties"]["format"]["const"]
'cardzones-view/1'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

#: The schemas this package holds, by name.
NAMES = ("view", "log")


def load(name: str) -> dict[str, Any]:
    """The schema called ``name`` (``view`` or ``log``), as JSON data."""
    if name not in NAMES:
        raise ValueError(f"no schema {name!r}; the schemas are {', '.join(NAMES)}")
    text = (resources.files(__package__) / f"{name}.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
