"""Validating views and logs against the package's JSON Schemas
(cardzones/schema, docs/json.md). Every test that makes views and logs for a
viewer checks them here."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from cardzones import schema
from cardzones.kernel.logview import LOG_FORMAT

_VIEW = Draft202012Validator(schema.load("view"))
_LOG = Draft202012Validator(schema.load("log"))
Draft202012Validator.check_schema(schema.load("view"))
Draft202012Validator.check_schema(schema.load("log"))


def check_view(view: dict[str, Any]) -> None:
    """Raise when ``view`` does not follow view.schema.json."""
    _VIEW.validate(view)


def check_log(entries: list[dict[str, Any]], viewer: str | None = None) -> None:
    """Raise when the log entries do not follow log.schema.json."""
    _LOG.validate({"format": LOG_FORMAT, "viewer": viewer, "entries": entries})
